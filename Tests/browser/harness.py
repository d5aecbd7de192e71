"""What the browser tests (issue 30) stand on: a real kitchen, a real broker, a real browser.

A Kitchen is `eggtimer kitchen --http 127.0.0.1:PORT` in private runtime, state and scratch
folders, with a private config file (short egg times, a file PCM as its device). A Broker is a
private Mosquitto on a free loopback port. A Browser is headless Chromium through
/usr/bin/chromedriver, a private profile folder, a 360x740 phone screen. Nothing here sleeps for
a fixed time: each wait is for an event (a line the kitchen prints, a file's contents, a
condition WebDriver checks) up to a deadline. The tests run in a private network namespace
(scripts/isolated.sh), so nothing leaves loopback; the browser is told so too.
"""

import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EGGTIMER = os.environ.get("EGGTIMER_BINARY", os.path.join(ROOT, ".build", "debug", "eggtimer"))
SCREENSHOTS = os.path.join(ROOT, ".build", "screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PUB = "/usr/bin/mosquitto_pub"

# How long any one wait may take, in seconds: generous, as both cores may be busy.
PATIENCE = 30.0


def free_port():
    """A TCP port free on 127.0.0.1 now (the kernel's pick; taken by the caller at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def private_folder(name):
    """A new 0700 folder under /tmp."""
    return tempfile.mkdtemp(prefix="eggtimer-browser-" + name + "-")


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


class Lines:
    """The lines a child prints (stdout and stderr together), read by a thread, awaited by text."""

    def __init__(self, stream):
        self.lines = []
        self.arrived = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in stream:
            self.arrived.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.arrived.put(None)

    def expect(self, pattern, timeout=PATIENCE):
        """The first line (seen before or arriving within `timeout` s) matching the regular
        expression `pattern`: its match; raises AssertionError with what was printed if none."""
        wanted = re.compile(pattern)
        for line in self.lines:
            found = wanted.search(line)
            if found:
                return found
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                line = self.arrived.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                self.arrived.put(None)
                break
            self.lines.append(line)
            found = wanted.search(line)
            if found:
                return found
        raise AssertionError("no line matching %r; printed:\n%s" % (pattern, "\n".join(self.lines)))


class Broker:
    """A private Mosquitto broker on a free 127.0.0.1 port, anonymous, not persistent."""

    def __init__(self):
        self.folder = private_folder("broker")
        self.port = free_port()
        config = os.path.join(self.folder, "mosquitto.conf")
        with open(config, "w") as out:
            out.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % self.port)
        self.log = open(os.path.join(self.folder, "mosquitto.log"), "wb")
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", config], stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + PATIENCE
        while True:
            if self.process.poll() is not None:
                raise AssertionError("the test broker exited (%s); see %s" % (self.process.returncode, self.folder))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("the test broker did not listen within %d s" % PATIENCE)
                # Not listening yet: look again when it exits or 20 ms on, whichever is first.
                try:
                    self.process.wait(timeout=0.02)
                except subprocess.TimeoutExpired:
                    pass

    @property
    def url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    def publish(self, topic, payload, retain=True):
        """Publishes `payload` (text) on `topic` at QoS 1 and waits for mosquitto_pub to finish."""
        arguments = [MOSQUITTO_PUB, "-h", "127.0.0.1", "-p", str(self.port), "-q", "1", "-t", topic, "-m", payload]
        if retain:
            arguments.append("-r")
        subprocess.run(arguments, check=True, timeout=PATIENCE, stdin=subprocess.DEVNULL)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
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
        self.process = subprocess.Popen(
            [EGGTIMER, "kitchen", "--http", "127.0.0.1:%d" % self.port, *arguments], env=self.environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines = Lines(self.process.stdout)
        self.lines.expect(r"kitchen: HTTP API on http://")

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
    """Headless Chromium on a 360x740 phone screen with a private profile, through chromedriver;
    with `javascript=False` the page's script is off (its plain forms; WebDriver still works)."""

    def __init__(self, javascript=True):
        self.profile = private_folder("profile")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in [
            "--headless=new", "--no-sandbox", "--user-data-dir=" + self.profile, "--window-size=360,740",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
            "--disable-domain-reliability", "--metrics-recording-only", "--disable-gpu",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        ] + ([] if javascript else ["--blink-settings=scriptEnabled=false"]):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        # The window cannot be made narrower than 500 px headless: the phone's screen is emulated.
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})

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

    def low_contrast(self):
        """The visible texts below WCAG AA contrast (contrast.js): [tag, id or class, text, ratio]."""
        with open(os.path.join(os.path.dirname(__file__), "contrast.js")) as script:
            return self.driver.execute_script(script.read())

    def color_scheme(self, scheme):
        """Emulates the phone's `prefers-color-scheme` (`light` or `dark`)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def screenshot(self, name):
        """Writes the screen as .build/screenshots/NAME.png (360x740)."""
        os.makedirs(SCREENSHOTS, exist_ok=True)
        path = os.path.join(SCREENSHOTS, name + ".png")
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

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
