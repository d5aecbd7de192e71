"""What the Home Assistant tests (issue 45) stand on: a real Home Assistant, a real broker, a real kitchen.

A Broker is a private Mosquitto on a free loopback port. A HomeAssistant is Home Assistant core from
.build/ha-venv (Tests/homeassistant/venv.py), `hass -c FOLDER --skip-pip` with a private config
folder whose configuration.yaml binds its HTTP server to 127.0.0.1 and a free port, loads no
default_config (which would bring discovery integrations that look at the network) but the
conversation integration, with eggtimer's Assist files from dist/homeassistant (its sentences in
custom_sentences/en, its intent_script as a package); it is waited
for by polling /api/ (bounded), onboarded through its REST API (a user, a token, the core config,
analytics), given a long-lived token, and given its MQTT integration through the config-flow REST
API against the broker. A Kitchen is `eggtimer kitchen --keys none --mqtt 127.0.0.1:PORT` (the
debug build) in private runtime, state and scratch folders with a private config file (`device =
null`, node `kitchen`).

The tests look only through Home Assistant's REST and websocket APIs and its log
(home-assistant.log in its config folder). A Watch holds one websocket subscribed to
`state_changed`: a test waits on the states it records (an event, with a deadline), never for a
fixed time. Home Assistant takes tens of seconds to start, so one Session (a broker, a Home
Assistant, a kitchen) serves the whole run. Everything is on loopback; the tests run in a private
network namespace (scripts/isolated.sh).
"""

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import aiohttp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import services  # noqa: E402 (found through the path above)
from services import PATIENCE, Lines, free_port  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EGGTIMER = os.environ.get("EGGTIMER_BINARY", os.path.join(ROOT, ".build", "debug", "eggtimer"))
# eggtimer's Assist sentences and intents (issue 45): the files README and the man page point to.
ASSIST_SENTENCES = os.path.join(ROOT, "dist", "homeassistant", "custom_sentences", "en", "eggtimer.yaml")
ASSIST_INTENTS = os.path.join(ROOT, "dist", "homeassistant", "eggtimer.yaml")
# hass beside the venv's python that runs the tests.
HASS = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "hass")

# How long Home Assistant may take to answer on /api/ after it is started (tens of seconds on
# two idle cores; several times that while other builds run).
START_LIMIT = 300.0
# Onboarding's client id: Home Assistant wants a URL.
CLIENT_ID = "http://127.0.0.1/eggtimer-tests"


def private_folder(name):
    """A new 0700 folder under /tmp for this suite."""
    return services.private_folder("ha", name)


def wait_for(what, condition, timeout=PATIENCE, every=0.05):
    """Looks at `condition()` until it is true (returned) or `timeout` s passed (AssertionError naming
    `what`): for what sends no event (a process's own files); states come through the Watch."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("still not so after %.0f s: %s" % (timeout, what))
        time.sleep(every)


class Broker(services.Broker):
    """A private Mosquitto broker (Tests/support/services.py) for this suite."""

    def __init__(self):
        super().__init__("ha")


class Watch:
    """One websocket to Home Assistant on a thread of its own, subscribed to `state_changed`: every
    state of the entities it is asked about, in order, as the events said them.

    `history[entity_id]` is the list of states (None once removed); `wait` blocks until a
    predicate on them holds, woken by each event."""

    def __init__(self, url, token):
        self.url, self.token = url, token
        self.history = {}
        self.changed = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failure = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(PATIENCE) or self.failure:
            raise AssertionError("the state watch could not subscribe: %s" % self.failure)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._listen())
        except Exception as error:  # the thread's end is said through `failure`
            self.failure = repr(error)
            self.ready.set()
            with self.changed:
                self.changed.notify_all()

    async def _listen(self):
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(self.url + "api/websocket") as ws:
                await authenticate(ws, self.token)
                await ws.send_json({"id": 1, "type": "subscribe_events", "event_type": "state_changed"})
                answer = await ws.receive_json(timeout=PATIENCE)
                if not answer.get("success"):
                    raise AssertionError("subscribe_events: %r" % answer)
                self.ready.set()
                self.ws = ws
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    event = json.loads(message.data)
                    if event.get("type") != "event":
                        continue
                    data = event["event"]["data"]
                    with self.changed:
                        self.history.setdefault(data["entity_id"], []).append(data.get("new_state"))
                        self.changed.notify_all()
        with self.changed:
            self.failure = "the websocket closed"
            self.changed.notify_all()

    def states(self, entity_id):
        """The state strings `entity_id` went through (None for its removal), in order."""
        with self.changed:
            return [None if state is None else state["state"] for state in self.history.get(entity_id, [])]

    def wait(self, what, condition, timeout=PATIENCE):
        """Blocks until `condition()` (called under the watch's lock) holds, woken by each event."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                value = condition()
                if value:
                    return value
                if self.failure:
                    raise AssertionError("the state watch ended (%s) while waiting for %s" % (self.failure, what))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("still not so after %.0f s: %s" % (timeout, what))
                self.changed.wait(left)

    def close(self):
        if hasattr(self, "ws"):
            asyncio.run_coroutine_threadsafe(self.ws.close(), self.loop)
        self.thread.join(10)


async def authenticate(ws, token):
    """The websocket API's handshake: auth_required, auth, auth_ok."""
    hello = await ws.receive_json(timeout=PATIENCE)
    if hello.get("type") != "auth_required":
        raise AssertionError("websocket said %r first" % hello)
    await ws.send_json({"type": "auth", "access_token": token})
    answer = await ws.receive_json(timeout=PATIENCE)
    if answer.get("type") != "auth_ok":
        raise AssertionError("websocket auth: %r" % answer)


class HomeAssistant:
    """Home Assistant core on 127.0.0.1, a private config folder, onboarded, with MQTT on `broker`."""

    def __init__(self, broker):
        self.broker = broker
        self.folder = private_folder("config")
        self.port = free_port()
        self.token = None
        with open(os.path.join(self.folder, "configuration.yaml"), "w") as out:
            out.write(
                "homeassistant:\n"
                "  name: eggtimer tests\n"
                "  time_zone: UTC\n"
                "  unit_system: metric\n"
                "  latitude: 0\n"
                "  longitude: 0\n"
                "  elevation: 0\n"
                "  country: GB\n"
                "  currency: EUR\n"
                "  packages:\n"
                "    eggtimer: !include eggtimer.yaml\n"
                "http:\n"
                "  server_host: 127.0.0.1\n"
                "  server_port: %d\n"
                "logger:\n"
                "  default: info\n"
                # Assist: the conversation API, and eggtimer's own sentences and intents, the
                # very files the man page and README point to (dist/homeassistant).
                "conversation:\n" % self.port)
        os.makedirs(os.path.join(self.folder, "custom_sentences", "en"))
        shutil.copyfile(ASSIST_SENTENCES, os.path.join(self.folder, "custom_sentences", "en", "eggtimer.yaml"))
        shutil.copyfile(ASSIST_INTENTS, os.path.join(self.folder, "eggtimer.yaml"))
        self.log_path = os.path.join(self.folder, "home-assistant.log")
        self.output = open(os.path.join(self.folder, "hass-output.txt"), "wb")
        started = time.monotonic()
        self.process = subprocess.Popen(
            [HASS, "-c", self.folder, "--skip-pip"], stdin=subprocess.DEVNULL, stdout=self.output,
            stderr=subprocess.STDOUT, env=dict(os.environ, TZ="UTC"))
        try:
            self.wait_until_up()
            self.start_seconds = time.monotonic() - started
            self.onboard()
            self.add_mqtt()
            self.watch = Watch(self.url, self.token)
        except BaseException:
            os.environ["EGGTIMER_KEEP_HA"] = "1"  # its log says why
            self.close()
            raise

    @property
    def url(self):
        return "http://127.0.0.1:%d/" % self.port

    def request(self, method, path, body=None, form=None, token=True, expect=(200,)):
        """One HTTP request: (status, parsed JSON or text). `body` goes as JSON, `form` as a form."""
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if token and self.token:
            headers["Authorization"] = "Bearer " + self.token
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=PATIENCE) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        text = raw.decode("utf-8", "replace")
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
        if expect and status not in expect:
            raise AssertionError("%s %s answered %d: %s" % (method, path, status, text[:500]))
        return status, parsed

    def wait_until_up(self):
        """Polls GET /api/ until Home Assistant answers (401 before a token), at most START_LIMIT s."""
        deadline = time.monotonic() + START_LIMIT
        while True:
            if self.process.poll() is not None:
                raise AssertionError("hass exited (%s) while starting; see %s" % (self.process.returncode, self.folder))
            try:
                status, _ = self.request("GET", "/api/", token=False, expect=())
                if status in (200, 401):
                    return
            except (urllib.error.URLError, ConnectionError, socket.timeout, OSError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError("Home Assistant did not answer on /api/ within %d s" % START_LIMIT)
            # Not up yet: look again when it exits or 200 ms on, whichever is first.
            try:
                self.process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass

    def onboard(self):
        """Onboarding through the REST API: the owner, a token for it, the core config, analytics
        (off), then a long-lived token for the rest of the run."""
        _, user = self.request("POST", "/api/onboarding/users", body={
            "client_id": CLIENT_ID, "name": "Tester", "username": "tester", "password": "eggtimer-tests",
            "language": "en"})
        _, tokens = self.request("POST", "/auth/token", form={
            "grant_type": "authorization_code", "code": user["auth_code"], "client_id": CLIENT_ID}, token=False)
        self.token = tokens["access_token"]
        self.request("POST", "/api/onboarding/core_config", body={})
        self.request("POST", "/api/onboarding/analytics", body={})
        [self.token] = self.websocket([
            {"type": "auth/long_lived_access_token", "client_name": "eggtimer tests", "lifespan": 1}])
        status, steps = self.request("GET", "/api/onboarding", token=False)
        left = [step["step"] for step in steps if not step["done"] and step["step"] != "integration"]
        if left:
            raise AssertionError("onboarding steps left: %s" % left)

    def add_mqtt(self):
        """The MQTT integration through the config-flow REST API: the broker's address and port."""
        _, flow = self.request("POST", "/api/config/config_entries/flow", body={"handler": "mqtt"})
        while flow.get("type") == "form":
            fields = [field["name"] for field in flow.get("data_schema", [])]
            answer = {}
            if "broker" in fields:
                answer = {"broker": "127.0.0.1", "port": self.broker.port}
            _, flow = self.request("POST", "/api/config/config_entries/flow/" + flow["flow_id"], body=answer)
            if flow.get("errors"):
                raise AssertionError("the MQTT config flow refused: %r" % flow)
        if flow.get("type") != "create_entry":
            raise AssertionError("the MQTT config flow ended with %r" % flow)

    def websocket(self, commands):
        """Runs websocket commands in order on a new connection: their results."""

        async def run():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(self.url + "api/websocket") as ws:
                    await authenticate(ws, self.token)
                    results = []
                    for number, command in enumerate(commands, start=1):
                        await ws.send_json(dict(command, id=number))
                        while True:
                            answer = await ws.receive_json(timeout=PATIENCE)
                            if answer.get("id") == number and answer.get("type") == "result":
                                break
                        if not answer.get("success"):
                            raise AssertionError("websocket %s: %r" % (command["type"], answer.get("error")))
                        results.append(answer.get("result"))
                    return results

        return asyncio.run(run())

    def fence(self):
        """Returns once Home Assistant's MQTT client has dispatched every message the broker took
        before now: it subscribes (websocket mqtt/subscribe) to a topic of its own, a message is
        published there, and it arrives after all earlier ones (one connection, in order)."""
        topic = "eggtimer-tests/fence/%d" % time.monotonic_ns()
        # Retained, so it arrives however soon after the subscription it was sent (Home Assistant
        # subscribes on the broker a moment after it answers), then cleared.
        self.broker.publish(topic, "fence", retain=True)

        async def run():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(self.url + "api/websocket") as ws:
                    await authenticate(ws, self.token)
                    await ws.send_json({"id": 1, "type": "mqtt/subscribe", "topic": topic})
                    while True:
                        answer = await ws.receive_json(timeout=PATIENCE)
                        if answer.get("id") == 1 and answer.get("type") == "result":
                            break
                    if not answer.get("success"):
                        raise AssertionError("mqtt/subscribe: %r" % answer)
                    while True:
                        event = await ws.receive_json(timeout=PATIENCE)
                        if event.get("type") == "event":
                            return

        try:
            asyncio.run(run())
        finally:
            self.broker.publish(topic, "", retain=True)

    def state(self, entity_id):
        """GET /api/states/ENTITY: the state object, or None when there is none (404)."""
        status, state = self.request("GET", "/api/states/" + entity_id, expect=(200, 404))
        return state if status == 200 else None

    def registry(self):
        """The entity registry: its entries."""
        [entries] = self.websocket([{"type": "config/entity_registry/list"}])
        return entries

    def entity_ids(self, unique_ids):
        """{unique_id: entity_id} of the registry's entries among `unique_ids`."""
        return {entry["unique_id"]: entry["entity_id"] for entry in self.registry() if entry["unique_id"] in unique_ids}

    def service(self, domain, service, data):
        """POST /api/services/DOMAIN/SERVICE."""
        self.request("POST", "/api/services/%s/%s" % (domain, service), body=data)

    def log_size(self):
        """How many bytes home-assistant.log has now (where a test's part of it begins)."""
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    # Where Home Assistant says something about what MQTT brings it: its MQTT integration and
    # the templates that read the payloads (eggtimer is the only MQTT client here).
    MQTT_LOGGERS = re.compile(r"^homeassistant\.(components\.mqtt|helpers\.template)(\.|$)")

    def log_problems(self, since):
        """The WARNING, ERROR and CRITICAL entries home-assistant.log got from byte `since` on
        that are about eggtimer: they name it (a topic, an entity, a device) or come from Home
        Assistant's MQTT integration or its templates. Each entry's first line (a traceback's
        other lines are not entries)."""
        with open(self.log_path, "rb") as log:
            log.seek(since)
            text = log.read().decode("utf-8", "replace")
        entry = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? (WARNING|ERROR|CRITICAL) \([^)]*\) \[([^\]]*)\]")
        problems = []
        for line in text.splitlines():
            found = entry.match(line)
            if found and ("eggtimer" in line.lower() or self.MQTT_LOGGERS.match(found.group(3))):
                problems.append(line)
        return problems

    def close(self):
        if hasattr(self, "watch"):
            self.watch.close()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output.close()
        if os.environ.get("EGGTIMER_KEEP_HA"):
            print("Home Assistant's folder kept: %s" % self.folder)
        else:
            shutil.rmtree(self.folder, ignore_errors=True)


class Kitchen:
    """`eggtimer kitchen --keys none --mqtt ADDRESS --http 127.0.0.1:PORT` in private folders with a
    private config file (`device = null`, node `kitchen`, eggs of `config`'s times); `page` is its
    page's URL, the node device's link in Home Assistant."""

    NODE = "kitchen"

    def __init__(self, broker, config="soft = 6m\nmedium = 8m\nhard = 10m\n"):
        self.broker = broker
        self.runtime = private_folder("runtime")
        self.scratch = private_folder("scratch")
        self.state = os.path.join(self.scratch, "state")
        self.page_port = free_port()
        self.page = "http://127.0.0.1:%d/" % self.page_port
        with open(os.path.join(self.scratch, "config"), "w") as out:
            out.write("device = null\nnode = %s\n" % self.NODE + config)
        self.environment = dict(
            os.environ, XDG_RUNTIME_DIR=self.runtime, XDG_STATE_HOME=self.state, HOME=self.scratch,
            EGGTIMER_CONFIG=os.path.join(self.scratch, "config"), TZ="UTC")
        self.start()

    def start(self):
        """Starts the kitchen and waits until it takes the node's starts over MQTT."""
        self.process = subprocess.Popen(
            [EGGTIMER, "kitchen", "--keys", "none", "--mqtt", self.broker.url, "--http", "127.0.0.1:%d" % self.page_port],
            env=self.environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        # Its output is also copied to the scratch folder's kitchen.log (kept with EGGTIMER_KEEP_HA).
        self.lines = Lines(self.process.stdout, open(os.path.join(self.scratch, "kitchen.log"), "ab"))
        try:
            self.lines.expect(r"kitchen: listening on ")
        except BaseException:
            os.environ["EGGTIMER_KEEP_HA"] = "1"  # its log says why
            self.close()
            raise

    def command(self, *arguments):
        """Runs `eggtimer ARGUMENTS` as a client of this kitchen: (status, stdout, stderr)."""
        done = subprocess.run(
            [EGGTIMER, *arguments], env=self.environment, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=PATIENCE)
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    def status(self):
        """`eggtimer status --json`, parsed: one object per timer."""
        status, out, err = self.command("status", "--json")
        if status not in (0, 3):
            raise AssertionError("status --json failed (%d): %s" % (status, err))
        return json.loads(out) if out.strip() else []

    def running(self, label):
        """The running timer `label` in `status --json` (its object), or None."""
        for timer in self.status():
            if timer.get("label") == label and timer.get("state") != "kept":
                return timer
        return None

    def record_exists(self, label):
        """Whether the timer `label`'s record is in the state folder (by its key, lower case)."""
        return os.path.exists(os.path.join(self.state, "eggtimer", label.lower() + ".timer"))

    def stop(self):
        """Ends the kitchen (SIGTERM: its timers run on)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def close(self):
        self.command("cancel", "--all")
        self.stop()
        shutil.rmtree(self.runtime, ignore_errors=True)
        if os.environ.get("EGGTIMER_KEEP_HA"):
            print("The kitchen's folder kept: %s" % self.scratch)
        else:
            shutil.rmtree(self.scratch, ignore_errors=True)


class Session:
    """A broker, a Home Assistant on it (onboarded, with MQTT) and a kitchen: one per run."""

    def __init__(self):
        started = time.monotonic()
        self.broker = Broker()
        try:
            self.ha = HomeAssistant(self.broker)
            print("Home Assistant %s answered on /api/ %.1f s after it was started; ready (onboarded, MQTT added) "
                  "after %.1f s" % (self.ha_version(), self.ha.start_seconds, time.monotonic() - started), flush=True)
            self.kitchen = Kitchen(self.broker)
        except BaseException:
            self.close()
            raise

    def ha_version(self):
        _, config = self.ha.request("GET", "/api/config")
        return config["version"]

    def close(self):
        for part in ("kitchen", "ha", "broker"):
            if hasattr(self, part):
                getattr(self, part).close()


_session = None


def session():
    """The run's Session, made at the first call."""
    global _session
    if _session is None:
        _session = Session()
    return _session


def close_session():
    """Ends the run's Session, if one was made."""
    global _session
    if _session is not None:
        _session.close()
        _session = None
