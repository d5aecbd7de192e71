"""The services and peers the figures need, each started privately and always ended: termdown (from
PyPI, installed when missing), a PulseAudio server with a null sink and its monitor recorded
(what a listener hears), and a Mosquitto broker on a free loopback port."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

from bench.harness import HarnessError, finish_process, log, now_ns, track, untrack
from bench.stats import is_loud

class Termdown:
    def __init__(self):
        self.argv = None
        self.version = None
        self.note = ""

    def find(self):
        if self._python_has_it():
            self.argv = [sys.executable, "-c",
                         "import sys; sys.argv[0] = 'termdown'; from termdown.cli import main; sys.exit(main())"]
        elif shutil.which("termdown"):
            self.argv = [shutil.which("termdown")]
        return self.argv is not None

    @staticmethod
    def _python_has_it():
        probe = subprocess.run([sys.executable, "-c", "import termdown.cli"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return probe.returncode == 0

    def ensure(self):
        if self.find():
            self.note = "already installed"
        else:
            log("termdown is missing: pip install termdown")
            attempts = [[sys.executable, "-m", "pip", "install", "--quiet", "termdown"],
                        [sys.executable, "-m", "pip", "install", "--quiet", "--user", "termdown"]]
            errors = []
            for command in attempts:
                result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if result.returncode == 0 and self.find():
                    self.note = "installed by this run (" + " ".join(command[2:]) + ")"
                    break
                errors.append(result.stdout.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"])
            else:
                self.note = "missing: pip could not install it (" + "; ".join(e[0] for e in errors) + ")"
                return False
        result = subprocess.run(self.argv + ["--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.version = result.stdout.decode().strip().splitlines()[0] if result.returncode == 0 else "?"
        return True


# ----------------------------------------------------------------------------------------------
# A real sound server: PulseAudio with a null sink, its monitor recorded (what a listener hears)

PULSE_SINK = "kitchen"
PULSE_RATE = 44100
FRAME_BYTES = 4                      # S16LE stereo
CHUNK_BYTES = PULSE_RATE // 100 * FRAME_BYTES   # ~10 ms of the monitor per read
BEEP_GROUP_SILENCE_BYTES = PULSE_RATE // 5 * FRAME_BYTES   # 200 ms of silence before a beep group


class PulseServer:
    """A private PulseAudio server with one null sink, as the HeardTests start it: `-n --daemonize=no`
    as our child (this container's init reaps no orphans), HOME/XDG_RUNTIME_DIR/PULSE_RUNTIME_PATH in a
    private 0700 folder, the debug log to a file; killed and waited for at the end, its pid file removed."""

    ARGV = ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
            "--log-level=debug", "--log-target=stderr",
            "-L", f"module-null-sink sink_name={PULSE_SINK} rate={PULSE_RATE} channels=2 norewinds=1",
            "-L", "module-native-protocol-unix"]

    def __init__(self):
        import tempfile
        self.directory = tempfile.mkdtemp(prefix="eggtimer-bench-pulse-")   # mode 0700
        self.runtime = os.path.join(self.directory, "pulse")
        self.log_path = os.path.join(self.directory, "server.log")
        self.children = 0
        self.popen = None

    def start(self):
        environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": self.directory,
                       "XDG_RUNTIME_DIR": self.directory, "PULSE_RUNTIME_PATH": self.runtime}
        with open(self.log_path, "ab") as log_file:
            self.popen = track(subprocess.Popen(self.ARGV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                stderr=log_file, env=environment, start_new_session=True))
        probe = self.env("probe")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise HarnessError(f"pulseaudio exited {self.popen.returncode} before answering: "
                                   + self.log_tail())
            answer = subprocess.run(["pactl", "info"], env=probe, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, timeout=10)
            if answer.returncode == 0:
                return
            time.sleep(0.05)
        raise HarnessError("pulseaudio did not answer `pactl info` within 20 s: " + self.log_tail())

    def env(self, name):
        """A child's environment: its own HOME and XDG_RUNTIME_DIR (0700), PULSE_SERVER = this server."""
        self.children += 1
        home = os.path.join(self.directory, f"{name}-{self.children}")
        os.makedirs(os.path.join(home, "run"), mode=0o700)
        os.chmod(home, 0o700)
        return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "XDG_STATE_HOME": os.path.join(home, "state"),
                "XDG_RUNTIME_DIR": os.path.join(home, "run"), "PULSE_SERVER": "unix:" + os.path.join(self.runtime, "native")}

    def log_text(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def log_tail(self):
        return " | ".join(self.log_text().strip().splitlines()[-3:])

    def underruns(self):
        """How often the log says a stream came back from an underrun so far (as the HeardTests count)."""
        return self.log_text().count("end of underrun")

    def stop(self):
        if self.popen is not None:
            if self.popen.poll() is None:
                self.popen.send_signal(signal.SIGTERM)
                try:
                    self.popen.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.popen.kill()
                    self.popen.wait(timeout=5)
            untrack(self.popen)
            self.popen = None
        try:
            os.unlink(os.path.join(self.runtime, "pid"))
        except OSError:
            pass

    def remove(self):
        shutil.rmtree(self.directory, ignore_errors=True)


class Monitor:
    """`parec` on the sink's monitor, read in ~10 ms chunks, each stamped with CLOCK_BOOTTIME on arrival.
    A chunk is loud when any of its bytes is not zero (100 % volume at the sound's rate: silence is
    exact zeros). Also notes every beep-group start: a loud chunk after at least 200 ms of silence."""

    ARGV = ["parec", "--latency-msec=10", "-d", f"{PULSE_SINK}.monitor", "--format=s16le",
            f"--rate={PULSE_RATE}", "--channels=2", "--raw"]

    def __init__(self, server):
        self.data = bytearray()
        self.chunks = []          # (stamp_ns, byte offset, length, loud)
        self.group_starts = []    # stamp_ns of loud chunks after >= 200 ms of silence
        self.cond = threading.Condition()
        self.silent_run = 0
        self.popen = track(subprocess.Popen(self.ARGV, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, env=server.env("parec"),
                                            start_new_session=True))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        if not self.wait(lambda: self.chunks, 10):
            raise HarnessError("parec recorded nothing from the monitor within 10 s")

    def _read(self):
        fd = self.popen.stdout.fileno()
        while True:
            try:
                data = os.read(fd, CHUNK_BYTES)
            except OSError:
                break
            stamp = now_ns()
            if not data:
                break
            loud = is_loud(data)
            with self.cond:
                if loud and self.silent_run >= BEEP_GROUP_SILENCE_BYTES:
                    self.group_starts.append(stamp)
                self.silent_run = 0 if loud else self.silent_run + len(data)
                self.chunks.append((stamp, len(self.data), len(data), loud))
                self.data += data
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def wait(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0 or not self.thread.is_alive():
                    return predicate()
                self.cond.wait(left)
            return True

    def wait_past(self, instant_ns, timeout=10):
        """Until a chunk stamped after `instant_ns` arrived: all played up to then is recorded."""
        return self.wait(lambda: self.chunks and self.chunks[-1][0] > instant_ns, timeout)

    def loud_stamps(self, since_ns, until_ns=None):
        with self.cond:
            return [c[0] for c in self.chunks if c[3] and c[0] >= since_ns and (until_ns is None or c[0] <= until_ns)]

    def first_loud_byte(self, since_ns):
        """Offset of the first non-zero frame in chunks stamped at or after `since_ns`, or None."""
        with self.cond:
            for stamp, offset, length, loud in self.chunks:
                if stamp >= since_ns and loud:
                    chunk = bytes(self.data[offset:offset + length])
                    index = offset + next(i for i, b in enumerate(chunk) if b)
                    return index // FRAME_BYTES * FRAME_BYTES
        return None

    def stop(self):
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
        finish_process(self.popen, 5)
        self.thread.join(timeout=5)



def private_broker(out, config_name):
    """A private Mosquitto broker on a free 127.0.0.1 port (anonymous, no persistence; its config
    `config_name` in the folder `out`), once it accepts connections: (popen, port), tracked; the
    caller ends it. Raises HarnessError (the broker ended) when it does not accept within 10 s."""
    broker_bin = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = os.path.join(out, config_name)
    with open(config, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = track(subprocess.Popen([broker_bin, "-c", config], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return broker, port
        except OSError:
            if time.monotonic() > deadline or broker.poll() is not None:
                if broker.poll() is None:
                    broker.terminate()
                finish_process(broker, 5)
                untrack(broker)
                raise HarnessError("the private mosquitto broker did not start")
            time.sleep(0.02)
