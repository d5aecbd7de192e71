"""What the browser tests (issue 30) stand on: a real kitchen, a real broker, a real browser.

A Kitchen is `eggtimer kitchen --http 127.0.0.1:PORT` in private runtime, state and scratch
folders, with a private config file (short egg times, a file PCM as its device). A Broker is a
private Mosquitto on a free loopback port. A Browser is one of two engines (ENGINES) on a 360x740
phone screen with a private profile folder: headless Chromium through /usr/bin/chromedriver, or
WebKitGTK (the engine of Safari, not Safari on iOS) through /usr/bin/WebKitWebDriver, its
MiniBrowser full screen on the run's Display, a private Xvfb. Nothing here sleeps for a fixed time:
each wait is for an event (a line the kitchen prints, a file's contents, a condition WebDriver
checks, the X server's own word that it is ready) up to a deadline. The tests run in a private
network namespace (scripts/isolated.sh), so nothing leaves loopback; Chromium is told so too.
"""

import atexit
import glob
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import services  # noqa: E402 (found through the path above)
from services import PATIENCE, Lines, await_listening, free_port  # noqa: E402

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EGGTIMER = os.environ.get("EGGTIMER_BINARY", os.path.join(ROOT, ".build", "debug", "eggtimer"))
SCREENSHOTS = os.path.join(ROOT, ".build", "screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
# libwebkit2gtk-4.1-0's own small browser, which WebKitWebDriver drives (its path has the triple).
MINIBROWSER = "/usr/lib/*/webkit2gtk-4.*/MiniBrowser"
XVFB = "/usr/bin/Xvfb"


# No WebDriver command waits longer than two patiences for its answer: a browser whose page
# process died (WebKitGTK's does when it finds no EGL driver) fails the test instead of hanging it.
RemoteConnection.set_timeout(2 * PATIENCE)

# The engines every browser test runs in (Tests/browser/run.py runs the suite once per engine).
ENGINES = ("chromium", "webkit")

# The phone's screen, in CSS px.
PHONE_WIDTH, PHONE_HEIGHT = 360, 740


def private_folder(name):
    """A new 0700 folder under /tmp for this suite."""
    return services.private_folder("browser", name)


class Broker(services.Broker):
    """A private Mosquitto broker (Tests/support/services.py) for this suite."""

    def __init__(self):
        super().__init__("browser")


def wall_milliseconds():
    """The wall clock now, Unix milliseconds."""
    return time.time_ns() // 1_000_000


def topic_level(name):
    """A name as one MQTT topic level, as eggtimer escapes it (HouseBus TimerTopics.level)."""
    out = ""
    for ch in name:
        code = ord(ch)
        if ch in "/+#%" or code < 0x20 or 0x7F <= code <= 0x9F:
            out += "".join("%%%02X" % byte for byte in ch.encode("utf-8"))
        else:
            out += ch
    return out


class Display:
    """A private X server for WebKitGTK (Xvfb, one screen of the phone's size) in this network
    namespace, with its own auth file: only a client with its cookie may connect.

    Xvfb picks a free display number itself and writes it to `-displayfd` once it accepts
    connections, so there is nothing to guess and nothing to sleep for. One serves a whole run
    (`shared()`); `stop_shared()` kills it at the end."""

    _shared = None

    def __init__(self):
        self.folder = private_folder("display")
        self.authority = os.path.join(self.folder, "Xauthority")
        cookie = os.urandom(16)
        # The server takes every cookie in its -auth file whatever display it names; a client
        # (libXau) wants its display's number, known only once Xvfb has picked it: written below.
        self._write_authority(cookie, "")
        reader, writer = os.pipe()
        self.log = open(os.path.join(self.folder, "Xvfb.log"), "wb")
        try:
            self.process = subprocess.Popen(
                [XVFB, "-displayfd", str(writer), "-auth", self.authority, "-nolisten", "tcp", "-noreset",
                 "-screen", "0", "%dx%dx24" % (PHONE_WIDTH, PHONE_HEIGHT)],
                pass_fds=(writer,), stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        finally:
            os.close(writer)
        try:
            self.number = self._read_number(reader)
        except BaseException:
            self.close()
            raise
        finally:
            os.close(reader)
        self._write_authority(cookie, str(self.number))
        self.name = ":%d" % self.number

    def _write_authority(self, cookie, number):
        """The auth file (Xauthority's format): one MIT-MAGIC-COOKIE-1 for any address (FamilyWild)."""

        def counted(data):
            return struct.pack(">H", len(data)) + data

        entry = struct.pack(">H", 0xFFFF) + counted(b"") + counted(number.encode()) + counted(
            b"MIT-MAGIC-COOKIE-1") + counted(cookie)
        fresh = self.authority + ".new"
        with open(os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            out.write(entry)
        os.replace(fresh, self.authority)

    def _read_number(self, reader):
        """The display number Xvfb writes when it is ready, or AssertionError with its log."""
        said = b""
        deadline = time.monotonic() + PATIENCE
        while not said.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("Xvfb was not ready within %d s; see %s" % (PATIENCE, self.folder))
            ready, _, _ = select.select([reader], [], [], left)
            if ready:
                chunk = os.read(reader, 64)
                if not chunk:
                    raise AssertionError("Xvfb exited (%s) before it was ready; see %s"
                                         % (self.process.wait(), self.folder))
                said += chunk
        return int(said)

    @property
    def environment(self):
        """What an X client needs to reach this display, and only this one."""
        return {"DISPLAY": self.name, "XAUTHORITY": self.authority, "GDK_BACKEND": "x11"}

    @classmethod
    def shared(cls):
        """The run's display, started at its first use."""
        if cls._shared is None:
            cls._shared = Display()
            atexit.register(cls.stop_shared)
        return cls._shared

    @classmethod
    def stop_shared(cls):
        """Kills the run's display, if one was started."""
        if cls._shared is not None:
            cls._shared.close()
            cls._shared = None

    def close(self):
        services.stop(self.process)
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class Kitchen:
    """`eggtimer kitchen --http 127.0.0.1:PORT` in private folders with a private config file.

    The config gives the eggs their times (`QUICK`: a Soft egg of 4 s, for the tests that see one
    ring; else 6, 8 and 10 minutes, as on the screenshots) and rings into a file PCM (`alarm.raw`
    in the scratch folder, unless `device` names another ALSA PCM)."""

    QUICK = "soft = 4s\nmedium = 8m\nhard = 10m\n"
    USUAL = "soft = 6m\nmedium = 8m\nhard = 10m\n"

    def __init__(self, config=USUAL, arguments=(), device=None):
        self.runtime = private_folder("runtime")
        self.scratch = private_folder("scratch")
        self.state = os.path.join(self.scratch, "state")
        self.capture = os.path.join(self.scratch, "alarm.raw")
        with open(os.path.join(self.scratch, "config"), "w") as out:
            # The node is named, not the host's name: the page shows it (and the screenshots).
            out.write("device = %s\nnode = kitchen\n" % (device or "file:'%s',raw" % self.capture) + config)
        self.environment = dict(
            os.environ, XDG_RUNTIME_DIR=self.runtime, XDG_STATE_HOME=self.state, HOME=self.scratch,
            EGGTIMER_CONFIG=os.path.join(self.scratch, "config"), TZ=os.environ.get("TZ", "UTC"))
        self.port = free_port()
        self.arguments = arguments
        self.start()

    def start(self):
        """Starts the kitchen process on the kitchen's port and folders; returns once it serves."""
        self.process = subprocess.Popen(
            [EGGTIMER, "kitchen", "--http", "127.0.0.1:%d" % self.port, *self.arguments], env=self.environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines = Lines(self.process.stdout)
        try:
            self.lines.expect(r"kitchen: HTTP API on http://")
        except BaseException:
            # Not started (or the run interrupted): no test holds it to close it.
            self.close()
            raise

    def kill(self):
        """Kills the kitchen process (SIGKILL) and waits for it; its timers run on."""
        self.process.kill()
        self.process.wait()

    @property
    def url(self):
        return "http://127.0.0.1:%d/" % self.port

    def command(self, *arguments):
        """Runs `eggtimer ARGUMENTS` as a client of this kitchen: (status, stdout, stderr)."""
        done = subprocess.run(
            [EGGTIMER, *arguments], env=self.environment, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=PATIENCE)
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    def pairing_code(self):
        """A fresh pairing code from `eggtimer kitchen --pair` (six digits)."""
        status, out, err = self.command("kitchen", "--pair")
        found = re.match(r"pairing code (\d{6}), valid for 10 minutes \(5 tries\)\n$", out)
        if status != 0 or not found:
            raise AssertionError("kitchen --pair said %r %r (%d)" % (out, err, status))
        return found.group(1)

    def status(self):
        """`eggtimer status --json`, parsed: one object per timer."""
        status, out, err = self.command("status", "--json")
        if status != 0:
            raise AssertionError("status --json failed (%d): %s" % (status, err))
        return json.loads(out)

    def log(self, label):
        """A started timer's log of JSON events beside its record, named by the label's key
        (LabelRule.key: the label lowercased, as its socket and record are)."""
        try:
            with open(os.path.join(self.state, "eggtimer", label.lower() + ".log")) as found:
                return found.read()
        except FileNotFoundError:
            return ""

    def captured(self):
        """How many bytes of alarm reached the file PCM."""
        try:
            return os.path.getsize(self.capture)
        except FileNotFoundError:
            return 0

    def close(self):
        self.command("cancel", "--all")
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.runtime, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)


class Browser:
    """One engine (`chromium` or `webkit`, ENGINES) showing a 360x740 phone screen with a private
    profile; with `javascript=False` the page's script is off (its plain forms; WebDriver still
    works). Screenshots go to .build/screenshots/ENGINE/."""

    def __init__(self, engine, javascript=True):
        if engine not in ENGINES:
            raise ValueError("no browser engine %r (%s)" % (engine, ", ".join(ENGINES)))
        self.engine = engine
        self.javascript = javascript
        self.scheme = "light"
        self.profile = private_folder("profile-" + engine)
        self.driver = None
        self.driver_process = None
        try:
            self.driver = self._chromium() if engine == "chromium" else self._webkit()
            # A page laid out for a phone, as the kitchen's is, sees the phone's size in both engines.
            self.driver.get('data:text/html,<meta name="viewport" content="width=device-width, initial-scale=1">')
            size = self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
            if size != [PHONE_WIDTH, PHONE_HEIGHT]:
                raise AssertionError(
                    "%s shows %r CSS px, not a phone's %dx%d" % (engine, size, PHONE_WIDTH, PHONE_HEIGHT))
        except BaseException:
            self.close()
            raise

    def _chromium(self):
        """Headless Chromium through chromedriver, told that only 127.0.0.1 exists."""
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in [
            "--headless=new", "--no-sandbox", "--user-data-dir=" + self.profile, "--window-size=360,740",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
            "--disable-domain-reliability", "--metrics-recording-only", "--disable-gpu",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        ] + ([] if self.javascript else ["--blink-settings=scriptEnabled=false"]):
            options.add_argument(argument)
        service = Service(CHROMEDRIVER)
        try:
            driver = webdriver.Chrome(service=service, options=options)
        except BaseException:
            # Interrupted as it started: chromedriver and its Chromium end before the profile goes.
            service.stop()
            raise
        # The window cannot be made narrower than 500 px headless: the phone's screen is emulated.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": PHONE_WIDTH, "height": PHONE_HEIGHT, "deviceScaleFactor": 1, "mobile": True})
        return driver

    def _webkit(self):
        """WebKitGTK's MiniBrowser through WebKitWebDriver on the run's Display (one screen of the
        phone's size), its window set to the phone's size: `--full-screen` hides the toolbar,
        which keeps a window at least 447 px wide. Its home, config, cache and data folders are
        the profile, and it has no session bus. The phone's colour scheme is the GTK theme's,
        fixed when it starts (`--dark-mode`): see color_scheme."""
        found = sorted(glob.glob(MINIBROWSER))
        if not found:
            raise AssertionError("no WebKitGTK MiniBrowser at %s (Debian package libwebkit2gtk-4.1-0)" % MINIBROWSER)
        options = webdriver.WebKitGTKOptions()
        options.binary_location = found[-1]
        for argument in ["--automation", "--full-screen", "--enable-dns-prefetching=false"] + (
                [] if self.javascript else ["--enable-javascript=false"]) + (
                ["--dark-mode"] if self.scheme == "dark" else []):
            options.add_argument(argument)
        environment = {name: value for name, value in os.environ.items() if not name.startswith("WAYLAND")}
        environment.update(
            Display.shared().environment, HOME=self.profile, XDG_CONFIG_HOME=os.path.join(self.profile, "config"),
            XDG_CACHE_HOME=os.path.join(self.profile, "cache"), XDG_DATA_HOME=os.path.join(self.profile, "data"),
            DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(self.profile, "no-bus"), NO_AT_BRIDGE="1")
        log = os.path.join(self.profile, "WebKitWebDriver.log")
        port = free_port()
        # In a process group of its own: MiniBrowser and WebKit's processes end with it (close).
        with open(log, "wb") as out:
            self.driver_process = subprocess.Popen(
                [WEBKIT_DRIVER, "--host=127.0.0.1", "--port=%d" % port], env=environment, start_new_session=True,
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        try:
            await_listening(self.driver_process, port, "WebKitWebDriver", self.profile)
            driver = webdriver.Remote(command_executor="http://127.0.0.1:%d" % port, options=options)
            driver.set_window_size(PHONE_WIDTH, PHONE_HEIGHT)
            return driver
        except Exception as error:
            with open(log, errors="replace") as said:
                raise AssertionError("WebKitGTK did not start (%s); its log ends:\n%s" % (error, said.read()[-2000:]))

    def wait(self, condition, message, timeout=PATIENCE):
        """Waits (WebDriver) until `condition(driver)` is truthy; returns its value. An element
        gone stale meanwhile (the page re-rendered or reloaded) only means: look again."""
        return WebDriverWait(
            self.driver, timeout, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]
        ).until(condition, message)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def shown(self, css):
        """Whether an element matching `css` exists and is displayed (false if it went stale)."""
        try:
            found = self.driver.find_elements(By.CSS_SELECTOR, css)
            return bool(found) and found[0].is_displayed()
        except StaleElementReferenceException:
            return False

    def text(self, css):
        """The text of the element matching `css`, read again should the page replace it meanwhile."""
        return self.wait(lambda d: [self.find(css).text], "the text of " + css)[0]

    def click(self, css):
        """Clicks the element matching `css` once it is displayed, again should it go stale (the
        page without JavaScript reloads itself every 10 s) before the click lands."""

        def clicked(driver):
            element = self.find(css)
            if not element.is_displayed():
                return False
            element.click()
            return True

        self.wait(clicked, "a click on " + css)

    def await_audio_clock(self, timeout=PATIENCE):
        """Waits until the page's Web Audio context (app.js's `sound.context`) runs and its clock
        moves on: that the engine plays the alarm, not only that the page started it
        (`data-audio`). Both engines keep a context suspended until a tap allows it."""
        started = self.driver.execute_script("return sound.context === null ? null : sound.context.currentTime")
        if started is None:
            raise AssertionError("the page made no audio context")
        self.wait(lambda d: d.execute_script(
            "return sound.context.state === 'running' && sound.context.currentTime > arguments[0]", started),
            "the page's audio clock running (it is %s)" % self.driver.execute_script("return sound.context.state"),
            timeout)

    def low_contrast(self):
        """The visible texts below WCAG AA contrast (contrast.js): [tag, id or class, text, ratio]."""
        with open(os.path.join(os.path.dirname(__file__), "contrast.js")) as script:
            return self.driver.execute_script(script.read())

    def color_scheme(self, scheme):
        """Sets the phone's `prefers-color-scheme` (`light` or `dark`). Chromium emulates it in
        place. WebKitGTK takes it from the GTK theme when it starts, which WebDriver cannot
        change: the browser is started again in that scheme with the session's cookies and opens
        the same address, waiting until the page is live again if it was."""
        if self.engine == "chromium":
            self.driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            return
        if scheme == self.scheme:
            return
        address = self.driver.current_url
        cookies = self.driver.get_cookies()
        live = self.driver.execute_script("return document.body.dataset.live || ''")
        self._quit()
        self.scheme = scheme
        self.driver = self._webkit()
        self.driver.get(address)
        for cookie in cookies:
            self.driver.add_cookie(cookie)
        self.driver.get(address)
        if live == "yes":
            self.wait(lambda d: d.execute_script("return document.body.dataset.live") == "yes", "the page live again")
        dark = self.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
        if dark != (scheme == "dark"):
            raise AssertionError("WebKitGTK did not take the %s scheme" % scheme)

    def screenshot(self, name):
        """Writes the screen as .build/screenshots/ENGINE/NAME.png (360x740)."""
        folder = os.path.join(SCREENSHOTS, self.engine)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name + ".png")
        # What the page shows now, painted: WebKitGTK's first screenshot of a page just shown can
        # be blank otherwise. Two frames: the next one starts after this one's changes are painted.
        self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        self.driver.save_screenshot(path)
        return path

    def pair(self, kitchen):
        """Opens the kitchen's page, types a fresh code and waits for the kitchen screen."""
        self.driver.get(kitchen.url)
        self.wait(lambda d: self.shown("#code"), "the pairing screen")
        self.find("#code").send_keys(kitchen.pairing_code())
        self.find("#pair-button").click()
        self.wait(lambda d: self.shown("#kitchen") and d.execute_script("return document.body.dataset.live") == "yes",
                  "the kitchen screen, live")

    def _end_driver_process(self):
        """Ends WebKitWebDriver's process group (MiniBrowser, WebKit's processes), if it runs."""
        if self.driver_process is None:
            return
        try:
            os.killpg(self.driver_process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.driver_process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.driver_process.pid, signal.SIGKILL)
            self.driver_process.wait()
        self.driver_process = None

    def _quit(self):
        """Ends the browser and its driver."""
        try:
            if self.driver is not None:
                self.driver.quit()
        finally:
            self.driver = None
            self._end_driver_process()

    def close(self):
        try:
            self._quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
