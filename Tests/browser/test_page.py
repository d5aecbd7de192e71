"""The phone page in a real browser against a real kitchen (issue 30).

Pair with a code from `eggtimer kitchen --pair`; tap Soft and find a Soft timer with the right
deadline in `eggtimer status --json`; see it ring through the file PCM as the ringing screen;
tap STOP and find its `acknowledged` event, and the page saying it is done; a house timer whose
label and node carry markup shown as text; the same page with JavaScript off, through its plain
forms. Each test runs in each engine (run.py: `self.engine`) and counts what it sees (seen.py):
the cards, the buttons each offers, the rings. The screens are written under
.build/screenshots/ENGINE/ (pairing, menu, counting, ringing).
"""

import datetime
import json
import sys
import unittest

from harness import Broker, Browser, Kitchen, topic_level, wall_milliseconds
from seen import card, cards, rings, shown_count

TITLE_MENU = "How do you like your eggs?"
TITLE_DONE = "Alright, don't choke on them!"
COUNTING = ["Pause", "+1 min", "Cancel"]


def deadline_seconds(text):
    """A `status --json` deadline (local ISO 8601 with its offset, whole seconds) as Unix seconds."""
    return int(datetime.datetime.fromisoformat(text).timestamp())


class PageTests(unittest.TestCase):
    # The tests that see Soft ring get a 4 s Soft egg; the others the usual times.
    QUICK = {"test_soft_rings_on_the_page_and_stop_acknowledges_it", "test_stop_is_sent_again_when_the_kitchen_did_not_answer"}

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.QUICK if self._testMethodName in self.QUICK else Kitchen.USUAL)
        self.addCleanup(self.kitchen.close)
        self.browser = Browser(self.engine)
        self.addCleanup(self.browser.close)

    def row(self, label):
        return '#timers li.timer[data-label="%s"]' % label

    def test_the_pairing_screen_comes_first_and_a_code_pairs_the_phone(self):
        browser = self.browser
        browser.driver.get(self.kitchen.url)
        browser.wait(lambda d: browser.shown("#pair") and browser.shown("#code"), "the pairing screen")
        self.assertFalse(browser.driver.find_elements("css selector", "#kitchen"), "no kitchen before pairing")
        self.assertEqual(browser.low_contrast(), [])
        browser.screenshot("pairing")
        # A wrong code is refused, said on the page, and the phone stays unpaired.
        code = self.kitchen.pairing_code()
        browser.find("#code").send_keys("000000" if code != "000000" else "111111")
        browser.click("#pair-button")
        browser.wait(lambda d: browser.shown("#pair-message"), "the refusal")
        self.assertEqual(browser.text("#pair-message"), "wrong pairing code: 4 tries left")
        self.assertEqual((shown_count(browser, "#pair"), shown_count(browser, "[role=alert]")), (1, 1))
        browser.find("#code").clear()
        browser.find("#code").send_keys(code)
        browser.click("#pair-button")
        browser.wait(lambda d: browser.shown("#kitchen"), "the kitchen screen")
        browser.wait(lambda d: d.execute_script("return document.body.dataset.live") == "yes", "the event stream")
        self.assertEqual(browser.find("#title").text, TITLE_MENU)
        eggs = [egg.get_attribute("data-preset") for egg in browser.driver.find_elements("css selector", "button.egg")]
        self.assertEqual(eggs, ["Soft", "Medium", "Hard"])
        # No timer yet: no card, the words that say so, nothing ringing.
        self.assertEqual((cards(browser), shown_count(browser, "#none"), rings(browser)["screens"]), ([], 1, 0))
        # Each egg's time as its own element's text (WebKitWebDriver reads a whole egg as "Soft6:00").
        times = [shown.text for shown in browser.driver.find_elements("css selector", "button.egg .egg-time")]
        self.assertEqual(times, ["6:00", "8:00", "10:00"], "the configured times")
        self.assertEqual(browser.text("#node"), "kitchen")
        browser.screenshot("menu")
        # Everything the page loaded came from the kitchen: no CDN, no font, nothing outside.
        loaded = browser.driver.execute_script(
            "return performance.getEntriesByType('resource').map((e) => e.name)")
        self.assertTrue(loaded, "the page loaded its script and style")
        for name in loaded:
            self.assertTrue(name.startswith(self.kitchen.url), name)

    def test_soft_rings_on_the_page_and_stop_acknowledges_it(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        before = wall_milliseconds()
        browser.click('button.egg[data-preset="Soft"]')
        kitchen.lines.expect(r"Soft: started, rings in 0:04 \(pid \d+\)")
        after = wall_milliseconds()
        timers = [t for t in kitchen.status() if t["label"] == "Soft"]
        self.assertEqual(len(timers), 1, timers)
        self.assertEqual(timers[0]["state"], "counting", timers[0])
        # 4 s after the tap, as status --json says it: to the whole second.
        deadline = deadline_seconds(timers[0]["deadline"])
        self.assertGreaterEqual(deadline, (before + 4000) // 1000, timers[0])
        self.assertLessEqual(deadline, (after + 4000) // 1000, timers[0])
        self.assertLessEqual(timers[0]["remaining_s"], 4, timers[0])
        browser.wait(lambda d: len(cards(browser)) == 1, "Soft's card")
        self.assertEqual(card(browser, "Soft")["kind"], "egg")
        # It rings through the file PCM, and the phone shows the ringing screen: one, for one timer.
        browser.wait(lambda d: rings(browser)["screens"] == 1, "the ringing screen")
        ringing = rings(browser)
        self.assertEqual((ringing["names"], ringing["buttons"], ringing["cards"]), (["Soft"], ["STOP", "Snooze"], 1))
        self.assertEqual([(c["label"], c["state"], c["buttons"]) for c in cards(browser)],
                         [("Soft", "ringing", ["Stop", "Snooze"])])
        self.assertEqual(browser.find("#ring-verb").text, "is ringing")
        self.assertFalse(browser.shown("#ring-warning"), "its alarm reaches the file PCM: no warning")
        self.assertEqual(browser.low_contrast(), [])
        self.assertTrue(browser.shown("#stop") and browser.shown("#snooze"))
        browser.wait(lambda d: '"event":"sounding"' in kitchen.log("Soft") and kitchen.captured() > 0,
                     "the alarm written to the file PCM")
        # The phone rings too: the first tap allowed Web Audio, and the kitchen's sound loops.
        browser.wait(lambda d: d.execute_script("return document.body.dataset.audio") == "playing", "the phone's alarm")
        browser.await_audio_clock()
        browser.screenshot("ringing")
        browser.click("#stop")
        browser.wait(lambda d: '"event":"acknowledged"' in kitchen.log("Soft"), "Soft's acknowledged event")
        browser.wait(lambda d: not browser.shown("#ringing"), "the ringing screen gone")
        browser.wait(lambda d: browser.find("#title").text == TITLE_DONE, "the done title")
        row = self.row("Soft")
        browser.wait(lambda d: browser.find(row).get_attribute("data-state") == "done", "Soft's row done")
        self.assertEqual(browser.find(row + ' [data-field="state"]').text, "done")
        self.assertEqual([(c["label"], c["state"], c["buttons"], c["ringing"]) for c in cards(browser)],
                         [("Soft", "done", [], False)])
        self.assertEqual((rings(browser)["screens"], rings(browser)["cards"]), (0, 0))
        self.assertNotEqual(browser.driver.execute_script("return document.body.dataset.audio"), "playing")

    def test_stop_is_sent_again_when_the_kitchen_did_not_answer(self):
        # Issue 43: STOP acts once however often it is sent, so the page sends it again when the
        # network lost it: here the kitchen is killed while Soft rings and started again after
        # the tap (a connection closed for room before it was read looks the same to the page).
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        browser.click('button.egg[data-preset="Soft"]')
        kitchen.lines.expect(r"Soft: started, rings in 0:04 \(pid \d+\)")
        browser.wait(lambda d: rings(browser)["screens"] == 1, "the ringing screen")
        kitchen.kill()
        browser.click("#stop")
        # Its line (under the ringing screen, so read as text, not as WebDriver's visible text).
        said = 'return document.getElementById("message").textContent'
        browser.wait(lambda d: d.execute_script(said) == "The kitchen did not answer: trying again.",
                     "the page says it tries again")
        kitchen.start()
        browser.wait(lambda d: '"event":"acknowledged"' in kitchen.log("Soft"), "Soft acknowledged by the retry")
        self.assertEqual(kitchen.log("Soft").count('"event":"acknowledged"'), 1, kitchen.log("Soft"))
        browser.wait(lambda d: not browser.shown("#ringing"), "the ringing screen gone")

    def test_a_counting_egg_shows_its_title_time_left_and_progress(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        browser.click('button.egg[data-preset="Medium"]')
        kitchen.lines.expect(r"Medium: started, rings in 8:00")
        row = self.row("Medium")
        browser.wait(lambda d: browser.shown(row), "Medium's row")
        browser.wait(lambda d: browser.find("#title").text == "So you like it Medium huh?", "the egg's title")
        self.assertEqual(browser.find(row + ' [data-field="state"]').text, "counting")
        self.assertEqual([(c["label"], c["state"], c["buttons"], c["tomato"]) for c in cards(browser)],
                         [("Medium", "counting", COUNTING, False)])
        self.assertEqual(rings(browser)["screens"], 0)
        # The time left ticks down from the deadline; the bar fills as it goes.
        browser.wait(lambda d: browser.find(row + ' [data-field="left"]').text.startswith("7:5"), "the time left")
        progress = browser.find(row + ' [data-field="progress"]')
        self.assertEqual(progress.get_attribute("max"), "480")
        browser.wait(lambda d: float(progress.get_attribute("value")) > 0, "progress")
        browser.screenshot("counting")
        # Every control in sight is a touch target of at least 48x48 CSS px.
        small = browser.driver.execute_script(
            "return [...document.querySelectorAll('button, input:not([type=hidden])')]"
            ".filter((e) => e.offsetParent !== null).map((e) => {"
            " const r = e.getBoundingClientRect(); return [e.id || e.textContent.trim(), r.width, r.height]; })"
            ".filter((x) => x[1] < 48 || x[2] < 48)")
        self.assertEqual(small, [])
        # Every text in sight has AA contrast, and the phone's dark scheme is honoured, with AA too.
        self.assertEqual(browser.low_contrast(), [])
        light = browser.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        browser.color_scheme("dark")
        dark = browser.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        self.assertNotEqual(light, dark)
        self.assertEqual(browser.low_contrast(), [])
        browser.click(row + ' button[data-action="cancel"]')
        browser.wait(lambda d: '"event":"cancelled"' in kitchen.log("Medium"), "Medium's cancelled event")
        browser.wait(lambda d: card(browser, "Medium")["state"] == "cancelled", "Medium's card cancelled")
        self.assertEqual([(c["label"], c["buttons"]) for c in cards(browser)], [("Medium", [])])


class SilentTests(unittest.TestCase):
    """A kitchen whose sound device cannot be opened: its alarm rings with no sound."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.QUICK, device="file:'/nonexistent/eggtimer/alarm.raw',raw")
        self.addCleanup(self.kitchen.close)
        self.browser = Browser(self.engine)
        self.addCleanup(self.browser.close)

    def test_an_alarm_that_reaches_no_device_rings_on_the_phone_with_a_warning(self):
        browser, kitchen = self.browser, self.kitchen
        browser.pair(kitchen)
        browser.click('button.egg[data-preset="Soft"]')
        browser.wait(lambda d: '"event":"device_unavailable"' in kitchen.log("Soft"), "the device's failure")
        browser.wait(lambda d: browser.shown("#ringing") and browser.shown("#ring-warning"), "the ringing screen's warning")
        ringing = rings(browser)
        self.assertEqual((ringing["screens"], ringing["names"], ringing["buttons"]), (1, ["Soft"], ["STOP", "Snooze"]))
        self.assertEqual(shown_count(browser, "#ring-warning"), 1)
        # Its row (under the ringing screen, out of sight) says so too.
        warning = '#timers li.timer[data-label="Soft"] [data-field="warning"]'
        browser.wait(lambda d: d.execute_script(
            "const w = document.querySelector(arguments[0]); return w !== null && !w.hidden && w.textContent",
            warning), "the row's warning")
        self.assertIn("device", browser.find(warning).get_attribute("textContent"))
        self.assertEqual([(c["label"], c["ringing"], c["buttons"]) for c in cards(browser)],
                         [("Soft", True, ["Stop", "Snooze"])])
        self.assertEqual(rings(browser)["cards"], 1)
        browser.wait(lambda d: d.execute_script("return document.body.dataset.audio") == "playing", "the phone's alarm")
        browser.await_audio_clock()
        browser.click("#stop")
        browser.wait(lambda d: '"event":"acknowledged"' in kitchen.log("Soft"), "Soft's acknowledged event")
        browser.wait(lambda d: rings(browser)["screens"] == 0, "the ringing screen gone")
        self.assertEqual([(c["label"], c["state"]) for c in cards(browser)], [("Soft", "done")])


class NoScriptTests(unittest.TestCase):
    """The page with JavaScript off: plain forms, a refresh every 10 s."""

    def setUp(self):
        self.kitchen = Kitchen(Kitchen.QUICK)
        self.addCleanup(self.kitchen.close)
        self.browser = Browser(self.engine, javascript=False)
        self.addCleanup(self.browser.close)

    def offered(self):
        """Each card's label and the words of the buttons it shows, read by WebDriver's own
        element calls (no script of the test's in a page without scripts), again should the page
        reload meanwhile."""

        def read(driver):
            return [[(row.get_attribute("data-label"),
                      [b.text for b in row.find_elements("css selector", "button") if b.is_displayed()])
                     for row in driver.find_elements("css selector", "#timers li")]]

        return self.browser.wait(read, "the cards")[0]

    def test_without_javascript_the_forms_pair_start_soft_and_stop_it(self):
        browser, kitchen = self.browser, self.kitchen
        browser.driver.get(kitchen.url)
        browser.wait(lambda d: browser.shown("#code"), "the pairing screen")
        code = kitchen.pairing_code()
        # A wrong code: the form's answer is the pairing screen saying the tries left.
        browser.find("#code").send_keys("000000" if code != "000000" else "111111")
        browser.click("#pair-button")
        browser.wait(lambda d: browser.shown("#pair-message"), "the refusal")
        self.assertEqual(browser.text("#pair-message"), "wrong pairing code: 4 tries left")
        browser.find("#code").clear()
        browser.find("#code").send_keys(code)
        browser.click("#pair-button")
        browser.wait(lambda d: browser.shown("#kitchen"), "the kitchen screen")
        self.assertNotIn("js", browser.find("body").get_attribute("class").split(), "the page's script is off")
        browser.click('button.egg[data-preset="Soft"]')
        kitchen.lines.expect(r"Soft: started, rings in 0:04 \(pid \d+\)")
        browser.wait(lambda d: browser.shown('#timers li.timer[data-label="Soft"]'), "Soft's row after the form")
        self.assertIn(self.offered(), [[("Soft", COUNTING)], [("Soft", ["Stop", "Snooze"])]])
        self.assertFalse(browser.shown("#sound-locked"), "the script's notice stays hidden without it")
        # The page refreshes itself every 10 s without its script: the ringing screen comes.
        browser.wait(lambda d: browser.shown("#ringing"), "the ringing screen")
        self.assertEqual(browser.text("#ring-names"), "Soft")
        self.assertEqual(len(browser.driver.find_elements("css selector", "#ringing")), 1)
        self.assertEqual(self.offered(), [("Soft", ["Stop", "Snooze"])])
        browser.click("#stop")
        browser.wait(lambda d: '"event":"acknowledged"' in kitchen.log("Soft"), "Soft's acknowledged event")
        browser.wait(lambda d: browser.shown("#kitchen") and not browser.shown("#ringing"), "the kitchen again")
        # Done: no button left (the kitchen may already have forgotten the timer it showed).
        self.assertIn(self.offered(), [[], [("Soft", [])]])


class MarkupTests(unittest.TestCase):
    """A house timer (any MQTT publisher can set its label and node) with markup in its names."""

    def setUp(self):
        self.broker = Broker()
        self.addCleanup(self.broker.close)

    def test_a_label_with_markup_is_shown_as_text(self):
        label = '<b id="bold">tea</b><img src=x id="injected">'
        node = "<i>attic</i>"
        now = wall_milliseconds()
        deadline = datetime.datetime.fromtimestamp((now + 600_000) / 1000, datetime.timezone.utc)
        payload = {
            "state": "counting", "label": label, "node": node, "duration_s": 900, "remaining_s": 600,
            "deadline": deadline.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (deadline.microsecond // 1000),
        }
        # Retained, so the kitchen gets it when it subscribes: no need to know when it connects.
        self.broker.publish("eggtimer/%s/%s/state" % (topic_level(node), topic_level(label)), json.dumps(payload))
        kitchen = Kitchen(arguments=("--mqtt", self.broker.url))
        self.addCleanup(kitchen.close)
        browser = Browser(self.engine)
        self.addCleanup(browser.close)
        browser.pair(kitchen)
        rows = "#timers li.timer"
        browser.wait(lambda d: any(r.get_attribute("data-label") == label for r in d.find_elements("css selector", rows)),
                     "the house timer's row")
        self.assertEqual([(c["label"], c["node"], c["state"]) for c in cards(browser)], [(label, node, "counting")])
        row = [r for r in browser.driver.find_elements("css selector", rows) if r.get_attribute("data-label") == label][0]
        self.assertEqual(row.find_element("css selector", '[data-field="label"]').text, label)
        self.assertEqual(row.find_element("css selector", '[data-field="node"]').text, node)
        for injected in ["#bold", "#injected", "#timers b", "#timers i", "#timers img"]:
            self.assertFalse(browser.driver.find_elements("css selector", injected), injected)


if __name__ == "__main__":
    import run

    sys.exit(run.main())
