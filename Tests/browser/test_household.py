"""The page as a household sees it (issue 44), counted: each timer once on a page loaded while
timers run, and its one card following them live; the notice that the phone's sound is locked
until a tap; a snoozed card saying when it rings again; a pomodoro's spinning tomato; the
home-screen manifest; the tries a wrong pairing code leaves; the session cookie a home-screen app
keeps. Plain WebDriver calls (seen.py): each test runs and reads alike in every engine (run.py).
Screenshots under .build/screenshots/ENGINE/ (loaded-with-timers, sound-locked, snoozed,
pomodoro, pairing-tries).
"""

import http.client
import json
import re
import subprocess
import sys
import time
import unittest
import urllib.parse
import urllib.request

from harness import EGGTIMER, Kitchen
from seen import browser_for, card, cards, rings, shown_count

# A Max-Age a home-screen app can live with: the phone stays paired for months, not a session.
LONG_ENOUGH_S = 180 * 24 * 3600


# The kitchen is on loopback: no proxy from the environment may stand between.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def seconds(clock):
    """A card's time left (`4:59`, `1:02:03`) in seconds."""
    found = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)", clock)
    if found is None:
        raise AssertionError("no time left in %r" % clock)
    hours, minutes, rest = found.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(rest)


def changes(browser, read, message):
    """Waits until `read()` gives something other than its first reading; returns both."""
    first = read()

    def moved(driver):
        now = read()
        return [now] if now != first else False

    return first, browser.wait(moved, message)[0]


class LoadedTests(unittest.TestCase):
    """Timers that run before the page is opened."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def start(self, *words):
        status, out, err = self.kitchen.command("start", *words)
        self.assertEqual(status, 0, "start %s: %s %s" % (" ".join(words), out, err))

    def test_timers_running_when_the_page_loads_show_once_and_follow_live(self):
        browser, kitchen = self.browser, self.kitchen
        self.start("soft")
        self.start("5m", "pasta")
        # Paired, the page is loaded again, the server drawing the two cards, the script following.
        browser.pair(kitchen)
        counting = ["Pause", "+1 min", "Cancel"]
        self.assertEqual([(c["label"], c["state"], c["buttons"]) for c in cards(browser)],
                         [("Soft", "counting", counting), ("pasta", "counting", counting)])
        self.assertEqual(rings(browser)["screens"], 0)
        # The one card ticks down (a frozen copy drawn by the server would not).
        first, later = changes(browser, lambda: card(browser, "pasta")["clock"], "pasta's card ticking")
        self.assertLess(seconds(later), seconds(first))
        self.assertLessEqual(seconds(first), 300)
        # Opened again (a phone's reload, a home-screen app launched): still each timer once.
        browser.driver.get(kitchen.url)
        browser.wait(lambda d: d.execute_script("return document.body.dataset.live") == "yes", "the page live")
        self.assertEqual([c["label"] for c in cards(browser)], ["Soft", "pasta"])
        browser.screenshot("loaded-with-timers")
        # What another front does shows on the one card: paused from a shell, then cancelled.
        status, out, err = kitchen.command("pause", "pasta")
        self.assertEqual(status, 0, out + err)
        browser.wait(lambda d: card(browser, "pasta")["state"] == "paused", "pasta's card paused")
        self.assertEqual(card(browser, "pasta")["buttons"], ["Resume", "+1 min", "Cancel"])
        status, out, err = kitchen.command("cancel", "Soft")
        self.assertEqual(status, 0, out + err)
        browser.wait(lambda d: card(browser, "Soft")["state"] == "cancelled", "Soft's card cancelled")
        self.assertEqual([(c["label"], c["state"], len(c["buttons"])) for c in cards(browser)],
                         [("pasta", "paused", 3), ("Soft", "cancelled", 0)])


class SoundTests(unittest.TestCase):
    """The phone's own alarm, which a browser keeps silent until a tap."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def audio_state(self):
        return self.browser.driver.execute_script("return sound.context === null ? null : sound.context.state")

    def test_the_page_says_the_phone_cannot_ring_until_a_tap(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        # Opened afresh, as from a home screen: no tap yet on this page.
        browser.driver.get(kitchen.url)
        browser.wait(lambda d: d.execute_script("return document.body.dataset.live") == "yes", "the page live")
        browser.wait(lambda d: shown_count(browser, "#sound-locked") == 1, "the locked-sound notice")
        self.assertEqual(shown_count(browser, "#sound-locked button"), 1)
        self.assertEqual(browser.driver.execute_script("return document.body.dataset.sound"), "locked")
        self.assertNotEqual(self.audio_state(), "running")
        self.assertEqual(browser.low_contrast(), [])
        browser.screenshot("sound-locked")
        # Its button is the tap that unlocks: the context runs, the notice goes, nothing starts.
        browser.click("#unlock-sound")
        browser.wait(lambda d: shown_count(browser, "#sound-locked") == 0, "the notice gone")
        browser.await_audio_clock()
        self.assertEqual(browser.driver.execute_script("return document.body.dataset.sound"), "unlocked")
        self.assertEqual(cards(browser), [])
        self.assertEqual(rings(browser)["screens"], 0)
        # Loaded again it is locked again, and any tap on the page (an egg) unlocks it too.
        browser.driver.get(kitchen.url)
        browser.wait(lambda d: shown_count(browser, "#sound-locked") == 1, "the notice again")
        browser.click('button.egg[data-preset="Soft"]')
        browser.wait(lambda d: shown_count(browser, "#sound-locked") == 0, "the notice gone after a tap on an egg")
        browser.wait(lambda d: len(cards(browser)) == 1, "Soft's card")
        self.assertEqual(card(browser, "Soft")["state"], "counting")


class SnoozeTests(unittest.TestCase):
    """A Soft egg of 4 s, snoozed from the ringing screen."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.QUICK)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def test_a_snoozed_card_says_when_it_rings_again(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        browser.click('button.egg[data-preset="Soft"]')
        browser.wait(lambda d: rings(browser)["screens"] == 1, "the ringing screen")
        ringing = rings(browser)
        self.assertEqual((ringing["names"], ringing["buttons"], ringing["cards"]), (["Soft"], ["STOP", "Snooze"], 1))
        browser.click("#snooze")
        browser.wait(lambda d: '"event":"snoozed"' in kitchen.log("Soft"), "Soft's snoozed event")
        browser.wait(lambda d: card(browser, "Soft")["state"] == "snoozed", "Soft's card snoozed")
        # Ten minutes of snooze, counted down from its deadline: "rings again in 9:58", not "10:00".
        browser.wait(lambda d: re.match(r"^rings again in 9:[0-5]\d$", card(browser, "Soft")["clock"]),
                     "the snoozed card's words (%r)" % card(browser, "Soft")["clock"])
        changes(browser, lambda: card(browser, "Soft")["clock"], "the snoozed card ticking")
        self.assertEqual(len(cards(browser)), 1)
        self.assertEqual(card(browser, "Soft")["buttons"], ["Stop", "Cancel"])
        self.assertEqual((rings(browser)["screens"], rings(browser)["cards"]), (0, 0))
        browser.screenshot("snoozed")
        # Its Stop ends it: done, the words and buttons gone.
        browser.click('#timers li[data-label="Soft"] button[data-action="ack"]')
        browser.wait(lambda d: card(browser, "Soft")["state"] == "done", "Soft done")
        self.assertEqual((card(browser, "Soft")["clock"], card(browser, "Soft")["buttons"]), ("", []))


class TomatoTests(unittest.TestCase):
    """A pomodoro (`eggtimer pomodoro`, run beside the kitchen, which follows it: the kitchen
    starts none itself) and a plain timer started from the page's own form."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def run_pomodoro(self):
        """Starts `eggtimer pomodoro` (no terminal: plain lines) as the kitchen's user; ended at
        the test's end."""
        pomodoro = subprocess.Popen([EGGTIMER, "pomodoro"], env=self.kitchen.environment, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def end():
            pomodoro.terminate()
            try:
                pomodoro.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pomodoro.kill()
                pomodoro.wait()

        self.addCleanup(end)

    def spin_animation(self):
        return self.browser.driver.execute_script(
            "const s = document.querySelector('#timers li[data-kind=\"pomodoro\"] .tomato-svg');"
            " return s === null ? null : getComputedStyle(s).animationName")

    def test_a_counting_pomodoro_shows_its_tomato_spinning(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        browser.find("#start").send_keys("5m")
        browser.find("#label").send_keys("tea")
        browser.click("#start-button")
        browser.wait(lambda d: len(cards(browser)) == 1, "tea's card")
        self.run_pomodoro()
        browser.wait(lambda d: len(cards(browser)) == 2, "the pomodoro's card")
        tomato = card(browser, "pomodoro")
        self.assertEqual((tomato["kind"], tomato["state"], tomato["tomato"], tomato["spinning"]),
                         ("pomodoro", "counting", True, True))
        self.assertRegex(tomato["clock"], r"^2[45]:\d\d work$")
        self.assertEqual(self.spin_animation(), "spin")
        # Only the pomodoro has one: one tomato in sight, none on tea's card.
        self.assertEqual((card(browser, "tea")["tomato"], shown_count(browser, "#timers .tomato")), (False, 1))
        browser.screenshot("pomodoro")
        # Paused, it stops spinning but stays.
        browser.click('#timers li[data-kind="pomodoro"] button[data-action="pause"]')
        browser.wait(lambda d: card(browser, "pomodoro")["state"] == "paused", "the pomodoro paused")
        tomato = card(browser, "pomodoro")
        self.assertEqual((tomato["tomato"], tomato["spinning"]), (True, False))
        self.assertEqual(self.spin_animation(), "none")
        self.assertEqual(len(cards(browser)), 2)


class HomeScreenTests(unittest.TestCase):
    """The page as an app on a phone's home screen: its manifest, and the cookie that keeps it paired."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def get(self, path):
        """GET `path` from the kitchen: (status, Content-Type, body bytes)."""
        with DIRECT.open(urllib.parse.urljoin(self.kitchen.url, path), timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type"), answer.read()

    def manifest(self):
        """The page's one manifest link, fetched: (its URL, the manifest)."""
        browser = self.browser
        links = browser.driver.execute_script(
            "return [...document.querySelectorAll('link[rel=manifest]')].map((l) => l.href)")
        self.assertEqual(len(links), 1, links)
        status, kind, body = self.get(links[0])
        self.assertEqual((status, kind), (200, "application/manifest+json"))
        return links[0], json.loads(body)

    def test_the_page_links_a_manifest_for_the_home_screen(self):
        browser = self.browser
        browser.driver.get(self.kitchen.url)
        browser.wait(lambda d: browser.shown("#pair"), "the pairing screen")
        address, manifest = self.manifest()
        self.assertEqual(address, self.kitchen.url + "manifest.webmanifest")
        self.assertEqual((manifest["name"], manifest["short_name"]), ("eggtimer kitchen", "eggtimer"))
        self.assertEqual(manifest["display"], "standalone")
        self.assertEqual(urllib.parse.urljoin(address, manifest["start_url"]), self.kitchen.url)
        self.assertEqual(urllib.parse.urljoin(address, manifest["scope"]), self.kitchen.url)
        theme = browser.driver.execute_script("return document.querySelector('meta[name=theme-color]').content")
        self.assertEqual(manifest["theme_color"], theme)
        self.assertEqual(len(manifest["icons"]), 1, manifest["icons"])
        for icon in manifest["icons"]:
            status, kind, body = self.get(urllib.parse.urljoin(address, icon["src"]))
            self.assertEqual((status, kind), (200, icon["type"]))
            self.assertTrue(body.startswith(b"<svg"), body[:40])
            self.assertEqual(icon["sizes"], "any")

    def test_the_session_cookie_lasts_for_a_home_screen_app(self):
        browser, kitchen = self.browser, self.kitchen
        before = time.time()
        browser.pair(kitchen)
        # As the browser keeps it: for the whole site, out of scripts' reach, kept past the session.
        kept = browser.driver.get_cookie("eggtimer_session")
        self.assertIsNotNone(kept, browser.driver.get_cookies())
        self.assertEqual((kept["path"], kept["httpOnly"], kept["secure"]), ("/", True, False), kept)
        self.assertIn(kept.get("sameSite"), ("Strict", "Lax"), kept)
        self.assertIn("expiry", kept, "a session cookie would be gone when the app is closed")
        self.assertGreaterEqual(kept["expiry"] - before, LONG_ENOUGH_S, kept)
        self.assertEqual(browser.driver.execute_script("return document.cookie"), "", "HttpOnly")
        # As the kitchen sends it, to a second phone: one Set-Cookie, its attributes exactly.
        connection = http.client.HTTPConnection("127.0.0.1", kitchen.port, timeout=30)
        self.addCleanup(connection.close)
        connection.request("POST", "/api/pair", body=json.dumps({"code": kitchen.pairing_code()}),
                           headers={"Content-Type": "application/json", "Origin": kitchen.url.rstrip("/")})
        answer = connection.getresponse()
        answer.read()
        self.assertEqual(answer.status, 200)
        sent = answer.headers.get_all("Set-Cookie")
        self.assertEqual(len(sent), 1, sent)
        name_value, *attributes = [part.strip() for part in sent[0].split(";")]
        self.assertRegex(name_value, r"^eggtimer_session=[0-9a-f]{64}$")
        named = dict((a.split("=", 1) + [""])[:2] for a in attributes)
        self.assertEqual(sorted(named), ["HttpOnly", "Max-Age", "Path", "SameSite"], sent[0])
        self.assertEqual(named["Path"], "/")
        self.assertIn(named["SameSite"], ("Strict", "Lax"))
        self.assertGreaterEqual(int(named["Max-Age"]), LONG_ENOUGH_S)
        # Launched from the home screen: the manifest's start_url opens the kitchen, still paired.
        address, manifest = self.manifest()
        browser.driver.get(urllib.parse.urljoin(address, manifest["start_url"]))
        browser.wait(lambda d: browser.shown("#kitchen") and d.execute_script("return document.body.dataset.live")
                     == "yes", "the kitchen, paired, from the start_url")
        self.assertEqual(shown_count(browser, "#pair"), 0)


class PairingTests(unittest.TestCase):
    """The pairing screen's words after wrong codes."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = browser_for(self)

    def test_a_wrong_code_says_how_many_tries_are_left(self):
        browser, kitchen = self.browser, self.kitchen
        browser.driver.get(kitchen.url)
        browser.wait(lambda d: browser.shown("#code"), "the pairing screen")
        code = kitchen.pairing_code()
        wrong = "000000" if code != "000000" else "111111"
        for left in ["4 tries left", "3 tries left"]:
            browser.find("#code").clear()
            browser.find("#code").send_keys(wrong)
            browser.click("#pair-button")
            browser.wait(lambda d: browser.text("#pair-message") == "wrong pairing code: " + left,
                         "the refusal saying %s (%r)" % (left, browser.text("#pair-message")))
            self.assertEqual(shown_count(browser, "[role=alert]"), 1)
            self.assertEqual(shown_count(browser, "#pair"), 1)
        browser.screenshot("pairing-tries")
        # How to get a code, the keypad's key named as the README and the man page name it.
        self.assertEqual(browser.text("#pair p"), "On the kitchen's box run eggtimer kitchen --pair (or hold the "
                         "keypad's . or Enter key for a second) and type the six digits it gives.")
        browser.find("#code").clear()
        browser.find("#code").send_keys(code)
        browser.click("#pair-button")
        browser.wait(lambda d: browser.shown("#kitchen"), "the kitchen screen")


if __name__ == "__main__":
    import run

    sys.exit(run.main())
