"""What the Python test suites (Tests/browser, Tests/homeassistant) share: free loopback ports,
private folders, a child's printed lines awaited by text, and a private Mosquitto broker.

Nothing here sleeps for a fixed time: each wait is for an event (a line, a port that accepts, a
process that exits) up to a deadline. Everything is on loopback; the suites run in a private
network namespace (scripts/isolated.sh).
"""

import os
import queue
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time

MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PUB = "/usr/bin/mosquitto_pub"
MOSQUITTO_SUB = "/usr/bin/mosquitto_sub"

# How long any one wait may take, in seconds: generous, as both cores may be busy.
PATIENCE = 30.0


def free_port():
    """A TCP port free on 127.0.0.1 now (the kernel's pick; taken by the caller at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def private_folder(suite, name):
    """A new 0700 folder under /tmp, named by the suite (`browser`, `ha`) and its use."""
    return tempfile.mkdtemp(prefix="eggtimer-%s-%s-" % (suite, name))


def await_listening(process, port, name, folder):
    """Returns once `process` accepts connections on 127.0.0.1:`port`; AssertionError if it exits
    first or takes longer than PATIENCE (`name` and its `folder` in the message)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        if process.poll() is not None:
            raise AssertionError("%s exited (%s); see %s" % (name, process.returncode, folder))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError("%s did not listen within %d s" % (name, PATIENCE))
            # Not listening yet: look again when it exits or 20 ms on, whichever is first.
            try:
                process.wait(timeout=0.02)
            except subprocess.TimeoutExpired:
                pass


def stop(process):
    """Ends a child: SIGTERM, then SIGKILL if it has not exited within 10 s; waits for it."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Lines:
    """The lines a child prints (stdout and stderr together), read by a thread, awaited by text;
    each also written to `copy` (a binary file) when one is given."""

    def __init__(self, stream, copy=None):
        self.lines = []
        self.copy = copy
        self.arrived = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in stream:
            if self.copy:
                self.copy.write(raw)
                self.copy.flush()
            self.arrived.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.arrived.put(None)

    def take(self):
        """Moves what arrived so far into `lines`."""
        while True:
            try:
                line = self.arrived.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.arrived.put(None)
                return
            self.lines.append(line)

    def expect(self, pattern, timeout=PATIENCE, after=0):
        """The first line from index `after` on (seen before or arriving within `timeout` s)
        matching the regular expression `pattern`: its match; AssertionError with what was
        printed if none."""
        wanted = re.compile(pattern)
        deadline = time.monotonic() + timeout
        index = after
        while True:
            self.take()
            while index < len(self.lines):
                found = wanted.search(self.lines[index])
                index += 1
                if found:
                    return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no line matching %r; printed:\n%s" % (pattern, "\n".join(self.lines)))
            try:
                line = self.arrived.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.arrived.put(None)
                raise AssertionError("ended with no line matching %r; printed:\n%s" % (pattern, "\n".join(self.lines)))
            self.lines.append(line)


class Broker:
    """A private Mosquitto broker on a free 127.0.0.1 port, anonymous, not persistent."""

    def __init__(self, suite):
        self.folder = private_folder(suite, "broker")
        self.port = free_port()
        config = os.path.join(self.folder, "mosquitto.conf")
        with open(config, "w") as out:
            out.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % self.port)
        self.log = open(os.path.join(self.folder, "mosquitto.log"), "wb")
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", config], stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            await_listening(self.process, self.port, "the test broker", self.folder)
        except BaseException:
            # Not started (or the run interrupted): no test holds it to close it.
            self.close()
            raise

    @property
    def url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    def publish(self, topic, payload, retain=True):
        """Publishes `payload` (text) on `topic` at QoS 1 and waits for mosquitto_pub to finish."""
        arguments = [MOSQUITTO_PUB, "-h", "127.0.0.1", "-p", str(self.port), "-q", "1", "-t", topic, "-m", payload]
        if retain:
            arguments.append("-r")
        subprocess.run(arguments, check=True, timeout=PATIENCE, stdin=subprocess.DEVNULL)

    def retained(self, topic_filter):
        """The retained messages on `topic_filter` now: {topic: payload text}.

        mosquitto_sub gets the retained ones at once after subscribing and stops at the first live
        one (--retained-only) or when 2 s pass without one (-W, the end of the retained set)."""
        done = subprocess.run(
            [MOSQUITTO_SUB, "-h", "127.0.0.1", "-p", str(self.port), "-t", topic_filter, "-v", "--retained-only",
             "-W", "2"], capture_output=True, timeout=PATIENCE, stdin=subprocess.DEVNULL)
        found = {}
        for line in done.stdout.decode("utf-8", "replace").splitlines():
            topic, _, payload = line.partition(" ")
            found[topic] = payload
        return found

    def close(self):
        stop(self.process)
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
