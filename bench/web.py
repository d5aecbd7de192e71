"""The kitchen's HTTP figures (issue 29): a paired client's `POST /api/timers/NODE/LABEL/ack` -> the
ringing timer's `acknowledged` event, and the kitchen's memory with 20 Server-Sent Events clients.

Against the documented API (the man page's HTTP API section): `eggtimer kitchen --http
127.0.0.1:PORT` on a free loopback port; `eggtimer kitchen --pair` prints a one-time code, `POST
/api/pair {"code": …}` exchanges it for the `eggtimer_session` cookie, `GET /api/session` gives the
CSRF token (`X-CSRF-Token` on every POST), `GET /api/timers` the kitchen's node name, `GET
/api/events` the stream (`event: timers`, `data: <the picture>`). A kitchen without `--http` (a
build before issue 29) is reported as a problem and its figures are n/a: nothing is measured against
a server that is not there. Standard library only; nothing leaves loopback."""

import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import threading
import time
import traceback
import urllib.parse

from bench.figures import Result
from bench.harness import child_env, now_ns, track, untrack
from bench.kitchen import event_t_ns, stopped_ms
from bench.procfs import snapshot

SSE_CLIENTS = 20
COOKIE = "eggtimer_session"
PAIRING_LINE = re.compile(r"^pairing code (\d{4,12}), valid for (\d+) minutes? \((\d+) tr(?:y|ies)\)$")


def pairing_code(text):
    """The code of `eggtimer kitchen --pair`'s line (`pairing code 123456, valid for 10 minutes (5
    tries)`) in `text`, or None when no line of it is one."""
    for line in text.splitlines():
        match = PAIRING_LINE.match(line.strip())
        if match:
            return match.group(1)
    return None


def session_cookie(set_cookie_values):
    """The value of the `eggtimer_session` cookie among `Set-Cookie` header values (the last one
    set wins); None when none sets it or it is set empty (a removal)."""
    token = None
    for value in set_cookie_values:
        pair = value.split(";", 1)[0].strip()
        name, equals, rest = pair.partition("=")
        if equals and name.strip() == COOKIE:
            rest = rest.strip()
            if len(rest) >= 2 and rest.startswith('"') and rest.endswith('"'):
                rest = rest[1:-1]
            token = rest or None
    return token


def timer_path(node, label, action):
    """`/api/timers/NODE/LABEL/ACTION` with NODE and LABEL percent-encoded whole (every byte but
    the unreserved ones: a `/` in a label stays inside its segment)."""
    def segment(name):
        return urllib.parse.quote(name, safe="")
    return f"/api/timers/{segment(node)}/{segment(label)}/{action}"


class SSEReader:
    """Reads a Server-Sent Events response fed in pieces: the status, then whole events as (event
    name, data), the name "message" when a block has none; comments (`:` lines) and keep-alives
    dropped. Lines may end in LF, CRLF or CR. A chunked body's size lines are dropped where they
    stand alone (a line of hex digits without a colon is no SSE field)."""

    def __init__(self):
        self.head = b""
        self.text = ""
        self.held = b""
        self.status = None

    def feed(self, data):
        """Takes the next bytes of the response (headers first); returns the events completed."""
        if self.status is None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return []
            parts = self.head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            data, self.head = self.head[end + 4:], b""
        data, self.held = self.held + data, b""
        if data.endswith(b"\r"):  # maybe half of a CRLF
            data, self.held = data[:-1], b"\r"
        self.text += data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
        events = []
        while "\n\n" in self.text:
            block, self.text = self.text.split("\n\n", 1)
            name, lines = "message", []
            for line in block.split("\n"):
                if not line or line.startswith(":") or re.fullmatch(r"[0-9a-fA-F]+", line):
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    name = value
                elif field == "data":
                    lines.append(value)
            if lines:
                events.append((name, "\n".join(lines)))
        return events


def free_port():
    """A TCP port free on 127.0.0.1 now (bound to 0, read, closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    """A paired client of one kitchen on 127.0.0.1:`port`: a fresh connection per request, the
    session cookie and the CSRF token on each (the Host and Origin a browser of the page sends)."""

    def __init__(self, port):
        self.port = port
        self.cookie = None
        self.csrf = None

    def request(self, method, path, body=None, timeout=10):
        """(status, headers, body bytes) of one request; OSError when the kitchen does not answer."""
        headers = {"Accept": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookie:
            headers["Cookie"] = f"{COOKIE}={self.cookie}"
        if method == "POST":
            headers["Content-Type"] = "application/json"
            if self.csrf:
                headers["X-CSRF-Token"] = self.csrf
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body).encode(),
                               headers=headers)
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            connection.close()

    def pair(self, code):
        """Pairs with `code`, then reads the session's CSRF token; an error text, or None when paired."""
        status, headers, body = self.request("POST", "/api/pair", {"code": code})
        self.cookie = session_cookie([v for k, v in headers if k.lower() == "set-cookie"])
        if status not in (200, 201, 204) or not self.cookie:
            return f"POST /api/pair: {status} {body[:200]!r}"
        status, _, body = self.request("GET", "/api/session")
        try:
            session = json.loads(body)
        except ValueError:
            session = {}
        self.csrf = session.get("csrf") if isinstance(session, dict) else None
        if status != 200 or session.get("paired") is not True or not self.csrf:
            return f"GET /api/session after pairing: {status} {body[:200]!r}"
        return None

    def open_stream(self):
        """A socket with `GET /api/events` sent (the cookie on it), non-blocking, and its reader.

        Each stream comes from an address of its own (127.0.1.N: loopback answers all of 127/8),
        as from that many phones: the kitchen takes at most 16 connections from one address."""
        self.streams_opened = getattr(self, "streams_opened", 0) + 1
        source = f"127.0.1.{(self.streams_opened - 1) % 250 + 1}"
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(source, 0))
        sock.sendall((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                      f"Accept: text/event-stream\r\nCookie: {COOKIE}={self.cookie}\r\n\r\n").encode())
        sock.setblocking(False)
        return sock, SSEReader()


ATTACK_ADDRESSES = 20
ATTACK_PER_ADDRESS = 16


class SlowFlood:
    """Slow unpaired connections from many source addresses (issue 43): ATTACK_ADDRESSES loopback
    aliases (127.0.44.N: loopback answers all of 127/8) each holding ATTACK_PER_ADDRESS sockets with
    a request line sent and never finished, more than the kitchen's 256 connections (the kitchen
    counts every loopback address as one, a local user's: its 16 places); each one the kitchen
    closes is opened again at once, from a thread, until `stop()`. `held()` counts the open
    ones; `reopened` how many were opened again."""

    def __init__(self, port):
        self.port = port
        self.sockets = {}
        self.reopened = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, source):
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=1, source_address=(source, 0))
            sock.sendall(b"GET / HTTP/1.1\r\n")
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def start(self):
        for n in range(ATTACK_ADDRESSES):
            for k in range(ATTACK_PER_ADDRESS):
                self.sockets[(n, k)] = self._open(f"127.0.44.{n + 1}")
        self.thread.start()

    def _run(self):
        while not self.stopping.is_set():
            with self.lock:
                for key, sock in list(self.sockets.items()):
                    if sock is not None:
                        try:
                            data = sock.recv(4096)
                        except BlockingIOError:
                            continue
                        except OSError:
                            data = b""
                        if data:
                            continue
                        sock.close()
                    self.sockets[key] = self._open(f"127.0.44.{key[0] + 1}")
                    self.reopened += 1
            self.stopping.wait(0.02)

    def held(self):
        with self.lock:
            return sum(1 for sock in self.sockets.values() if sock is not None)

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=10)
        with self.lock:
            for sock in self.sockets.values():
                if sock is not None:
                    sock.close()
            self.sockets.clear()


def kitchen_has_http(binary, env):
    """Whether this eggtimer's help offers `kitchen --http`."""
    done = subprocess.run([binary, "--help"], env=env, capture_output=True, timeout=30)
    return b"--http" in done.stdout + done.stderr


def _wait_listening(kitchen, port, timeout_s=15):
    """Until 127.0.0.1:`port` accepts a connection (None) or the kitchen exits (its output) or the
    time runs out (a text)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if kitchen.poll() is not None:
            return f"the kitchen exited {kitchen.returncode}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return None
        except OSError:
            time.sleep(0.02)
    return f"nothing listened on 127.0.0.1:{port} within {timeout_s} s"


def measure(bench):
    """The kitchen_http_* figures (a Result); problems go to bench.problems. n/a (one problem
    naming why) when this eggtimer has no `kitchen --http`."""
    result = Result("CLOCK_BOOTTIME: the timer's own --json log against the instant the request was sent")
    config = os.path.join(bench.out, "kitchen-http.config")
    with open(config, "w") as f:
        f.write("device = null\n")
    env = child_env({"EGGTIMER_CONFIG": config})
    binary = bench.binary
    if not kitchen_has_http(binary, env):
        bench.problems.append("kitchen HTTP figures n/a: this eggtimer has no `kitchen --http` (issue 29 not in "
                              "this build); the figure module (bench/web.py) is written against the documented API")
        return result
    state = os.path.join(env["XDG_STATE_HOME"], "eggtimer")
    runs = 3 if bench.s.quick else 10
    port = free_port()
    argv = [binary, "kitchen", "--keys", "none", "--http", f"127.0.0.1:{port}"]
    bench.note_command(argv, "# a free loopback port; stdout and stderr to bench/out/…/kitchen-http.log")
    log_path = os.path.join(bench.out, "kitchen-http.log")

    def cancel_all():
        subprocess.run([binary, "cancel", "--all"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=30)

    with open(log_path, "wb") as kitchen_log:
        kitchen = track(subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=kitchen_log,
                                         stderr=subprocess.STDOUT, start_new_session=True))
    streams = []
    try:
        problem = _wait_listening(kitchen, port)
        if problem:
            with open(log_path, "rb") as f:
                said = f.read().decode("utf-8", "replace").strip()[:300]
            bench.problems.append(f"kitchen HTTP: {problem}: {said!r}")
            return result
        paired = subprocess.run([binary, "kitchen", "--pair"], env=env, capture_output=True, timeout=30)
        code = pairing_code(paired.stdout.decode("utf-8", "replace"))
        client = Client(port)
        problem = (f"kitchen --pair: exit {paired.returncode} "
                   f"{(paired.stdout + paired.stderr).decode('utf-8', 'replace').strip()[:200]!r}"
                   if code is None else client.pair(code))
        if problem:
            bench.problems.append(f"kitchen HTTP: {problem}")
            return result
        status, _, body = client.request("GET", "/api/timers")
        node = json.loads(body).get("node") if status == 200 else None
        if not node:
            bench.problems.append(f"kitchen HTTP: GET /api/timers: {status} {body[:200]!r}")
            return result
        acks = _acks(bench, binary, env, state, client, node, runs, cancel_all)
        if acks:
            result.add("kitchen_http_ack_ms_median", statistics.median(acks), acks)
            result.add("kitchen_http_ack_ms_max", max(acks), acks)
        flood = SlowFlood(port)
        try:
            flood.start()
            attacked = _acks(bench, binary, env, state, client, node, runs, cancel_all)
            held, reopened = flood.held(), flood.reopened
        finally:
            flood.stop()
        if attacked:
            how = (f"as kitchen_http_ack_ms_*, while {ATTACK_ADDRESSES} addresses hold "
                   f"{ATTACK_PER_ADDRESS} unpaired slow connections each, reopened when closed")
            result.add("kitchen_http_ack_under_flood_ms_median", statistics.median(attacked), attacked, how=how)
            result.add("kitchen_http_ack_under_flood_ms_max", max(attacked), attacked, how=how)
        flood_text = (
            f"Under a flood (issue 43): the same acks while {ATTACK_ADDRESSES} loopback addresses (127.0.44.N) "
            f"each hold {ATTACK_PER_ADDRESS} connections with a request line sent and never finished "
            f"({ATTACK_ADDRESSES * ATTACK_PER_ADDRESS}, more than the kitchen's 256), each one the kitchen closes "
            f"opened again at once ({reopened} reopened, {held} held at the end; the kitchen counts them as one "
            f"address, a local user's): "
            f"{', '.join(f'{v:.2f}' for v in attacked)} ms. ")
        memory, figures = _sse_memory(bench, binary, env, state, kitchen, client, streams)
        result.detail(
            "### The kitchen over HTTP\n\n"
            f"`eggtimer kitchen --keys none --http 127.0.0.1:PORT` (a free port), paired as a phone is: the code of "
            "`eggtimer kitchen --pair`, `POST /api/pair`, the `eggtimer_session` cookie and the CSRF token of "
            f"`GET /api/session`. Ack: {runs} timers of 1 s started through the kitchen (`eggtimer start 1s --label "
            "L`); once the timer's log has its `sounding` event, `POST /api/timers/NODE/L/ack` on a fresh "
            "loopback connection (cookie, `X-CSRF-Token`, Origin), until that timer's `acknowledged` event (its "
            "`t_mono_ns` minus the instant before the connect, CLOCK_BOOTTIME): "
            f"{', '.join(f'{v:.2f}' for v in acks)} ms. " + flood_text + memory + "\n")
        for name, value in figures.items():
            result.add(name, value, how="the kitchen's /proc/PID/smaps_rollup (Rss, Pss, Private_Clean + "
                       "Private_Dirty) and VmHWM, MB = 2^20 bytes")
    except (OSError, ValueError, AttributeError, http.client.HTTPException, subprocess.SubprocessError) as error:
        # an answer that is not what the API documents, or a kitchen that went away: reported,
        # the other groups' figures stand
        bench.problems.append(f"kitchen HTTP: {type(error).__name__}: {error}")
        traceback.print_exc()
    finally:
        for sock, _ in streams:
            sock.close()
        if kitchen.poll() is None:
            kitchen.terminate()
        try:
            kitchen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kitchen.kill()
            kitchen.wait(timeout=5)
        untrack(kitchen)
        cancel_all()
    return result


def _acks(bench, binary, env, state, client, node, runs, cancel_all):
    """POST ack -> acknowledged, in ms, for `runs` timers of 1 s started through the kitchen. An
    ack the kitchen refused (409: it had not yet seen the timer ring) is only a report: sent again
    (the sample is the accepted one's)."""
    samples = []
    for run in range(runs):
        label = f"httpack{run}-{os.getpid()}"

        def ack(_log_path):
            sent, answer = None, None
            for _ in range(50):
                sent = now_ns()
                status, _, body = client.request("POST", timer_path(node, label, "ack"), {})
                answer = f"{status} {body[:160]!r}"
                if 200 <= status < 300:
                    break
                sent = None
                if status != 409:
                    break
                time.sleep(0.01)
            return sent, f"kitchen HTTP: POST ack did not acknowledge {label}: {answer}"

        ms = stopped_ms(bench, binary, env, state, label, ack, "kitchen HTTP: timer")
        if ms is not None:
            samples.append(ms)
        cancel_all()
    return samples


def _memory(pid):
    """The kitchen's RSS, PSS, USS and VmHWM now, in MB (2^20 bytes); {} when unreadable."""
    memory = snapshot(pid)["memory"]
    kinds = {"rss": "rss_now_kb", "pss": "pss_kb", "uss": "uss_kb", "peak_rss": "hwm_kb"}
    return {kind: memory[key] / 1024 for kind, key in kinds.items() if memory.get(key) is not None}


def _wait_followed(client, label, timeout_s=10):
    """Until the kitchen's picture (GET /api/timers) holds the timer `label`; False on time out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status, _, body = client.request("GET", "/api/timers")
        if status == 200 and any(isinstance(t, dict) and t.get("label") == label
                                 for t in json.loads(body).get("timers", [])):
            return True
        time.sleep(0.02)
    return False


def _paused_in(payload, label):
    """Whether the picture `payload` (JSON text) shows the timer `label` paused."""
    try:
        timers = json.loads(payload).get("timers", [])
    except (ValueError, AttributeError):
        return False
    return any(isinstance(t, dict) and t.get("label") == label and t.get("state") == "paused" for t in timers)


def _sse_memory(bench, binary, env, state, kitchen, client, streams):
    """The kitchen's memory paired with no stream open, then with SSE_CLIENTS streams of `GET
    /api/events` open, each of which has received the picture of a change made after they all
    connected (so every one is live). One 10 min timer runs through both readings and is paused
    for the change, so the same processes map the binary in both (a clean page of it counts as
    private only while no other process maps it). Returns (Markdown sentence, figures by name);
    the sockets are left in `streams` for the caller to close."""
    label = f"httpsse-{os.getpid()}"
    subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True, timeout=30)
    if event_t_ns(os.path.join(state, label + ".log"), "started") is None:
        bench.problems.append(f"kitchen HTTP: the timer {label} of the memory readings did not start")
        return "", {}
    if not _wait_followed(client, label):
        bench.problems.append(f"kitchen HTTP: GET /api/timers never showed the timer {label}")
        return "", {}
    # A paired device has one stream (issue 43: its newer stream replaces the older), so each
    # stream is a device of its own, paired as a phone is.
    devices = [client]
    while len(devices) < SSE_CLIENTS:
        paired = subprocess.run([binary, "kitchen", "--pair"], env=env, capture_output=True, timeout=30)
        code = pairing_code(paired.stdout.decode("utf-8", "replace"))
        device = Client(client.port)
        problem = "kitchen --pair printed no code" if code is None else device.pair(code)
        if problem:
            bench.problems.append(f"kitchen HTTP: pairing device {len(devices) + 1} of {SSE_CLIENTS}: {problem}")
            return "", {}
        device.streams_opened = len(devices)
        devices.append(device)
    before = _memory(kitchen.pid)
    selector = selectors.DefaultSelector()
    for device in devices:
        sock, reader = device.open_stream()
        streams.append((sock, reader))
        selector.register(sock, selectors.EVENT_READ, reader)
    received = {}

    def pump(until, done):
        """Reads the streams until done() or the boot-clock instant `until` (ns)."""
        while not done() and now_ns() < until:
            for key, _ in selector.select(timeout=max(0.0, (until - now_ns()) / 1e9)):
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                for name, payload in key.data.feed(data):
                    received.setdefault(id(key.data), []).append((name, payload))

    pump(now_ns() + 10_000_000_000, lambda: all(r.status is not None for _, r in streams))
    refused = [r.status for _, r in streams if r.status != 200]
    subprocess.run([binary, "pause", label], env=env, capture_output=True, timeout=30)

    def live():
        return [r for _, r in streams
                if any(name == "timers" and _paused_in(payload, label) for name, payload in received.get(id(r), []))]

    pump(now_ns() + 10_000_000_000, lambda: len(live()) == SSE_CLIENTS)
    selector.close()
    count = len(live())
    figures = {}
    if refused or count < SSE_CLIENTS:
        bench.problems.append(f"kitchen HTTP: {count} of {SSE_CLIENTS} event streams received the paused timer "
                              f"(statuses other than 200: {refused})")
    if count:
        after = _memory(kitchen.pid)
        for kind, value in before.items():
            figures[f"kitchen_http_{kind}_mb_no_streams"] = value
        for kind, value in after.items():
            figures[f"kitchen_http_{kind}_mb_sse{SSE_CLIENTS}"] = value
        if "uss" in before and "uss" in after:
            figures["kitchen_http_uss_mb_per_stream"] = (after["uss"] - before["uss"]) / SSE_CLIENTS
    figures["kitchen_http_sse_streams_live"] = count
    kinds = ", ".join(
        f"{kind.upper().replace('_', ' ')} {before.get(kind, 0):.2f} → "
        f"{figures.get(f'kitchen_http_{kind}_mb_sse{SSE_CLIENTS}', 0):.2f}" for kind in ("rss", "pss", "uss", "peak_rss"))
    text = (f"Memory, with one 10 min timer followed: paired, no stream open, then {SSE_CLIENTS} clients each "
            "holding `GET /api/events` open, read once every one of them "
            f"({count} did) had received the picture with that timer paused after they connected (MB): {kinds}.")
    return text, figures
