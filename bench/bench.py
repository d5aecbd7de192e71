#!/usr/bin/env python3
"""eggtimer benchmarks: eggtimer and its peers (a tick-counting loop, termdown, mpg123, aplay, sox)
measured side by side in one run. See bench/README.md.

    python3 bench/bench.py --binary PATH/eggtimer            # full: < 10 min, writes BENCHMARKS.md
    python3 bench/bench.py --quick --binary PATH/eggtimer    # seconds; prints, writes bench/out/ only

Python standard library only (pty, os, subprocess, threading, time, wave). termdown is installed
with pip when missing; a peer that cannot be had is reported as missing, never skipped silently.
Exit status: 0 whatever the figures; 2 if the harness itself breaks (a crash, eggtimer missing).
"""

import argparse
import datetime
import fcntl
import glob
import importlib.util
import json
import os
import platform
import pty
import re
import shlex
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
import traceback
import wave

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_ROOT = os.path.join(REPO, "bench", "out")
BOOT = time.CLOCK_BOOTTIME


def now_ns():
    """CLOCK_BOOTTIME, the clock of eggtimer's t_mono_ns."""
    return time.clock_gettime_ns(BOOT)


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class HarnessError(Exception):
    """The harness cannot go on (not a missed figure)."""


# ----------------------------------------------------------------------------------------------
# Settings per mode

class Settings:
    def __init__(self, quick):
        self.quick = quick
        if quick:
            self.short_s, self.long_s = 1, 2          # countdowns for lateness
            self.runs = 2                             # runs per countdown length and load
            self.stagger_s = 0.23
            self.calibrate_s = 2
            self.wait_s = 2                           # waiting cost countdown (UI, headless, termdown)
            self.pause_countdown_s = 3
            self.pause_cycles, self.pause_hold_s, self.pause_run_s = 10, 0.05, 0.05
            self.stop_runs = 3
            self.startup_runs = 20
            self.gap_loops = 3
            self.cg_loops = (2, 6)
            self.heard_onset_runs, self.heard_stop_runs = 1, 1
            self.heard_cost_s, self.heard_busy_s = 3, 5
        else:
            self.short_s, self.long_s = 10, 60
            self.runs = 5
            self.stagger_s = 1.13
            self.calibrate_s = 4
            self.wait_s = 60
            self.pause_countdown_s = 10
            self.pause_cycles, self.pause_hold_s, self.pause_run_s = 10, 0.3, 0.2
            self.stop_runs = 7
            self.startup_runs = 300
            self.gap_loops = 20
            self.cg_loops = (10, 100)
            self.heard_onset_runs, self.heard_stop_runs = 7, 5
            self.heard_cost_s, self.heard_busy_s = 10, 60


# ----------------------------------------------------------------------------------------------
# Processes: a registry so that every child is ended on the way out

CHILDREN = set()
CHILDREN_LOCK = threading.Lock()


def track(popen):
    with CHILDREN_LOCK:
        CHILDREN.add(popen)
    return popen


def untrack(popen):
    with CHILDREN_LOCK:
        CHILDREN.discard(popen)


def end_all_children():
    with CHILDREN_LOCK:
        children = list(CHILDREN)
        CHILDREN.clear()
    for child in children:
        if child.poll() is None:
            try:
                child.kill()
            except OSError:
                pass
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass


_private_folder = None


def private_folder():
    """This run's own 0700 folder (removed at exit), for the runtime and state folders of the
    timers it starts: a benchmark leaves no record or socket in the user's own folders."""
    global _private_folder
    if _private_folder is None:
        import atexit
        import tempfile
        _private_folder = tempfile.mkdtemp(prefix="eggtimer-bench-")
        for name in ("run", "state"):
            os.mkdir(os.path.join(_private_folder, name), 0o700)
        atexit.register(shutil.rmtree, _private_folder, True)
    return _private_folder


def child_env(extra=None):
    env = dict(os.environ)
    env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "XDG_RUNTIME_DIR": os.path.join(private_folder(), "run"),
                "XDG_STATE_HOME": os.path.join(private_folder(), "state")})
    env.pop("NO_COLOR", None)
    if extra:
        env.update(extra)
    return env


def take_terminal():
    """preexec_fn for a child on a pty: after start_new_session's setsid, stdin (the pty slave) becomes
    its controlling terminal, so the child is the terminal's foreground process group (eggtimer reads
    keys and draws only when `tcgetpgrp(fd) == getpgrp()`, as a foreground job)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Pty:
    """A pseudo-terminal whose output is drained by a thread; keys are written to the master."""

    def __init__(self, rows=24, columns=80):
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.bytes = 0
        self.first_output_ns = None
        self.got_output = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            if self.first_output_ns is None:
                self.first_output_ns = now_ns()
                self.got_output.set()
            self.bytes += len(data)

    def close_slave(self):
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None

    def write_key(self, key):
        """Writes the key bytes; returns CLOCK_BOOTTIME ns taken just before the write."""
        t = now_ns()
        os.write(self.master, key)
        return t

    def close(self):
        self.close_slave()
        try:
            os.close(self.master)
        except OSError:
            pass
        self.thread.join(timeout=2)


class Events:
    """Reads eggtimer's --json lines from a pipe on a thread."""

    def __init__(self, stream):
        self.events = []
        self.cond = threading.Condition()
        self.closed = False
        self.bad_lines = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in stream:
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                event = json.loads(line)
                event["_read_ns"] = now_ns()
            except ValueError:
                self.bad_lines.append(line)
                continue
            with self.cond:
                self.events.append(event)
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def wait(self, name, timeout, after=0):
        """The first event called `name` at index >= after, or None on timeout/EOF."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for event in self.events[after:]:
                    if event.get("event") == name:
                        return event
                if self.closed:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def first(self, name):
        with self.cond:
            for event in self.events:
                if event.get("event") == name:
                    return event
        return None

    def all(self, name=None):
        with self.cond:
            return [e for e in self.events if name is None or e.get("event") == name]

    def count(self):
        with self.cond:
            return len(self.events)


LABELS = iter(range(1, 1 << 30))


def unique_label():
    """`--label NAME` for one eggtimer: a timer refuses to start while another with its label runs,
    and the harness runs several countdowns of the same length at once."""
    return ["--label", f"bench-{os.getpid()}-{next(LABELS)}"]


def spawn_eggtimer(binary, sound, args, tty=False, ui=False):
    """eggtimer with --json on a stdout pipe; stdin /dev/null (headless) or stdin+stderr a pty.
    With `ui`, no --json (eggtimer draws no UI with --json): the UI on stderr (the pty), plain log
    lines on the stdout pipe, so no timestamped events."""
    argv = [binary] + args + unique_label() + ([] if ui else ["--json"]) + ["--sound", sound]
    term = None
    if tty:
        term = Pty()
        popen = subprocess.Popen(argv, stdin=term.slave, stdout=subprocess.PIPE, stderr=term.slave,
                                 env=child_env(), start_new_session=True, preexec_fn=take_terminal)
        term.close_slave()
    else:
        popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=child_env(), start_new_session=True)
    track(popen)
    events = Events(popen.stdout)
    return popen, events, term


def finish_process(popen, timeout):
    """Waits for exit (killing after `timeout`); returns (returncode, stderr text)."""
    try:
        popen.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.wait(timeout=5)
    err = ""
    if popen.stderr is not None:
        try:
            err = popen.stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            pass
    untrack(popen)
    return popen.returncode, err


# ----------------------------------------------------------------------------------------------
# /proc sampling: CPU time and wakeups per thread

def _field(text, name):
    match = re.search(r"^" + re.escape(name) + r":\s+(\d+)", text, re.M)
    return int(match.group(1)) if match else 0


def snapshot(pid):
    """Per thread: voluntary and involuntary context switches, CPU ns, name; plus VmHWM/VmRSS kB."""
    threads = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            tid = int(task.rsplit("/", 1)[1])
            with open(task + "/status") as f:
                status = f.read()
            cpu_ns = None
            try:
                with open(task + "/sched") as f:
                    match = re.search(r"se\.sum_exec_runtime\s*:\s*([\d.]+)", f.read())
                if match:
                    cpu_ns = int(round(float(match.group(1)) * 1e6))
            except OSError:
                pass
            if cpu_ns is None:  # no /proc/*/sched: clock ticks from stat
                with open(task + "/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                cpu_ns = (int(fields[11]) + int(fields[12])) * (10**9 // os.sysconf("SC_CLK_TCK"))
            with open(task + "/comm") as f:
                name = f.read().strip()
            threads[tid] = {"vol": _field(status, "voluntary_ctxt_switches"),
                            "invol": _field(status, "nonvoluntary_ctxt_switches"),
                            "cpu_ns": cpu_ns, "name": name}
        except (OSError, ValueError, IndexError):
            continue
    memory = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        memory = {"hwm_kb": _field(status, "VmHWM"), "rss_kb": _field(status, "VmRSS")}
    except OSError:
        pass
    return {"t_ns": now_ns(), "threads": threads, "memory": memory}


def resident_by_mapping(pid):
    """Resident kB per mapped file (or [anon]/[heap]/[stack]) from /proc/PID/smaps, and RssAnon/RssFile."""
    totals = {}
    name = None
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = re.match(r"^[0-9a-f]+-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\d+\s*(.*)$", line)
                if head:
                    name = os.path.basename(head.group(1).strip()) or "[anonymous]"
                elif line.startswith("Rss:") and name:
                    totals[name] = totals.get(name, 0) + int(line.split()[1])
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
    except OSError:
        return None
    return {"files": sorted(totals.items(), key=lambda kv: -kv[1]),
            "anon_kb": _field(status, "RssAnon"), "file_kb": _field(status, "RssFile")}


def window_cost(before, after):
    """CPU and wakeups between two snapshots; threads born in between count from zero."""
    seconds = (after["t_ns"] - before["t_ns"]) / 1e9
    per_thread = []
    total_cpu = total_vol = total_invol = 0
    for index, (tid, end) in enumerate(sorted(after["threads"].items())):
        start = before["threads"].get(tid, {"vol": 0, "invol": 0, "cpu_ns": 0})
        vol, invol = end["vol"] - start["vol"], end["invol"] - start["invol"]
        cpu = end["cpu_ns"] - start["cpu_ns"]
        role = "main" if index == 0 else f"thread {index}"
        per_thread.append({"tid": tid, "role": role, "name": end["name"], "vol": vol, "invol": invol,
                           "cpu_ns": cpu, "born_in_window": tid not in before["threads"]})
        total_cpu += cpu
        total_vol += vol
        total_invol += invol
    gone = [tid for tid in before["threads"] if tid not in after["threads"]]
    return {"seconds": seconds, "cpu_ns": total_cpu, "vol": total_vol, "invol": total_invol,
            "threads": per_thread, "threads_gone": gone}


# ----------------------------------------------------------------------------------------------
# Statistics helpers

def p99(values):
    """Nearest-rank 99th percentile (with fewer than 100 samples: the maximum)."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, -(-99 * len(ordered) // 100))
    return ordered[rank - 1]


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=3):
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if value != 0 and abs(value) < 10 ** (-digits):
        return f"{value:.2e}"
    return f"{value:.{digits}f}"


# ----------------------------------------------------------------------------------------------
# The reference: "sleep 1 s, then decrement", with eggtimer's per-tick work

REFERENCE_SCRIPT = r"""
import os, sys, time
duration, work_ns = int(sys.argv[1]), int(sys.argv[2])
start = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
remaining = duration
while remaining > 0:
    time.sleep(1)
    remaining -= 1
    # the same per-tick work as eggtimer's display update: render, write, and its CPU cost
    os.write(2, ("\r%d:%02d left " % (remaining // 60, remaining % 60)).encode())
    end = time.thread_time_ns() + work_ns
    while time.thread_time_ns() < end:
        pass
finished = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
print(start, finished, flush=True)
"""


def spawn_reference(duration, work_ns):
    popen = subprocess.Popen([sys.executable, "-c", REFERENCE_SCRIPT, str(duration), str(work_ns)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    return track(popen)


# ----------------------------------------------------------------------------------------------
# termdown (PyPI): installed when missing

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
            loud = data.count(0) != len(data)
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


def read_smaps(pid):
    """/proc/PID/smaps as a list of mappings (start, end, perms, path, kB fields), plus VmHWM/VmRSS/Threads."""
    maps = []
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = re.match(r"^([0-9a-f]+)-([0-9a-f]+)\s+(\S+)\s+\S+\s+\S+\s+\d+\s*(.*)$", line)
                if head:
                    maps.append({"start": int(head.group(1), 16), "end": int(head.group(2), 16),
                                 "perms": head.group(3), "path": head.group(4).strip(), "kb": {}})
                    continue
                field = re.match(r"^(\w+):\s+(\d+) kB", line)
                if field and maps:
                    maps[-1]["kb"][field.group(1)] = int(field.group(2))
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None
    return {"maps": maps, "exe": exe, "hwm_kb": _field(status, "VmHWM"), "rss_kb": _field(status, "VmRSS"),
            "threads": _field(status, "Threads")}


def resident_by_section(pid, exe):
    """Resident kB of the executable per ELF section (from /proc/PID/pagemap's present bit, root only):
    which of the program's pages a ringing process holds. None when pagemap or readelf is unavailable."""
    try:
        listing = subprocess.run(["readelf", "-SW", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 timeout=20).stdout.decode()
    except (OSError, subprocess.TimeoutExpired):
        return None
    sections = []
    for line in listing.splitlines():
        field = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if field and int(field.group(2), 16) and int(field.group(3), 16):
            sections.append((field.group(1), int(field.group(2), 16), int(field.group(3), 16)))
    smaps = read_smaps(pid)
    if not smaps or not sections:
        return None
    own = [m for m in smaps["maps"] if m["path"] == exe]
    if not own:
        return None
    base = min(m["start"] for m in own)
    # the anonymous mapping right after the executable's last one holds the rest of .bss
    last = max(own, key=lambda m: m["end"])
    following = [m for m in smaps["maps"] if m["start"] == last["end"] and not m["path"]]
    page = os.sysconf("SC_PAGE_SIZE")
    totals = {}
    try:
        with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
            for m in own + following:
                pagemap.seek(m["start"] // page * 8)
                entries = pagemap.read((m["end"] - m["start"]) // page * 8)
                for i in range(len(entries) // 8):
                    if not int.from_bytes(entries[8 * i:8 * i + 8], "little") >> 63:
                        continue
                    lo = m["start"] + i * page - base
                    best, overlap = "(between sections)", 0
                    for name, address, size in sections:
                        covered = min(lo + page, address + size) - max(lo, address)
                        if covered > overlap:
                            best, overlap = name, covered
                    totals[best] = totals.get(best, 0) + page // 1024
    except OSError:
        return None
    return {"sections": {name: size for name, _, size in sections}, "resident_kb": totals}


MEMORY_CATEGORIES = [
    "program: code (r-x)", "program: read-only data and RELRO (r--)", "program: writable data, .bss",
    "ALSA: libasound", "ALSA: plugins (libasound_module_*)", "PulseAudio client: libpulse, libpulsecommon",
    "libmpg123 (and mpg123's libout123/libsyn123/output modules)", "libc, libm, ld.so, libgcc, libstdc++",
    "other shared libraries", "malloc: main heap ([heap])", "malloc: thread arenas",
    "thread stacks (below a guard page)", "main stack ([stack])",
    "shared memory with the server (memfd/shm)", "other anonymous memory (large malloc chunks: the decoded sound, …)", "other files (locale, …)",
    "kernel ([vdso], [vvar])",
]


def memory_category(maps, index, exe, sound_bytes):
    m = maps[index]
    path, perms = m["path"], m["perms"]
    name = os.path.basename(path)
    previous = maps[index - 1] if index else None
    following = maps[index + 1] if index + 1 < len(maps) else None
    if path == exe:
        return {"r-xp": "program: code (r-x)", "r--p": "program: read-only data and RELRO (r--)"}.get(
            perms, "program: writable data, .bss")
    if "libasound_module_" in name:
        return "ALSA: plugins (libasound_module_*)"
    if name.startswith("libasound.so"):
        return "ALSA: libasound"
    if name.startswith("libpulse"):
        return "PulseAudio client: libpulse, libpulsecommon"
    if name.startswith(("libmpg123", "libout123", "libsyn123")) or "/mpg123/" in path:
        return "libmpg123 (and mpg123's libout123/libsyn123/output modules)"
    if name.startswith(("libc.so", "libm.so", "ld-linux", "libgcc_s", "libstdc++")):
        return "libc, libm, ld.so, libgcc, libstdc++"
    if ".so" in name:
        return "other shared libraries"
    if path == "[heap]":
        return "malloc: main heap ([heap])"
    if path == "[stack]":
        return "main stack ([stack])"
    if path in ("[vdso]", "[vvar]", "[vsyscall]") or path.startswith("[vvar"):
        return "kernel ([vdso], [vvar])"
    if "memfd:" in path or path.startswith("/dev/shm") or "pulse-shm" in path:
        return "shared memory with the server (memfd/shm)"
    if path:
        return "other files (locale, …)"
    # anonymous
    if previous is not None and previous["path"] == exe and previous["end"] == m["start"]:
        return "program: writable data, .bss"
    if previous is not None and not previous["path"] and previous["perms"] == "---p" and previous["end"] == m["start"]:
        return "thread stacks (below a guard page)"
    if following is not None and not following["path"] and following["perms"] == "---p" and following["start"] == m["end"]:
        return "malloc: thread arenas"
    return "other anonymous memory (large malloc chunks: the decoded sound, …)"


def memory_by_category(smaps, sound_bytes):
    """kB per category: {category: {"rss", "dirty", "count"}}."""
    totals = {}
    for index, m in enumerate(smaps["maps"]):
        category = memory_category(smaps["maps"], index, smaps["exe"], sound_bytes)
        entry = totals.setdefault(category, {"rss": 0, "dirty": 0, "count": 0, "size": 0})
        entry["rss"] += m["kb"].get("Rss", 0)
        entry["dirty"] += m["kb"].get("Private_Dirty", 0)
        entry["size"] += (m["end"] - m["start"]) // 1024
        entry["count"] += 1
    return totals


# ----------------------------------------------------------------------------------------------
# The benchmark

class Bench:
    def __init__(self, binary, settings, sound):
        self.binary = binary
        self.s = settings
        self.sound = sound
        self.out = os.path.join(OUT_ROOT, "quick" if settings.quick else "full")
        os.makedirs(self.out, exist_ok=True)
        self.figures = {}        # key -> value
        self.details = []        # markdown sections
        self.problems = []       # harness-level notes (a run that failed, a missing tool)
        self.commands = []       # exact commands run, for reproduction
        self.tools = {}
        self.termdown = Termdown()
        self.sound_seconds = None
        self.unit_raw = None     # eggtimer's capture of one pass

    # -------------------------------------------------------------------- helpers

    def note_command(self, argv, comment=None):
        text = " ".join(shlex.quote(a) for a in argv) + (f"  {comment}" if comment else "")
        text = text.replace(self.binary, "eggtimer").replace(self.sound, "Sounds/alarm_sound.mp3")
        text = text.replace(self.out + "/", "bench/out/…/")
        text = re.sub(r"--label bench-\d+-\d+", "--label bench-N", text)
        if text not in self.commands:
            self.commands.append(text)

    def egg_args_note(self, args, tty, ui=False):
        self.note_command([self.binary] + args + ([] if ui else ["--json"]) + ["--sound", self.sound],
                          "# stdin and stderr a pty (80x24), stdout a pipe" if tty else "</dev/null  # stdout a pipe")

    def check_tools(self):
        for tool in ["mpg123", "aplay", "sox", "valgrind", "callgrind_annotate"]:
            self.tools[tool] = shutil.which(tool)
            if not self.tools[tool]:
                self.problems.append(f"{tool} is missing (install: make bench installs it via scripts/ensure-deps.sh); its figures are n/a")
        if not self.termdown.ensure():
            self.problems.append(f"termdown {self.termdown.note}; its figures are n/a")

    def versions(self):
        def first_line(argv, pattern=None):
            try:
                result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                return "missing"
            lines = result.stdout.decode("utf-8", "replace").strip().splitlines()
            if pattern:
                lines = [l for l in lines if re.search(pattern, l)] or lines
            return lines[0].strip() if lines else "?"

        def deb(package):
            result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            return result.stdout.decode().strip() or "?"

        cpu = "?"
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("model name"):
                        cpu = line.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        distro = "?"
        try:
            with open("/etc/os-release") as f:
                for line in f:
                    if line.startswith("PRETTY_NAME="):
                        distro = line.split("=", 1)[1].strip().strip('"')
        except OSError:
            pass
        memory = "?"
        try:
            with open("/proc/meminfo") as f:
                memory = f"{int(f.readline().split()[1]) / 1024 / 1024:.1f} GiB"
        except (OSError, ValueError, IndexError):
            pass
        machine = {
            "nproc": str(os.cpu_count()),
            "CPU": cpu,
            "memory": memory,
            "kernel": platform.release(),
            "OS": distro,
            "timer slack / clocksource": self._clocksource(),
        }
        versions = {
            "eggtimer": first_line([self.binary, "--version"]),
            "mpg123": first_line(["mpg123", "--version"]) if self.tools.get("mpg123") else "missing",
            "aplay": first_line(["aplay", "--version"]) if self.tools.get("aplay") else "missing",
            "sox": first_line(["sox", "--version"]) if self.tools.get("sox") else "missing",
            "termdown": self.termdown.version or self.termdown.note,
            "valgrind": first_line(["valgrind", "--version"]) if self.tools.get("valgrind") else "missing",
            "python": platform.python_version() + f" ({sys.executable})",
            "alsa-lib": deb("libasound2"),
            "libmpg123": deb("libmpg123-0"),
        }
        return machine, versions

    @staticmethod
    def _clocksource():
        try:
            with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
                return "clocksource " + f.read().strip()
        except OSError:
            return "?"

    # -------------------------------------------------------------------- calibration

    def calibrate(self):
        """CPU per display update of eggtimer's UI (main thread), the reference's per-tick work."""
        args = [str(self.s.calibrate_s + 5), "-D", "null"]
        popen, events, term = spawn_eggtimer(self.binary, self.sound, args, tty=True, ui=True)
        self.egg_args_note(args, True, ui=True)
        try:
            if not term.got_output.wait(10):
                raise HarnessError("eggtimer (UI on a pty) drew nothing")
            time.sleep(0.3)
            before = snapshot(popen.pid)
            time.sleep(self.s.calibrate_s)
            after = snapshot(popen.pid)
        finally:
            popen.send_signal(signal.SIGTERM)
            finish_process(popen, 5)
            term.close()
        cost = window_cost(before, after)
        main = cost["threads"][0]
        work_ns = main["cpu_ns"] // max(1, main["vol"])
        self.work_ns = work_ns
        self.details.append(
            "### Per-tick work of the reference\n\n"
            f"eggtimer's UI main thread over {cost['seconds']:.2f} s on a pty: {main['vol']} wakeups, "
            f"{main['cpu_ns'] / 1e6:.3f} ms CPU, so **{work_ns / 1e3:.1f} µs of CPU per display update**. "
            "The reference loop burns this much CPU (plus rendering and writing one status line) after "
            "each 1 s sleep: the same per-tick work.\n")
        log(f"calibration: {work_ns / 1e3:.1f} us CPU per UI update")

    # -------------------------------------------------------------------- timing phases

    def timing_phase(self, busy):
        """Lateness runs (short and long countdowns, headless) and reference runs, staggered so that
        no two deadlines coincide; in the idle phase also the waiting-cost runs (eggtimer with the
        UI on a pty, eggtimer headless, termdown on a pty)."""
        label = "busy" if busy else "idle"
        hogs = []
        if busy:
            for _ in range(2):
                hog = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                hogs.append(track(hog))
            self.note_command([sys.executable, "-c", "while True: pass"], "&  # twice: the busy phase")
            time.sleep(0.5)
        plan = []  # (offset_s, kind, duration)
        step = self.s.stagger_s
        for i in range(self.s.runs):
            plan.append((i * step, "egg", self.s.long_s))
            plan.append((i * step + step / 2, "egg", self.s.short_s))
            plan.append((i * step + step / 4, "ref", self.s.long_s))
            plan.append((i * step + 3 * step / 4, "ref", self.s.short_s))
        if not busy:
            plan.append((0.05, "ui", self.s.wait_s))
            if self.termdown.argv:
                plan.append((0.0, "termdown", self.s.wait_s))
        plan.sort()

        runs = []
        waiters = []
        t0 = time.monotonic()
        try:
            for offset, kind, duration in plan:
                delay = t0 + offset - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                if kind == "egg":
                    args = [str(duration), "-D", "null", "--loops", "1"]
                    popen, events, _ = spawn_eggtimer(self.binary, self.sound, args)
                    self.egg_args_note(args, False)
                    run = {"kind": kind, "duration": duration, "popen": popen, "events": events}
                    # the first long headless run is also the headless waiting-cost run
                    if not busy and duration == self.s.long_s and not any(
                            r.get("waiting") for r in runs if r["kind"] == "egg"):
                        run["waiting"] = "headless"
                        waiters.append(self._start_waiter(run))
                    runs.append(run)
                elif kind == "ref":
                    popen = spawn_reference(duration, self.work_ns)
                    self.note_command(["python3", "-c", "\"$REFERENCE_SCRIPT\"", str(duration), str(self.work_ns)],
                                      "# REFERENCE_SCRIPT in bench/bench.py; args: seconds, CPU ns of work per tick")
                    runs.append({"kind": kind, "duration": duration, "popen": popen})
                elif kind == "ui":
                    args = [str(duration), "-D", "null"]
                    popen, events, term = spawn_eggtimer(self.binary, self.sound, args, tty=True, ui=True)
                    self.egg_args_note(args, True, ui=True)
                    run = {"kind": kind, "duration": duration, "popen": popen, "events": events,
                           "term": term, "waiting": "ui"}
                    waiters.append(self._start_waiter(run))
                    runs.append(run)
                elif kind == "termdown":
                    term = Pty()
                    argv = self.termdown.argv + [str(duration)]
                    popen = track(subprocess.Popen(argv, stdin=term.slave, stdout=term.slave, stderr=term.slave,
                                                   env=child_env(), start_new_session=True,
                                                   preexec_fn=take_terminal))
                    term.close_slave()
                    self.note_command(["termdown", str(duration)], "# stdin/stdout/stderr a pty (80x24)")
                    run = {"kind": kind, "duration": duration, "popen": popen, "term": term,
                           "waiting": "termdown"}
                    waiters.append(self._start_waiter(run))
                    runs.append(run)
            # collect
            limit = max(d for _, _, d in plan) + 30
            for thread in waiters:
                thread.join(timeout=limit)
            for run in runs:
                if run["kind"] == "ref":
                    out, _ = run["popen"].communicate(timeout=limit)
                    untrack(run["popen"])
                    try:
                        start, finished = map(int, out.split())
                        run["lateness_ns"] = finished - start - run["duration"] * 10**9
                    except ValueError:
                        self.problems.append(f"reference run ({run['duration']} s, {label}) printed {out!r}")
                elif run["kind"] == "egg":
                    rc, err = finish_process(run["popen"], limit)
                    started, finished = run["events"].first("started"), run["events"].first("finished")
                    sounding = run["events"].first("sounding")
                    run["rc"] = rc
                    if rc != 0 or not started or not finished:
                        self.problems.append(
                            f"eggtimer {run['duration']} s ({label}) exited {rc}; events "
                            f"{[e['event'] for e in run['events'].all()]}; stderr {err.strip()[:300]!r}")
                        continue
                    run["lateness_ns"] = (finished["t_mono_ns"] - started["t_mono_ns"]
                                          - round(float(started["duration_s"]) * 1e9))
                    if sounding:
                        run["start_latency_ns"] = sounding["t_mono_ns"] - sounding["deadline_t_mono_ns"]
                        run["deadline_vs_start_ns"] = (sounding["deadline_t_mono_ns"] - started["t_mono_ns"]
                                                       - round(float(started["duration_s"]) * 1e9))
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
                untrack(hog)
        return runs

    def _start_waiter(self, run):
        thread = threading.Thread(target=self._waiting_run, args=(run,), daemon=True)
        thread.start()
        return thread

    def _waiting_run(self, run):
        """Samples /proc over the countdown: from 0.3 s after it started to 30 ms before its deadline
        (so the pre-opening of the device 1.5 s before the deadline is included)."""
        try:
            popen, duration = run["popen"], run["duration"]
            if run["kind"] in ("termdown", "ui"):   # no JSON: their first drawing marks the start
                if not run["term"].got_output.wait(30):
                    run["error"] = f"{run['kind']} drew nothing"
                    return
                begin = run["term"].first_output_ns
            else:
                started = run["events"].wait("started", 30)
                if not started:
                    run["error"] = "no started event"
                    return
                begin = started["t_mono_ns"]
            start_at = begin + 300_000_000
            # termdown's own start instant is unknown (before its first drawing): end it 0.5 s early
            margin = 500_000_000 if run["kind"] in ("termdown", "ui") else 30_000_000
            end_at = begin + duration * 10**9 - margin
            time.sleep(max(0, (start_at - now_ns()) / 1e9))
            before = snapshot(popen.pid)
            bytes_before = run["term"].bytes if run.get("term") else 0
            time.sleep(max(0, (end_at - now_ns()) / 1e9))
            after = snapshot(popen.pid)
            run["tty_bytes"] = (run["term"].bytes - bytes_before) if run.get("term") else None
            if not after["threads"] or popen.poll() is not None:
                run["error"] = "the process ended inside the window"
                return
            run["cost"] = window_cost(before, after)
            run["hwm_counting_kb"] = after["memory"].get("hwm_kb")
            run["mappings"] = resident_by_mapping(popen.pid)
            if run["kind"] == "ui":
                # it rings (paced, until a key): peak RSS while ringing, then a key stops it
                time.sleep(max(0, (begin + duration * 10**9 + 300_000_000 - now_ns()) / 1e9))
                if popen.poll() is None:
                    run["hwm_ringing_kb"] = snapshot(popen.pid)["memory"].get("hwm_kb")
                run["term"].write_key(b"x")
                finish_process(popen, 10)
                run["term"].close()
            elif run["kind"] == "termdown":
                popen.send_signal(signal.SIGTERM)
                finish_process(popen, 10)
                run["term"].close()
        except Exception as error:  # reported, not fatal
            run["error"] = f"{type(error).__name__}: {error}"

    # -------------------------------------------------------------------- pause accounting

    def pause_accounting(self):
        args = [str(self.s.pause_countdown_s), "-D", "null", "--loops", "1"]
        popen, events, term = spawn_eggtimer(self.binary, self.sound, args, tty=True)
        self.egg_args_note(args, True)
        try:
            started = events.wait("started", 10)
            if not started:
                raise HarnessError("pause run: no started event")
            time.sleep(0.1)
            for cycle in range(self.s.pause_cycles):
                index = events.count()
                term.write_key(b" ")
                if not events.wait("paused", 5, after=index):
                    raise HarnessError(f"pause run: no paused event in cycle {cycle + 1}")
                time.sleep(self.s.pause_hold_s)
                index = events.count()
                term.write_key(b" ")
                if not events.wait("resumed", 5, after=index):
                    raise HarnessError(f"pause run: no resumed event in cycle {cycle + 1}")
                time.sleep(self.s.pause_run_s)
            finished = events.wait("finished", self.s.pause_countdown_s + 30)
            rc, err = finish_process(popen, 10)
        finally:
            if popen.poll() is None:
                popen.kill()
                finish_process(popen, 5)
            term.close()
        if not finished:
            raise HarnessError(f"pause run: no finished event (rc {rc}, {err.strip()[:200]})")
        duration_ns = round(float(started["duration_s"]) * 1e9)
        paused_total = 0
        running = 0
        last_t = started["t_mono_ns"]
        state = "running"
        worst_remaining_error = 0
        for event in events.all():
            name = event["event"]
            if name not in ("paused", "resumed", "finished"):
                continue
            t = event["t_mono_ns"]
            if state == "running":
                running += t - last_t
            else:
                paused_total += t - last_t
            last_t = t
            state = "paused" if name == "paused" else "running"
            if name in ("paused", "resumed"):
                expected = duration_ns - running
                reported = round(float(event["remaining_s"]) * 1e9)
                worst_remaining_error = max(worst_remaining_error, abs(reported - expected))
            if name == "finished":
                break
        total_error = finished["t_mono_ns"] - started["t_mono_ns"] - duration_ns - paused_total
        pauses = len(events.all("paused"))
        self.figures["pause_error_ms"] = total_error / 1e6
        self.figures["pause_remaining_error_ms"] = worst_remaining_error / 1e6
        self.details.append(
            "### Pause accounting\n\n"
            f"One {self.s.pause_countdown_s} s countdown on a pty, {pauses} pause/resume cycles "
            f"(Space; paused {self.s.pause_hold_s * 1000:.0f} ms, running {self.s.pause_run_s * 1000:.0f} ms). "
            f"Total paused {paused_total / 1e9:.3f} s (from the paused/resumed events). "
            f"finished − started − duration − paused = **{total_error / 1e6:.3f} ms** (this includes the "
            f"wake-up lateness at the deadline); the largest difference between an event's `remaining_s` "
            f"and duration − running time from the events' own timestamps: {worst_remaining_error / 1e6:.6f} ms.\n")

    # -------------------------------------------------------------------- stop latency

    def stop_latency(self):
        samples, hwms, problems = [], [], []
        args = ["0.5", "-D", "null"]
        self.egg_args_note(args, True)
        for run in range(self.s.stop_runs):
            popen, events, term = spawn_eggtimer(self.binary, self.sound, args, tty=True)
            try:
                sounding = events.wait("sounding", 15)
                if not sounding:
                    problems.append(f"stop run {run + 1}: no sounding event")
                    continue
                time.sleep(0.2 + 0.037 * run)
                hwms.append(snapshot(popen.pid)["memory"].get("hwm_kb"))
                index = events.count()
                t_key = term.write_key(b"x")
                acknowledged = events.wait("acknowledged", 10, after=index)
                rc, err = finish_process(popen, 10)
                if not acknowledged or "audio_stopped_t_mono_ns" not in acknowledged:
                    problems.append(f"stop run {run + 1}: no acknowledged event with audio_stopped_t_mono_ns (rc {rc})")
                    continue
                if acknowledged.get("by") != "key":
                    problems.append(f"stop run {run + 1}: acknowledged by {acknowledged.get('by')}")
                samples.append({
                    "stop_ns": acknowledged["audio_stopped_t_mono_ns"] - t_key,
                    "key_to_event_ns": acknowledged["t_mono_ns"] - t_key,
                    "start_ns": sounding["t_mono_ns"] - sounding["deadline_t_mono_ns"],
                })
            finally:
                if popen.poll() is None:
                    popen.kill()
                    finish_process(popen, 5)
                term.close()
        self.problems += problems
        return samples, hwms

    # -------------------------------------------------------------------- MQTT (issue 15)

    def private_broker(self, config_name):
        """A private Mosquitto broker on a free 127.0.0.1 port (anonymous, no persistence; its config
        `config_name` in the output folder), once it accepts connections: (popen, port), tracked; the
        caller ends it. Raises HarnessError (the broker ended) when it does not accept within 10 s."""
        broker_bin = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = os.path.join(self.out, config_name)
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

    def mqtt_latency(self):
        """Deadline -> `ringing` state at a mosquitto_sub subscriber on loopback: a private broker on a free
        port, the subscriber's lines stamped on arrival (CLOCK_BOOTTIME) by a reader thread, each run's
        deadline from eggtimer's `sounding` event (deadline_t_mono_ns)."""
        broker_bin, sub_bin = shutil.which("mosquitto") or "/usr/sbin/mosquitto", shutil.which("mosquitto_sub")
        if not os.access(broker_bin, os.X_OK) or not sub_bin:
            self.problems.append("mosquitto or mosquitto_sub is missing (apt install mosquitto mosquitto-clients); "
                                 "the mqtt_* figures are n/a")
            return
        broker, port = self.private_broker("mosquitto.conf")
        sub = None
        try:
            sub_argv = [sub_bin, "-h", "127.0.0.1", "-p", str(port), "-v", "-t", "eggtimer/bench/+/state"]
            sub = track(subprocess.Popen(sub_argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, start_new_session=True))
            arrivals = []
            arrived = threading.Condition()

            def read():
                for line in sub.stdout:
                    stamp = now_ns()
                    with arrived:
                        arrivals.append((stamp, line.decode("utf-8", "replace")))
                        arrived.notify_all()
            threading.Thread(target=read, daemon=True).start()
            self.note_command(sub_argv, "# lines stamped on arrival")
            args = ["1", "-D", "null", "--loops", "1", "--mqtt", f"mqtt://127.0.0.1:{port}", "--node", "bench"]
            self.egg_args_note(args, False)
            samples = []
            for run in range(2 if self.s.quick else 7):
                popen, events, _ = spawn_eggtimer(self.binary, self.sound, args)
                sounding = events.wait("sounding", 15)
                rc, _ = finish_process(popen, 10)
                label = next((e.get("label") for e in events.all() if e.get("label")), None)
                with arrived:
                    found = arrived.wait_for(lambda: any(f"/{label}/state " in t and '"state":"ringing"' in t
                                                         for _, t in arrivals), timeout=5)
                    stamp = next((a for a, t in arrivals if f"/{label}/state " in t and '"state":"ringing"' in t), None)
                if not sounding or not found or rc != 0:
                    self.problems.append(f"mqtt run {run + 1}: no ringing state at the subscriber (rc {rc})")
                    continue
                samples.append((stamp - sounding["deadline_t_mono_ns"]) / 1e6)
            if samples:
                self.figures["mqtt_ringing_state_ms_median"] = statistics.median(samples)
                self.figures["mqtt_ringing_state_ms_max"] = max(samples)
                self.details.append("### Deadline to `ringing` state at an MQTT subscriber\n\n"
                                    f"A private Mosquitto broker on 127.0.0.1, `mosquitto_sub -v` on `eggtimer/bench/+/state` "
                                    f"with each line stamped on arrival; per run the arrival of the timer's `ringing` state "
                                    f"minus its `deadline_t_mono_ns`: {', '.join(f'{v:.3f}' for v in samples)} ms.\n")
        finally:
            for child in (sub, broker):
                if child is not None and child.poll() is None:
                    child.terminate()
                    finish_process(child, 5)

    # -------------------------------------------------------------------- memory peers

    def mpg123_ringing_hwm(self):
        if not self.tools.get("mpg123"):
            return None
        argv = ["mpg123", "-q", "--loop", "-1", "-o", "alsa", "-a", "null", self.sound]
        self.note_command(argv, "# VmHWM after 0.5 s, then killed")
        popen = track(subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(0.5)
        hwm = snapshot(popen.pid)["memory"].get("hwm_kb")
        popen.kill()
        finish_process(popen, 5)
        return hwm

    # -------------------------------------------------------------------- start-up

    def startup(self):
        def timed(argv):
            devnull = [(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
                       (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
            start = time.perf_counter_ns()
            environment = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(private_folder(), "run"),
                               XDG_STATE_HOME=os.path.join(private_folder(), "state"))
            pid = os.posix_spawn(argv[0], argv, environment, file_actions=devnull)
            _, status = os.waitpid(pid, 0)
            elapsed = time.perf_counter_ns() - start
            if status != 0:
                raise HarnessError(f"{argv} exited with wait status {status}")
            return elapsed

        commands = {"eggtimer": [self.binary, "--version"], "true": ["/bin/true"]}
        if self.tools.get("mpg123"):
            commands["mpg123"] = [self.tools["mpg123"], "--version"]
        for argv in commands.values():
            self.note_command(argv, f"# x{self.s.startup_runs}, interleaved, median wall time")
            timed(argv)  # warm the page cache
        times = {name: [] for name in commands}
        for _ in range(self.s.startup_runs):
            for name, argv in commands.items():
                times[name].append(timed(argv))
        medians = {name: median(values) for name, values in times.items()}
        self.figures["startup_ms_eggtimer"] = medians["eggtimer"] / 1e6
        if "mpg123" in medians:
            self.figures["startup_ms_mpg123"] = medians["mpg123"] / 1e6
            self.figures["startup_ratio_vs_mpg123"] = medians["eggtimer"] / medians["mpg123"]
            net_egg = medians["eggtimer"] - medians["true"]
            net_mpg = medians["mpg123"] - medians["true"]
            self.figures["startup_ratio_vs_mpg123_net"] = net_egg / net_mpg if net_mpg > 0 else None
        self.details.append(
            "### Start-up\n\n"
            f"{self.s.startup_runs} interleaved runs each (posix_spawn + waitpid, output to /dev/null), medians: "
            + ", ".join(f"`{' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))}` "
                        f"{medians[name] / 1e6:.3f} ms" for name, argv in commands.items())
            + ". The `net` ratio subtracts /bin/true (process creation, exec, exit).\n")

    # -------------------------------------------------------------------- gapless

    def capture_eggtimer(self, loops, path):
        if os.path.exists(path):
            os.remove(path)
        args = ["0.01", "-D", f"file:'{path}',raw", "--loops", str(loops)]
        argv = [self.binary] + args + ["--json", "--sound", self.sound]
        self.note_command(argv, "</dev/null")
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=120)
        if result.returncode != 0 or not os.path.exists(path):
            raise HarnessError(f"eggtimer capture ({loops} loops) failed: rc {result.returncode}, "
                               f"{result.stderr.decode('utf-8', 'replace').strip()[:300]}")
        with open(path, "rb") as f:
            return f.read()

    def prepare_sound(self):
        """eggtimer's own capture of one pass: the decoded sound (S16LE, 2 ch, 44.1 kHz here)."""
        self.unit_raw = self.capture_eggtimer(1, os.path.join(self.out, "egg-1.raw"))
        self.rate, self.channels = 44100, 2
        if self.tools.get("mpg123"):
            info = subprocess.run(["mpg123", "-q", "-s", self.sound], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
            self.mpg123_decode_matches = info.stdout == self.unit_raw
        else:
            self.mpg123_decode_matches = None
        self.frame_bytes = 2 * self.channels
        self.sound_seconds = len(self.unit_raw) / self.frame_bytes / self.rate
        self.wav_1 = os.path.join(self.out, "sound-1.wav")
        self.write_wav(self.wav_1, 1)

    def write_wav(self, path, copies):
        with wave.open(path, "wb") as w:
            w.setnchannels(self.channels)
            w.setsampwidth(2)
            w.setframerate(self.rate)
            for _ in range(copies):
                w.writeframesraw(self.unit_raw)

    def gaps(self, captured, copies):
        """Frames of gap or padding between and after `copies` copies of the unit in `captured`."""
        unit = self.unit_raw
        fb = self.frame_bytes
        nonzero = next((i for i, b in enumerate(unit) if b), 0) // fb * fb
        probe = unit[nonzero:nonzero + 16384]
        pos = 0
        gap_bytes = 0
        mismatched = 0
        junctions = []
        for copy in range(copies):
            found = captured.find(probe, pos + nonzero)
            if found < 0:
                return {"gap_frames": None, "error": f"copy {copy + 1} of {copies} not found",
                        "captured_frames": len(captured) // fb}
            start = found - nonzero
            gap = start - pos
            junctions.append(gap // fb)
            gap_bytes += gap
            segment = captured[start:start + len(unit)]
            if segment != unit:
                mismatched += 1
            pos = start + len(unit)
        trailing = len(captured) - pos
        return {"gap_frames": (gap_bytes + trailing) // fb, "junction_frames": junctions,
                "trailing_frames": trailing // fb, "mismatched_copies": mismatched,
                "captured_frames": len(captured) // fb, "expected_frames": copies * len(unit) // fb}

    def gapless(self):
        n = self.s.gap_loops
        results = {}
        egg = self.capture_eggtimer(n, os.path.join(self.out, f"egg-{n}.raw"))
        results["eggtimer"] = self.gaps(egg, n)
        results["eggtimer"]["identical"] = egg == self.unit_raw * n
        peers = {}
        if self.tools.get("aplay"):
            peers["aplay"] = ["aplay", "-q", "-D", "file:'{out}',raw"] + [self.wav_1] * n
        if self.tools.get("sox"):
            peers["sox"] = ["sox", "-q", self.wav_1, "-t", "alsa", "file:'{out}',raw", "repeat", str(n - 1)]
        if self.tools.get("mpg123"):
            peers["mpg123"] = ["mpg123", "-q", "--loop", str(n), "-o", "alsa", "-a", "file:'{out}',raw", self.sound]
        for name, template in peers.items():
            path = os.path.join(self.out, f"{name}-{n}.raw")
            if os.path.exists(path):
                os.remove(path)
            argv = [a.replace("{out}", path) for a in template]
            if name == "aplay":
                self.note_command(argv[:4] + [self.wav_1], f"# ... the WAV {n} times")
            else:
                self.note_command(argv)
            result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, timeout=120)
            if result.returncode != 0 or not os.path.exists(path):
                results[name] = {"gap_frames": None, "error": f"rc {result.returncode}: "
                                 + result.stderr.decode("utf-8", "replace").strip()[:200]}
                continue
            with open(path, "rb") as f:
                captured = f.read()
            results[name] = self.gaps(captured, n)
            results[name]["identical"] = captured == self.unit_raw * n
            os.remove(path)
        for name in ["eggtimer", "aplay", "sox", "mpg123"]:
            if name in results:
                self.figures[f"gap_samples_{name}"] = results[name].get("gap_frames")
            else:
                self.figures[f"gap_samples_{name}"] = "missing"
        lines = ["### Gapless looping\n",
                 f"{n} passes captured through `file:'PATH',raw` and compared with {n} copies of eggtimer's own "
                 f"capture of one pass ({len(self.unit_raw) // self.frame_bytes} frames = {self.sound_seconds:.4f} s; "
                 + ("byte-identical to `mpg123 -s`" if self.mpg123_decode_matches else
                    "NOT identical to `mpg123 -s`" if self.mpg123_decode_matches is False else "mpg123 missing")
                 + "). aplay and sox play that capture as a WAV. Gap = frames inserted before each copy plus "
                   "frames after the last one (a frame = one sample per channel).\n",
                 "| player | captured frames | expected | gap + padding frames | per junction | trailing | byte-identical |",
                 "|---|---|---|---|---|---|---|"]
        for name, r in results.items():
            if r.get("gap_frames") is None:
                lines.append(f"| {name} | {r.get('captured_frames', 'n/a')} | | n/a ({r.get('error')}) | | | |")
                continue
            junctions = r["junction_frames"]
            shown = ", ".join(str(j) for j in junctions[:6]) + (" …" if len(junctions) > 6 else "")
            lines.append(f"| {name} | {r['captured_frames']} | {r['expected_frames']} | {r['gap_frames']} | "
                         f"{shown} | {r['trailing_frames']} | {'yes' if r['identical'] else 'no'} |")
        self.details.append("\n".join(lines) + "\n")

    # -------------------------------------------------------------------- ringing cost

    def callgrind(self, name, argv, loops, stdin_devnull=True):
        outfile = os.path.join(self.out, f"callgrind.{name}.{loops}")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={outfile}"] + argv
        self.note_command(command)
        result = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, timeout=600)
        if result.returncode != 0:
            raise HarnessError(f"callgrind {name} {loops}: rc {result.returncode}: "
                               + result.stderr.decode("utf-8", "replace").strip()[-300:])
        total = None
        with open(outfile) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    total = int(line.split()[1])
        if total is None:
            raise HarnessError(f"callgrind {name} {loops}: no total in {outfile}")
        return total, outfile

    def annotate(self, path, inclusive=False):
        """Self (or inclusive) cost per function from callgrind_annotate."""
        if not self.tools.get("callgrind_annotate"):
            return {}
        result = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--auto=no",
                                 "--threshold=100", path],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        costs = {}
        in_table = False
        for line in result.stdout.decode("utf-8", "replace").splitlines():
            if re.match(r"^\s*Ir\s+file:function", line):
                in_table = True
                continue
            if not in_table or line.startswith("---") or "=>" in line:
                continue
            match = re.match(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.+)$", line)
            if match:
                function = match.group(2).strip()
                function = re.sub(r"\s+\[([^\]]*)\]$", lambda m: " [" + os.path.basename(m.group(1)) + "]", function)
                costs[function] = costs.get(function, 0) + int(match.group(1).replace(",", ""))
        return costs

    def startup_instructions(self):
        """callgrind of `--version`: total user-space instructions and the dynamic loader's share."""
        if not self.tools.get("valgrind"):
            return
        rows = []
        programs = [("eggtimer", [self.binary, "--version"])]
        if self.tools.get("mpg123"):
            programs.append(("mpg123", [self.tools["mpg123"], "--version"]))
        for name, argv in programs:
            total, path = self.callgrind(f"version-{name}", argv, 1)
            costs = self.annotate(path)
            loader = sum(c for f, c in costs.items() if f.endswith("[ld-linux-x86-64.so.2]"))
            top = sorted(costs.items(), key=lambda kv: -kv[1])[:4]
            self.figures[f"startup_instr_{name}"] = total
            rows.append(f"| {name} | {total:,} | {loader:,} ({100 * loader / total:.0f}%) | "
                        + "; ".join(f"`{f[:90]}` {c:,}" for f, c in top).replace("|", "\\|") + " |")
        libraries = subprocess.run(["ldd", self.binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        linked = ", ".join(re.findall(r"^\s*(\S+\.so[.\d]*)", libraries.stdout.decode(), re.M))
        self.details.append(
            "### Start-up instructions (callgrind)\n\n"
            f"`--version`, user-space instructions; the dynamic loader's share is the self cost of functions in "
            f"ld-linux (relocations and symbol lookups). eggtimer loads: {linked}.\n\n"
            "| program | Ir | in the dynamic loader | largest self costs |\n|---|---|---|---|\n" + "\n".join(rows) + "\n")

    def ui_redraw_cost(self):
        """callgrind of eggtimer with the UI on a pty: two countdowns, the difference per second of UI."""
        if not self.tools.get("valgrind"):
            return
        short, long_ = (1, 3) if self.s.quick else (4, 14)
        results = {}

        def one(duration):
            term = Pty()
            out = os.path.join(self.out, f"callgrind.ui.{duration}")
            argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", self.binary, str(duration),
                    "-D", "null", "--loops", "1"] + unique_label() + ["--sound", self.sound]
            popen = track(subprocess.Popen(argv, stdin=term.slave, stdout=subprocess.DEVNULL, stderr=term.slave,
                                           env=child_env(), start_new_session=True, preexec_fn=take_terminal))
            term.close_slave()
            rc, _ = finish_process(popen, duration + 60)
            term.close()
            if rc == 0:
                with open(out) as f:
                    for line in f:
                        if line.startswith("totals:") or line.startswith("summary:"):
                            results[duration] = (int(line.split()[1]), out)
        self.note_command(["valgrind", "--tool=callgrind", self.binary, str(long_), "-D", "null", "--loops", "1",
                           "--sound", self.sound], f"# and {short} s; stdin/stderr a pty (80x24), stdout /dev/null")
        threads = [threading.Thread(target=one, args=(d,)) for d in (short, long_)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if len(results) != 2:
            self.problems.append("UI callgrind runs failed")
            return
        seconds = long_ - short
        per_second = (results[long_][0] - results[short][0]) / seconds
        self.figures["ui_instr_per_s"] = per_second
        a, b = self.annotate(results[short][1]), self.annotate(results[long_][1])
        delta = {f: b.get(f, 0) - a.get(f, 0) for f in set(a) | set(b)}
        top = sorted(delta.items(), key=lambda kv: -kv[1])[:10]
        lines = ["### UI redraw cost (callgrind)\n",
                 f"eggtimer with the UI on a pty under callgrind, {short} s and {long_} s countdowns: "
                 f"**{per_second:,.0f} user-space instructions per second of countdown** (the UI redraws every "
                 "500 ms, so about half that per redraw). Self cost per second of countdown "
                 f"({long_} s minus {short} s):\n",
                 "| Ir per second | share | function |", "|---|---|---|"]
        total = sum(delta.values()) or 1
        for function, cost in top:
            shown = (function if len(function) < 140 else function[:137] + "…").replace("|", "\\|")
            lines.append(f"| {cost / seconds:,.0f} | {100 * cost / total:.1f}% | `{shown}` |")
        inclusive = {}
        for label, path in (("a", results[short][1]), ("b", results[long_][1])):
            inclusive[label] = self.annotate(path, inclusive=True)
        def by_symbol(costs):
            # callgrind_annotate lists a function once per file path it was seen under: keep the largest
            grouped = {}
            for function, cost in costs.items():
                if "Sources/eggtimer/" not in function or "main.swift" in function or "App.swift" in function:
                    continue
                where, _, symbol = re.sub(r"\s+\[[^\]]*\]$", "", function).rpartition(":")
                key = (where.split("Sources/", 1)[-1], symbol)
                grouped[key] = max(grouped.get(key, 0), cost)
            return grouped

        a_mine, b_mine = by_symbol(inclusive["a"]), by_symbol(inclusive["b"])
        mine = {f"Sources/{k[0]}:{k[1]}": b_mine[k] - a_mine.get(k, 0) for k in b_mine}
        top_mine = sorted(mine.items(), key=lambda kv: -kv[1])[:6]
        if top_mine:
            lines += ["", "Inclusive cost of eggtimer's own functions per second of countdown:", "",
                      "| Ir per second | function |", "|---|---|"]
            for function, cost in top_mine:
                lines.append(f"| {cost / seconds:,.0f} | `{function[:150]}` |")
        self.details.append("\n".join(lines) + "\n")

    def ringing_cost(self):
        if not self.tools.get("valgrind"):
            for key in ["ringing_instr_ratio_vs_mpg123", "ringing_instr_ratio_vs_aplay"]:
                self.figures[key] = "missing"
            return
        small, large = self.s.cg_loops
        audio_seconds = (large - small) * self.sound_seconds
        jobs = []
        for loops in (small, large):
            jobs.append(("eggtimer", loops, [self.binary, "0.01", "--json", "-D", "null", "--loops", str(loops),
                                             "--sound", self.sound] + unique_label()))
            if self.tools.get("mpg123"):
                jobs.append(("mpg123", loops, ["mpg123", "-q", "--loop", str(loops), "-o", "alsa", "-a", "null",
                                               self.sound]))
            if self.tools.get("aplay"):
                wav = os.path.join(self.out, f"sound-{loops}.wav")
                self.write_wav(wav, loops)
                jobs.append(("aplay", loops, ["aplay", "-q", "-D", "null", wav]))
        results = {}
        errors = []

        def worker(queue):
            while queue:
                try:
                    name, loops, argv = queue.pop()
                except IndexError:
                    return
                try:
                    results[(name, loops)] = self.callgrind(name, argv, loops)
                except Exception as error:
                    errors.append(str(error))

        queue = list(jobs)
        threads = [threading.Thread(target=worker, args=(queue,)) for _ in range(2)]  # 2 cores
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for loops in (small, large):
            path = os.path.join(self.out, f"sound-{loops}.wav")
            if os.path.exists(path):
                os.remove(path)
        if errors:
            self.problems += errors
        per_second = {}
        for name in ("eggtimer", "mpg123", "aplay"):
            if (name, small) in results and (name, large) in results:
                delta = results[(name, large)][0] - results[(name, small)][0]
                per_second[name] = delta / audio_seconds
                self.figures[f"ringing_instr_per_audio_s_{name}"] = per_second[name]
        egg = per_second.get("eggtimer")
        self.figures["ringing_instr_ratio_vs_mpg123"] = (
            egg / per_second["mpg123"] if egg is not None and "mpg123" in per_second else "missing")
        self.figures["ringing_instr_ratio_vs_aplay"] = (
            egg / per_second["aplay"] if egg is not None and "aplay" in per_second else "missing")

        lines = ["### Ringing cost (callgrind)\n",
                 f"User-space instructions (callgrind `Ir`, all threads) for {small} and {large} passes of the "
                 f"{self.sound_seconds:.3f} s sound to the `null` PCM; the difference covers {audio_seconds:.1f} s of "
                 "alarm audio, so start-up and decoding the file once cancel out. aplay plays the decoded sound "
                 "as a WAV of the same length (the floor: no decoding, no looping logic).\n",
                 f"| program | Ir, {small} passes | Ir, {large} passes | Ir per second of audio |", "|---|---|---|---|"]
        for name in ("eggtimer", "mpg123", "aplay"):
            if (name, small) in results and (name, large) in results:
                lines.append(f"| {name} | {results[(name, small)][0]:,} | {results[(name, large)][0]:,} | "
                             f"{per_second[name]:,.0f} |")
            else:
                lines.append(f"| {name} | missing | | |")
        for name in ("eggtimer", "mpg123"):
            if (name, small) in results and (name, large) in results:
                a = self.annotate(results[(name, small)][1])
                b = self.annotate(results[(name, large)][1])
                if not b:
                    continue
                delta = {f: b.get(f, 0) - a.get(f, 0) for f in set(a) | set(b)}
                total = sum(delta.values()) or 1
                top = sorted(delta.items(), key=lambda kv: -kv[1])[:8]
                lines.append(f"\nWhere {name}'s per-second instructions go (callgrind_annotate self cost, "
                             f"{large} passes minus {small}):\n")
                lines.append("| Ir per audio second | share | function |")
                lines.append("|---|---|---|")
                for function, cost in top:
                    shown = function if len(function) < 140 else function[:137] + "…"
                    shown = shown.replace("|", "\\|")
                    lines.append(f"| {cost / audio_seconds:,.0f} | {100 * cost / total:.1f}% | `{shown}` |")
        self.details.append("\n".join(lines) + "\n")

    # -------------------------------------------------------------------- heard: a real sound server

    def heard(self):
        """Through a private PulseAudio server: heard onset, stop as heard, ringing cost, underruns under
        load and memory, eggtimer side by side with aplay -D pulse and mpg123 -o pulse."""
        missing = [tool for tool in ("pulseaudio", "pactl", "parec") if not shutil.which(tool)]
        if not glob.glob("/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so") + glob.glob(
                "/usr/lib/alsa-lib/libasound_module_pcm_pulse.so"):
            missing.append("ALSA's pulse plugin (libasound2-plugins)")
        if missing:
            self.problems.append("heard figures n/a: missing " + ", ".join(missing)
                                 + " (make bench installs pulseaudio pulseaudio-utils libasound2-plugins)")
            return
        server = PulseServer()
        monitor = None
        try:
            server.start()
            self.note_command(PulseServer.ARGV, "&  # HOME, XDG_RUNTIME_DIR, PULSE_RUNTIME_PATH in a private 0700 folder")
            monitor = Monitor(server)
            self.note_command(Monitor.ARGV, "# read in ~10 ms chunks, each stamped with CLOCK_BOOTTIME")
            self.heard_wav = os.path.join(self.out, "sound-heard.wav")
            self.write_wav(self.heard_wav, max(4, int((self.s.heard_cost_s + 6) / self.sound_seconds) + 1))
            log("heard: onset")
            self.heard_onset(server, monitor)
            log("heard: stop")
            self.heard_stop(server, monitor)
            log(f"heard: ringing cost and memory ({self.s.heard_cost_s} s)")
            self.heard_cost(server, monitor)
            log(f"heard: underruns ringing {self.s.heard_busy_s} s with both cores busy")
            self.heard_busy(server, monitor)
        except Exception as error:  # reported; the other figures stand
            self.problems.append(f"heard phase: {type(error).__name__}: {error}")
            traceback.print_exc()
        finally:
            if monitor is not None:
                monitor.stop()
            server.stop()
            server.remove()

    def spawn_heard(self, server, name, argv, json_events=False):
        """A child of the private server (its own HOME, XDG_RUNTIME_DIR, PULSE_SERVER); stdin /dev/null."""
        popen = track(subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE if json_events else subprocess.DEVNULL,
                                       stderr=subprocess.PIPE if json_events else subprocess.DEVNULL,
                                       env=server.env(name), start_new_session=True))
        return popen, (Events(popen.stdout) if json_events else None)

    def heard_players(self, ringing):
        """(name, argv, stop signal) of eggtimer and the peers on the pulse device."""
        egg = [self.binary, "0.5" if ringing else "2", "-D", "pulse"] + ([] if ringing else ["--loops", "1"])
        players = [("eggtimer", egg + ["--json", "--sound", self.sound], signal.SIGUSR1)]
        if self.tools.get("aplay"):
            players.append(("aplay", ["aplay", "-q", "-D", "pulse", self.heard_wav if ringing else self.wav_1],
                            signal.SIGTERM))
        if self.tools.get("mpg123"):
            players.append(("mpg123", ["mpg123", "-q", "-o", "pulse"] + (["--loop", "-1"] if ringing else [])
                            + [self.sound], signal.SIGTERM))
        for name, argv, _ in players:
            self.note_command(argv, "# PULSE_SERVER=the private server" + (" (the WAV: the decoded sound repeated)" if name == "aplay" else ""))
        return players

    def heard_onset(self, server, monitor):
        onsets = {}
        early = []
        players = self.heard_players(ringing=False)
        # The same timer with a spoken line at the head of its ring (issue 28): its onset is the
        # line's first sound.
        players.append(("eggtimer_say", players[0][1] + ["--say", "Pasta is ready"], signal.SIGUSR1))
        for run in range(self.s.heard_onset_runs):
            for name, argv, _ in players:
                launch_at = now_ns() + 200_000_000
                if name != "eggtimer":   # a peer is launched at its deadline
                    while now_ns() < launch_at - 2_000_000:
                        time.sleep(0.001)
                    while now_ns() < launch_at:
                        pass
                launched = now_ns()
                popen, events = self.spawn_heard(server, name, argv, json_events=name.startswith("eggtimer"))
                deadline = launched
                if events is not None:
                    sounding = events.wait("sounding", 20)
                    if sounding:
                        deadline = int(sounding["deadline_t_mono_ns"])
                rc, err = finish_process(popen, 30)
                if rc != 0 or (events is not None and not sounding):
                    self.problems.append(f"heard onset run {run + 1}, {name}: exit {rc} {err.strip()[:200]!r}")
                    continue
                monitor.wait_past(now_ns() + 60_000_000)
                loud = monitor.loud_stamps(launched)
                if not loud:
                    self.problems.append(f"heard onset run {run + 1}, {name}: nothing heard")
                    continue
                onsets.setdefault(name, []).append((loud[0] - deadline) / 1e6)
                if name == "eggtimer":
                    early.append(len([t for t in loud if t < deadline]))
        f = self.figures
        for name in ("eggtimer", "eggtimer_say", "aplay", "mpg123"):
            values = onsets.get(name)
            f[f"heard_onset_ms_median_{name}"] = median(values) if values else "missing"
            f[f"heard_onset_ms_max_{name}"] = max(values) if values else "missing"
        egg = onsets.get("eggtimer")
        # ahead of both peers: the faster peer's median onset minus eggtimer's (single runs differ by
        # whole ~10 ms chunks, so run against run is below the monitor's resolution)
        peers = [median(vs) for n, vs in onsets.items() if not n.startswith("eggtimer") and vs]
        f["heard_onset_lead_ms_vs_peers"] = (min(peers) - median(egg)) if egg and peers else "missing"
        f["heard_loud_chunks_before_deadline"] = sum(early) if early else None
        self.details.append(
            "### Heard onset (PulseAudio null sink, its monitor recorded)\n\n"
            "A private PulseAudio server with a null sink at the sound's rate (100 % volume, rewinds off), its "
            "monitor recorded by `parec --latency-msec=10` and read in ~10 ms chunks, each stamped with "
            "CLOCK_BOOTTIME on arrival; a chunk is loud when any sample is not zero. Onset = the first loud "
            "chunk's stamp − the deadline: eggtimer's own (`sounding.deadline_t_mono_ns` of `eggtimer 2 -D pulse "
            "--loops 1`; it opens the device 1.5 s before), and for the peers the instant they are launched, "
            "which is their deadline (`aplay -D pulse` the decoded sound as a WAV, `mpg123 -o pulse` the MP3). "
            f"{self.s.heard_onset_runs} runs each, interleaved, on the same server. The monitor delivers a chunk "
            "about every 10 ms (the null sink renders in blocks of that order), so onsets are quantized to "
            "~10 ms: a difference smaller than one chunk is not resolved. `heard_onset_lead_ms_vs_peers` = the "
            "faster peer's median onset − eggtimer's median. Loud chunks that arrived "
            f"before eggtimer's deadline (the early open must not click): {sum(early) if early else 'n/a'}.\n\n"
            "| player | onset ms (each run) | median | max |\n|---|---|---|---|\n"
            + "\n".join(f"| {name} | {', '.join(fmt(v) for v in onsets.get(name, []))} | "
                        f"{fmt(median(onsets[name])) if onsets.get(name) else 'n/a'} | "
                        f"{fmt(max(onsets[name])) if onsets.get(name) else 'n/a'} |"
                        for name in ("eggtimer", "eggtimer_say", "aplay", "mpg123")) + "\n"
            + "\n`eggtimer_say` is the same timer with `--say \"Pasta is ready\"`: its onset is the spoken "
            "line's first sound (the line's leading silence is trimmed).\n")

    def heard_stop(self, server, monitor):
        stops = {}
        rows = []
        for run in range(self.s.heard_stop_runs):
            for name, argv, stop_signal in self.heard_players(ringing=True):
                if self.s.quick and name != "eggtimer":
                    continue
                launched = now_ns()
                popen, events = self.spawn_heard(server, name, argv, json_events=name.startswith("eggtimer"))
                try:
                    if not monitor.wait(lambda: monitor.loud_stamps(launched), 20):
                        self.problems.append(f"heard stop run {run + 1}, {name}: nothing heard")
                        continue
                    first = monitor.loud_stamps(launched)[0]
                    # a beep group that begins after 0.5 s of sound: unstopped, it sounds ~250 ms
                    begun = lambda: [t for t in monitor.group_starts if t > first + 500_000_000]
                    if not monitor.wait(begun, 10):
                        self.problems.append(f"heard stop run {run + 1}, {name}: no beep group began")
                        continue
                    signalled = now_ns()
                    popen.send_signal(stop_signal)
                    group = begun()[0]
                    rc, err = finish_process(popen, 10)
                    monitor.wait_past(now_ns() + 600_000_000)
                    last = monitor.loud_stamps(launched)[-1]
                    quiet = monitor.chunks[-1][0] - last
                    stops.setdefault(name, []).append((last - signalled) / 1e6)
                    rows.append(f"| {name} | {run + 1} | {(signalled - group) / 1e6:.3f} | "
                                f"{(last - signalled) / 1e6:.3f} | {quiet / 1e6:.0f} | {rc} |")
                    if name == "eggtimer" and (rc != 0 or not events.first("acknowledged")):
                        self.problems.append(f"heard stop run {run + 1}: eggtimer exit {rc}, no acknowledged event")
                finally:
                    if popen.poll() is None:
                        popen.kill()
                        finish_process(popen, 5)
        f = self.figures
        for name in ("eggtimer", "aplay", "mpg123"):
            values = stops.get(name)
            if values:
                f[f"heard_stop_ms_median_{name}"] = median(values)
                f[f"heard_stop_ms_max_{name}"] = max(values)
            elif name == "eggtimer" or not self.s.quick:
                f[f"heard_stop_ms_max_{name}"] = "missing"
        self.details.append(
            "### Stop as heard\n\n"
            "Each player rings (`eggtimer 0.5 -D pulse`; `aplay -D pulse` of the sound repeated; `mpg123 -o pulse "
            "--loop -1`); the harness waits until a beep group begins (a loud chunk after ≥ 200 ms of silence, "
            "0.5 s or more after the first sound) and at once sends the stop: SIGUSR1 to eggtimer (acknowledge), "
            "SIGTERM to the peers. Unstopped, the group would sound ~250 ms on; the sound's longest pause is "
            "247 ms, so the recording is followed for 600 ms after the signal and the stop is the last loud "
            "chunk's stamp − the signal's. "
            + ("Quick mode: eggtimer only. " if self.s.quick else "")
            + "\n\n| player | run | group start → signal ms | stop heard ms | silence after, ms | exit |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")

    def heard_cost(self, server, monitor):
        players = self.heard_players(ringing=True)
        running = {}
        try:
            for name, argv, stop_signal in players:
                popen, events = self.spawn_heard(server, name, argv, json_events=name.startswith("eggtimer"))
                running[name] = (popen, events, stop_signal)
            egg = running["eggtimer"]
            if not egg[1].wait("sounding", 20):
                raise HarnessError("heard cost: eggtimer printed no sounding event")
            time.sleep(1.5)   # every stream set up and heard (the peers take ~0.9 s)
            before = {name: snapshot(p.pid) for name, (p, _, _) in running.items()}
            time.sleep(self.s.heard_cost_s)
            after = {name: snapshot(p.pid) for name, (p, _, _) in running.items()}
            smaps = {name: read_smaps(p.pid) for name, (p, _, _) in running.items()}
            self.program_sections = resident_by_section(running["eggtimer"][0].pid, self.binary)
            alive = {name: p.poll() is None for name, (p, _, _) in running.items()}
        finally:
            for name, (popen, _, stop_signal) in running.items():
                if popen.poll() is None:
                    popen.send_signal(stop_signal)
                finish_process(popen, 10)
        f = self.figures
        lines = ["### Ringing through the server: CPU, wakeups, memory\n",
                 f"The three players ring at once on the same server (eggtimer `0.5 -D pulse`, aplay of the sound "
                 f"repeated, `mpg123 --loop -1`); after 1.5 s of sound, /proc/PID/task/*/{{sched,status}} over "
                 f"{self.s.heard_cost_s} s: CPU (`se.sum_exec_runtime`) and wakeups (voluntary context switches), "
                 "summed over threads. VmHWM (peak RSS) read at the end of the window.\n",
                 "| player | threads | CPU % of a core | wakeups/s | involuntary/s | VmHWM kB | per thread (wakeups/s, CPU %) |",
                 "|---|---|---|---|---|---|---|"]
        for name in ("eggtimer", "aplay", "mpg123"):
            if name not in before:
                continue
            if not alive[name]:
                self.problems.append(f"heard cost: {name} ended inside the window")
                continue
            cost = window_cost(before[name], after[name])
            seconds = cost["seconds"]
            cpu_pct = 100 * cost["cpu_ns"] / 1e9 / seconds
            wakeups = cost["vol"] / seconds
            hwm = after[name]["memory"].get("hwm_kb")
            f[f"heard_ringing_cpu_pct_{name}"] = cpu_pct
            f[f"heard_ringing_wakeups_per_s_{name}"] = wakeups
            f[f"heard_peak_rss_mb_{name}"] = hwm / 1024 if hwm else None
            breakdown = "; ".join(f"{t['name']}: {t['vol'] / seconds:.1f}, {100 * t['cpu_ns'] / 1e9 / seconds:.3f}"
                                  for t in cost["threads"])
            lines.append(f"| {name} | {len(cost['threads'])} | {cpu_pct:.3f} | {wakeups:.1f} | "
                         f"{cost['invol'] / seconds:.1f} | {hwm} | {breakdown} |")
        if isinstance(f.get("heard_peak_rss_mb_eggtimer"), float) and isinstance(f.get("heard_peak_rss_mb_mpg123"), float):
            f["heard_peak_rss_ratio_vs_mpg123"] = f["heard_peak_rss_mb_eggtimer"] / f["heard_peak_rss_mb_mpg123"]
        elif "mpg123" not in running:
            f["heard_peak_rss_ratio_vs_mpg123"] = "missing"
        self.details.append("\n".join(lines) + "\n")
        self.details.append(self.memory_breakdown(smaps))

    def heard_busy(self, server, monitor):
        hogs = [track(subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True))
                for _ in range(2)]
        window = self.s.heard_busy_s
        name, argv, _ = self.heard_players(ringing=True)[0]
        launched = now_ns()
        popen, events = self.spawn_heard(server, name, argv, json_events=True)
        try:
            sounding = events.wait("sounding", 20)
            if not sounding:
                raise HarnessError("heard busy: eggtimer printed no sounding event")
            deadline = int(sounding["deadline_t_mono_ns"])
            monitor.wait_past(deadline + 1_000_000_000)
            before = server.underruns()
            monitor.wait_past(deadline + (1 + window) * 1_000_000_000, timeout=window + 30)
            underruns = server.underruns() - before
            hwm = snapshot(popen.pid)["memory"].get("hwm_kb")
            popen.send_signal(signal.SIGUSR1)
            rc, _ = finish_process(popen, 10)
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
                untrack(hog)
            if popen.poll() is None:
                popen.kill()
                finish_process(popen, 5)
        # the recording against the looped sound, from the first pass's start for 1 + window seconds
        unit = self.unit_raw
        lead = next((i for i, b in enumerate(unit) if b), 0) // FRAME_BYTES * FRAME_BYTES
        onset = monitor.first_loud_byte(launched)
        mismatched, compared = None, 0
        if onset is not None and onset >= lead:
            start = onset - lead
            length = (1 + window) * PULSE_RATE * FRAME_BYTES
            with monitor.cond:
                heard = bytes(monitor.data[start:start + length])
            compared = len(heard) // FRAME_BYTES
            expected = (unit * (len(heard) // len(unit) + 1))[:len(heard)]
            mismatched = 0
            if heard != expected:
                a, b = memoryview(heard).cast("I"), memoryview(expected).cast("I")
                for pass_start in range(0, compared, len(unit) // FRAME_BYTES):
                    end = min(compared, pass_start + len(unit) // FRAME_BYTES)
                    if a[pass_start:end] != b[pass_start:end]:
                        mismatched += sum(1 for i in range(pass_start, end) if a[i] != b[i])
        self.figures["heard_underruns_ringing_busy"] = underruns
        self.figures["heard_mismatched_frames_ringing_busy"] = mismatched
        if hwm:
            self.figures["heard_peak_rss_mb_eggtimer_busy"] = hwm / 1024
        self.details.append(
            "### Underruns ringing with both cores busy\n\n"
            f"`eggtimer 0.5 -D pulse` rings {window} s (from 1 s after its deadline) while two busy loops "
            "hold both cores. Underruns = lines `end of underrun` the server's debug log gained in the window "
            f"(as the HeardTests count them): **{underruns}**; exit {rc} after SIGUSR1. The monitor's recording "
            f"from the first pass's start ({compared} frames) against the sound looped: {mismatched} frames "
            "differ (a recording gap on parec's side would count here too).\n")

    def memory_breakdown(self, smaps):
        """Where the resident pages of a ringing eggtimer go, next to mpg123's (and aplay's)."""
        sound_bytes = len(self.unit_raw)
        names = [n for n in ("eggtimer", "mpg123", "aplay") if smaps.get(n)]
        if "eggtimer" not in names:
            return ""
        tables = {n: memory_by_category(smaps[n], sound_bytes) for n in names}
        header = "| where | " + " | ".join(f"{n} Rss kB | {n} private dirty kB" for n in names) + " |"
        lines = ["### Memory: where a ringing eggtimer's pages go\n",
                 "/proc/PID/smaps at the end of the ringing window above, Rss and Private_Dirty per kind of "
                 "mapping (kB). Program = the executable's own mappings (eggtimer links the Swift runtime, "
                 "the standard library and libstdc++ statically, so their code and data are counted here). "
                 "Thread stacks = anonymous mappings just above a PROT_NONE guard; thread arenas = anonymous "
                 "mappings just below their reserve. The decoded sound is "
                 f"{len(self.unit_raw) // FRAME_BYTES} frames × 2 channels × 2 bytes = {sound_bytes} bytes "
                 f"({sound_bytes / 1024:.0f} kB).\n",
                 header, "|---|" + "---|---|" * len(names)]
        for category in MEMORY_CATEGORIES:
            if not any(category in tables[n] for n in names):
                continue
            cells = []
            for n in names:
                entry = tables[n].get(category)
                cells.append(f"{entry['rss']} | {entry['dirty']}" if entry else "— | —")
            lines.append(f"| {category} | " + " | ".join(cells) + " |")
        lines.append("| **total (VmRSS; VmHWM)** | " + " | ".join(
            f"**{sum(e['rss'] for e in tables[n].values())}** ({smaps[n]['rss_kb']}; {smaps[n]['hwm_kb']}) | "
            f"{sum(e['dirty'] for e in tables[n].values())}" for n in names) + " |")
        lines.append("| threads | " + " | ".join(f"{smaps[n]['threads']} | " for n in names) + " |")
        egg = tables["eggtimer"]
        others = [os.path.basename(m["path"]) for m in smaps["eggtimer"]["maps"]
                  if ".so" in m["path"] and memory_category(smaps["eggtimer"]["maps"], smaps["eggtimer"]["maps"].index(m),
                                                            smaps["eggtimer"]["exe"], sound_bytes) == "other shared libraries"]
        lines.append("\neggtimer's other shared libraries (loaded by libasound's pulse plugin and libpulse): "
                     + (", ".join(sorted(set(others))) or "none") + ".\n")
        lines += self.program_section_lines()
        lines += self.memory_analysis(tables, smaps)
        return "\n".join(lines) + "\n"

    SECTION_GROUPS = [
        ("machine code (.text, .plt, .init, .fini)", (".text", ".plt", ".init", ".fini")),
        ("Swift metadata (swift5_*, .swift_modhash)", ("swift5_", ".swift_modhash")),
        ("unwind tables (.eh_frame, .eh_frame_hdr, .gcc_except_table)", (".eh_frame", ".gcc_except_table")),
        ("dynamic linking: relocations, symbols (.rela.*, .dynsym, .dynstr, .gnu.*)",
         (".rela.", ".dynsym", ".dynstr", ".gnu.")),
        ("RELRO: relocated pointers (.data.rel.ro*, .got*, .dynamic, init/fini arrays)",
         (".data.rel.ro", ".got", ".dynamic", ".init_array", ".fini_array")),
        (".rodata (writable in this binary: it holds relocated pointers)", (".rodata",)),
        (".data, .bss", (".data", ".bss", ".tbss", ".tm_clone_table")),
    ]

    def section_group(self, name):
        for group, prefixes in self.SECTION_GROUPS:
            if any(name == p or name.startswith(p) for p in prefixes):
                return group
        return "other (notes, .interp, between sections)"

    def program_section_lines(self):
        info = getattr(self, "program_sections", None)
        if not info:
            return ["\n(Resident pages per ELF section: n/a; /proc/PID/pagemap and readelf are needed.)\n"]
        sizes, resident = {}, {}
        for name, size in info["sections"].items():
            group = self.section_group(name)
            sizes[group] = sizes.get(group, 0) + size / 1024
        for name, kb in info["resident_kb"].items():
            group = self.section_group(name)
            resident[group] = resident.get(group, 0) + kb
        self.section_resident = resident
        relocations = info["sections"].get(".rela.dyn", 0) // 24
        self.relocation_count = relocations
        rows = ["\nThe program's own resident pages per ELF section (/proc/PID/pagemap's present bit over the "
                "executable's mappings and the .bss after them; a page goes to the section covering most of it). "
                f"The PIE carries {relocations:,} dynamic relocations (`.rela.dyn`), applied by ld.so at start-up: "
                "every page they write becomes a private dirty copy, and the table itself is read once.\n",
                "| section group | size kB | resident kB |", "|---|---|---|"]
        for group in [g for g, _ in self.SECTION_GROUPS] + ["other (notes, .interp, between sections)"]:
            if group in sizes or group in resident:
                rows.append(f"| {group} | {sizes.get(group, 0):.0f} | {resident.get(group, 0)} |")
        rows.append(f"| **total** | {sum(sizes.values()):.0f} | **{sum(resident.values())}** |")
        return rows

    def memory_analysis(self, tables, smaps):
        if "mpg123" not in tables:
            return []
        egg, mpg = tables["eggtimer"], tables["mpg123"]
        hwm_e, hwm_m = smaps["eggtimer"]["hwm_kb"], smaps["mpg123"]["hwm_kb"]

        def rss(table, prefix):
            return sum(e["rss"] for c, e in table.items() if c.startswith(prefix))

        def dirty(table, prefix):
            return sum(e["dirty"] for c, e in table.items() if c.startswith(prefix))

        program_e, program_m = rss(egg, "program"), rss(mpg, "program")
        code_e = egg.get("program: code (r-x)", {}).get("rss", 0)
        shared_e = sum(rss(egg, p) for p in ("ALSA", "PulseAudio", "libmpg123", "libc", "other shared"))
        shared_m = sum(rss(mpg, p) for p in ("ALSA", "PulseAudio", "libmpg123", "libc", "other shared"))
        anon_e = sum(e["rss"] for c, e in egg.items() if c.startswith(("malloc", "thread", "main stack", "other anon")))
        anon_m = sum(e["rss"] for c, e in mpg.items() if c.startswith(("malloc", "thread", "main stack", "other anon")))
        goal = 2 * hwm_m
        verdict = (f"within the 2× goal by {(goal - hwm_e) / 1024:.2f} MB" if hwm_e <= goal
                   else f"over the 2× goal by {(hwm_e - goal) / 1024:.2f} MB")
        resident = getattr(self, "section_resident", {})
        code_group = resident.get(self.SECTION_GROUPS[0][0], 0)
        unwind = resident.get(self.SECTION_GROUPS[2][0], 0)
        linking = resident.get(self.SECTION_GROUPS[3][0], 0)
        return [
            "",
            f"**Reading it.** Peak RSS ringing through the server: eggtimer {hwm_e / 1024:.2f} MB, mpg123 "
            f"{hwm_m / 1024:.2f} MB, ratio {hwm_e / hwm_m:.2f} ({verdict}). Both load the same client stack "
            "(libpulse and what it pulls in: X11/xcb, D-Bus, systemd, libsndfile with FLAC/Vorbis/Opus, "
            f"gcrypt): shared libraries {shared_e} kB resident in eggtimer, {shared_m} kB in mpg123. Anonymous "
            f"memory (heap, arenas, stacks, large chunks) is {anon_e} kB vs {anon_m} kB: the decoded sound "
            f"({len(self.unit_raw) // 1024} kB, kept whole so that every pass is sample-exact), a second thread's "
            "malloc arena and stack (eggtimer's player thread), the rest small. **The difference is the program "
            f"itself: {program_e} kB resident against mpg123's {program_m} kB**, of which {code_e} kB is the "
            f"read-only executable segment (machine code {code_group} kB, unwind tables {unwind} kB, relocation "
            f"and symbol tables {linking} kB) and {dirty(egg, 'program')} kB private dirty pages (RELRO, .data and "
            "the relocated writable .rodata). That segment is clean page cache, shared with every other "
            "eggtimer, but RSS counts it: the statically linked Swift runtime, stdlib and libstdc++ are "
            "touched in 64 kB fault-around windows spread over a 6 MB text segment.",
            "",
            "What would close the gap further (nothing here changes Sources): (1) fewer distinct text pages touched — "
            "link with `--gc-sections` and identical-code folding, and order hot functions together "
            "(a linker symbol-ordering file from a profile) so the playback loop and the runtime paths it uses "
            "share windows; (2) `madvise(MADV_RANDOM)` on the text mapping (a Sources change), so "
            "that a fault maps one page rather than a 64 kB window (system-wide: debugfs's fault_around_bytes); (3) fewer relocations: a non-PIE static link (`-no-pie`) writes no relocated pointers at "
            f"load time, removing the {self.relocation_count if hasattr(self, 'relocation_count') else '?'} "
            "relocations' dirty pages and the table's read; (4) linking the Swift runtime dynamically moves "
            "its pages into libswiftCore.so, shared with other Swift programs but still counted in RSS, so "
            "it does not help this figure.",
        ]

    # -------------------------------------------------------------------- the whole run

    def run(self):
        started = time.monotonic()
        self.check_tools()
        self.machine, self.version_info = self.versions()
        log("decoding reference: eggtimer's capture of one pass")
        self.prepare_sound()
        log("calibrating the reference's per-tick work")
        self.calibrate()
        log(f"idle timing phase (~{self.s.long_s + self.s.runs * self.s.stagger_s:.0f} s)")
        idle = self.timing_phase(busy=False)
        log(f"busy timing phase, 2 busy loops (~{self.s.long_s + self.s.runs * self.s.stagger_s:.0f} s)")
        busy = self.timing_phase(busy=True)
        log("pause accounting")
        self.pause_accounting()
        log("stop latency")
        stops, ringing_hwms = self.stop_latency()
        log("memory of peers")
        mpg123_hwm = self.mpg123_ringing_hwm()
        log("start-up")
        self.startup()
        log("gapless")
        self.gapless()
        log("MQTT: deadline to ringing state at a subscriber")
        self.mqtt_latency()
        log("kitchen: start to counting, idle wakeups, private memory")
        self.kitchen()
        log("heard: through a private PulseAudio server")
        self.heard()
        log("ringing cost (callgrind)")
        self.ringing_cost()
        log("diagnostics (callgrind): start-up instructions, UI redraw cost")
        self.startup_instructions()
        self.ui_redraw_cost()
        self.summarize_timing(idle, busy, stops, ringing_hwms, mpg123_hwm)
        self.elapsed = time.monotonic() - started
        for leftover in glob.glob(os.path.join(self.out, "*.raw")) + glob.glob(os.path.join(self.out, "*.wav")):
            os.remove(leftover)

    def run_mqtt_only(self):
        started = time.monotonic()
        self.check_tools()
        self.machine, self.version_info = self.versions()
        self.mqtt_latency()
        self.elapsed = time.monotonic() - started

    def run_kitchen_only(self):
        started = time.monotonic()
        self.check_tools()
        self.machine, self.version_info = self.versions()
        self.kitchen()
        self.elapsed = time.monotonic() - started

    def kitchen(self):
        """The kitchen's figures (issue 26): bench/kitchen.py."""
        sys.dont_write_bytecode = True  # no __pycache__ in the tree
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import kitchen
        kitchen.measure(self, child_env, now_ns, track, untrack, private_folder)

    def run_heard_only(self):
        started = time.monotonic()
        self.check_tools()
        self.machine, self.version_info = self.versions()
        self.prepare_sound()
        self.heard()
        self.elapsed = time.monotonic() - started

    def summarize_timing(self, idle, busy, stops, ringing_hwms, mpg123_hwm):
        f = self.figures
        short, long_ = self.s.short_s, self.s.long_s

        def values(runs, kind, duration=None, key="lateness_ns"):
            return [r[key] / 1e6 for r in runs if r["kind"] == kind and key in r
                    and (duration is None or r["duration"] == duration)]

        for label, runs, suffix in (("idle", idle, ""), ("busy", busy, "_busy")):
            egg_all = values(runs, "egg")
            egg_short, egg_long = values(runs, "egg", short), values(runs, "egg", long_)
            ref_short, ref_long = values(runs, "ref", short), values(runs, "ref", long_)
            f[f"finish_lateness_p99_ms{suffix}"] = p99(egg_all)
            if egg_short and egg_long:
                f[f"lateness_growth_{short}s_to_{long_}s_ms{suffix}"] = median(egg_long) - median(egg_short)
            f[f"reference_lateness_{long_}s_ms{suffix}"] = median(ref_long)
            if ref_short and ref_long:
                f[f"reference_growth_{short}s_to_{long_}s_ms{suffix}"] = median(ref_long) - median(ref_short)
            if egg_long and ref_long:
                f[f"lateness_ratio_vs_reference{suffix}"] = median(egg_long) / median(ref_long)
            starts = values(runs, "egg", key="start_latency_ns")
            f[f"alarm_start_latency_ms{suffix}"] = p99(starts)
            self.details.append(
                f"### Finish lateness, {label}" + (" (2 busy-loop processes on the 2 cores)" if label == "busy" else "")
                + "\n\nfinished.t − started.t − duration, from eggtimer's `--json` events (CLOCK_BOOTTIME); the "
                "reference is `sleep(1); remaining -= 1` plus the per-tick work, timed the same way.\n\n"
                "| program | countdown | runs | lateness, ms (each run) | median | max |\n|---|---|---|---|---|---|\n"
                + "\n".join(
                    f"| {name} | {d} s | {len(v)} | {', '.join(fmt(x) for x in v)} | {fmt(median(v))} | "
                    f"{fmt(max(v) if v else None)} |"
                    for name, d, v in (("eggtimer", short, egg_short), ("eggtimer", long_, egg_long),
                                       ("reference", short, ref_short), ("reference", long_, ref_long)))
                + f"\n\nAlarm start (sounding.t − deadline), ms: {', '.join(fmt(x) for x in starts)}.\n")

        # waiting cost
        waiting = {r["waiting"]: r for r in idle if r.get("waiting")}
        lines = ["### Waiting cost\n",
                 "CPU time (`se.sum_exec_runtime` from /proc/PID/task/*/sched) and wakeups (voluntary context "
                 "switches from /proc/PID/task/*/status), summed over threads, from 0.3 s after the start to 30 ms "
                 f"before the deadline of a {self.s.wait_s} s countdown (so eggtimer's pre-opening of the device "
                 "1.5 s before the deadline is inside the window); for the UI run and termdown, whose start is "
                 "their first drawing, to 0.5 s before. UI = eggtimer with stdin/stderr a pty (80x24, its "
                 "controlling terminal; the UI on stderr) and plain log lines on a pipe (eggtimer draws no UI "
                 "with --json); headless = `--json </dev/null`, stdout a pipe; termdown on the same kind of pty.\n",
                 "| run | window s | CPU ms | CPU ms per minute | wakeups | wakeups/s | µs CPU per wakeup | bytes to the pty per s | thread breakdown (wakeups, CPU ms) |",
                 "|---|---|---|---|---|---|---|---|---|"]
        rates = {}
        for name in ("ui", "headless", "termdown"):
            run = waiting.get(name)
            if not run:
                if name == "termdown":
                    lines.append(f"| termdown | {self.termdown.note} | | | | | | | |")
                continue
            if "cost" not in run:
                lines.append(f"| {name} | failed: {run.get('error')} | | | | | | | |")
                self.problems.append(f"waiting-cost run {name} failed: {run.get('error')}")
                continue
            cost = run["cost"]
            cpu_rate = cost["cpu_ns"] / cost["seconds"]
            wake_rate = cost["vol"] / cost["seconds"]
            rates[name] = (cpu_rate, wake_rate)
            breakdown = "; ".join(
                f"{t['role']}{' (born in window)' if t['born_in_window'] else ''}: {t['vol']}, {t['cpu_ns'] / 1e6:.3f}"
                for t in cost["threads"])
            tty = run.get("tty_bytes")
            tty_rate = "—" if tty is None else f"{tty / cost['seconds']:.0f}"
            lines.append(f"| {name} | {cost['seconds']:.2f} | {cost['cpu_ns'] / 1e6:.3f} | {cpu_rate * 60 / 1e6:.3f} | "
                         f"{cost['vol']} | {wake_rate:.3f} | {cost['cpu_ns'] / 1e3 / max(1, cost['vol']):.1f} | "
                         f"{tty_rate} | {breakdown} |")
        self.details.append("\n".join(lines) + "\n")
        if "ui" in rates:
            f["waiting_cpu_ms_per_min_ui"] = rates["ui"][0] * 60 / 1e6
            f["wakeups_per_s_ui"] = rates["ui"][1]
        if "headless" in rates:
            f["waiting_cpu_ms_per_min_headless"] = rates["headless"][0] * 60 / 1e6
            f["wakeups_per_s_headless"] = rates["headless"][1]
        if "termdown" in rates:
            f["waiting_cpu_ms_per_min_termdown"] = rates["termdown"][0] * 60 / 1e6
            f["wakeups_per_s_termdown"] = rates["termdown"][1]
        if "termdown" in rates and "ui" in rates:
            f["waiting_cpu_ratio_vs_termdown"] = rates["termdown"][0] / rates["ui"][0]
        else:
            f["waiting_cpu_ratio_vs_termdown"] = "missing" if not self.termdown.argv else None
        if "termdown" in rates and "headless" in rates:
            f["waiting_cpu_ratio_vs_termdown_headless"] = rates["termdown"][0] / rates["headless"][0]

        # stop latency
        stop_values = [s["stop_ns"] / 1e6 for s in stops]
        f["stop_latency_ms"] = p99(stop_values)
        self.details.append(
            "### Stop latency\n\n"
            f"{len(stops)} runs of `eggtimer 0.5 -D null` (ringing paced to real time) on a pty; a key byte "
            "written to the pty master 0.2–0.4 s into the ringing; latency = `audio_stopped_t_mono_ns` "
            "(snd_pcm_drop returned) − the instant just before the write. ms per run: "
            + ", ".join(fmt(x) for x in stop_values)
            + ". Key → `acknowledged` event: "
            + ", ".join(fmt(s["key_to_event_ns"] / 1e6) for s in stops) + " ms.\n")

        # memory
        counting = [r.get("hwm_counting_kb") for r in waiting.values()
                    if r["kind"] in ("egg", "ui") and r.get("hwm_counting_kb")]
        ringing = [h for h in ringing_hwms if h] + [r["hwm_ringing_kb"] for r in waiting.values()
                                                    if r.get("hwm_ringing_kb")]
        mib = 1024.0
        f["peak_rss_mb_counting"] = max(counting) / mib if counting else None
        f["peak_rss_mb_ringing"] = max(ringing) / mib if ringing else None
        both = counting + ringing
        f["peak_rss_mb"] = max(both) / mib if both else None
        f["peak_rss_mb_mpg123"] = mpg123_hwm / mib if mpg123_hwm else "missing"
        td = waiting.get("termdown", {}).get("hwm_counting_kb")
        f["peak_rss_mb_termdown"] = td / mib if td else "missing"
        self.details.append(
            "### Memory\n\n"
            "VmHWM (peak resident set, kB in /proc/PID/status; MB here = MiB) read while the process lives: "
            "eggtimer at the end of the countdown windows (counting) and 0.2–0.4 s into paced ringing; "
            "mpg123 0.5 s into `--loop -1` to `null`; termdown at the end of its countdown window. "
            "(wait4's ru_maxrss is not used: for a child forked from Python it includes the parent's "
            "pages before exec.)\n\n"
            f"eggtimer counting: {', '.join(str(c) for c in counting)} kB; ringing: {', '.join(str(r) for r in ringing)} kB; "
            f"mpg123: {mpg123_hwm} kB; termdown: {td} kB.\n"
            + self.pulse_hook_note(waiting)
            + self.mapping_table(waiting))

    def pulse_hook_note(self, waiting):
        """Whether ALSA's configuration made a `-D null` eggtimer load libpulse (the pulseaudio package's hook)."""
        files = [f for run in waiting.values() if run.get("mappings") for f, _ in run["mappings"]["files"]]
        if not any(f.startswith("libpulse") for f in files):
            return ""
        hooks = [p for p in ("/etc/alsa/conf.d/99-pulse.conf", "/usr/share/alsa/alsa.conf.d/pulse.conf")
                 if os.path.exists(p)]
        return ("\n**libpulse is loaded even on `-D null`**: the pulseaudio package's ALSA configuration ("
                + (", ".join(f"`{h}`" for h in hooks) or "a conf.d hook")
                + ") runs the hook `conf_pulse_hook_load_if_running` from `libasound_module_conf_pulse.so` "
                "whenever a program loads ALSA's configuration, whatever PCM it then opens; that library links "
                "libpulse and its dependencies (X11/xcb, D-Bus, systemd, libsndfile, …). On this machine that "
                "adds about 4 MB to every ALSA program's RSS, eggtimer's and mpg123's alike (runs before "
                "pulseaudio was installed for the heard figures measured 8.5 MB and 3.8 MB). The same holds on "
                "a desktop Pi with the pulse plugin installed.\n")

    def mapping_table(self, waiting):
        rows = []
        for name in ("headless", "ui"):
            run = waiting.get(name)
            if not run or not run.get("mappings"):
                continue
            m = run["mappings"]
            top = ", ".join(f"{file} {kb}" for file, kb in m["files"][:8])
            rows.append(f"| eggtimer {name} (counting) | {m['anon_kb']} | {m['file_kb']} | {top} |")
        if not rows:
            return ""
        return ("\nWhere the resident pages are at the end of the countdown window (kB; file-backed pages are "
                "the binary's and the libraries' code and data, mapped in 16-page batches by fault-around "
                "from the page cache):\n\n| process | RssAnon | RssFile | largest mappings |\n|---|---|---|---|\n"
                + "\n".join(rows) + "\n")

    # -------------------------------------------------------------------- report

    TARGETS = [
        # key, target text, check (value -> bool), or None for context figures
        ("finish_lateness_p99_ms", "≤ 2", lambda v: v <= 2),
        ("finish_lateness_p99_ms_busy", "≤ 2", lambda v: v <= 2),
        ("lateness_growth_{short}s_to_{long}s_ms", "≤ 0.25 (no growth)", lambda v: v <= 0.25),
        ("lateness_growth_{short}s_to_{long}s_ms_busy", "≤ 0.25 (no growth)", lambda v: v <= 0.25),
        ("reference_lateness_{long}s_ms", "context", None),
        ("reference_lateness_{long}s_ms_busy", "context", None),
        ("reference_growth_{short}s_to_{long}s_ms", "context", None),
        ("lateness_ratio_vs_reference", "≤ 0.02 (1/50)", lambda v: v <= 0.02),
        ("lateness_ratio_vs_reference_busy", "≤ 0.02 (1/50)", lambda v: v <= 0.02),
        ("pause_error_ms", "≤ 1 (abs)", lambda v: abs(v) <= 1),
        ("pause_remaining_error_ms", "context (accounting alone)", None),
        ("alarm_start_latency_ms", "≤ 1", lambda v: v <= 1),
        ("alarm_start_latency_ms_busy", "≤ 1", lambda v: v <= 1),
        ("stop_latency_ms", "≤ 5", lambda v: v <= 5),
        ("waiting_cpu_ratio_vs_termdown", "≥ 20", lambda v: v >= 20),
        ("waiting_cpu_ratio_vs_termdown_headless", "context", None),
        ("waiting_cpu_ms_per_min_ui", "context", None),
        ("waiting_cpu_ms_per_min_headless", "context", None),
        ("waiting_cpu_ms_per_min_termdown", "context", None),
        ("wakeups_per_s_ui", "≤ 2", lambda v: v <= 2),
        ("wakeups_per_s_headless", "≤ 0.1", lambda v: v <= 0.1),
        ("wakeups_per_s_termdown", "context", None),
        ("ringing_instr_ratio_vs_mpg123", "≤ 0.02", lambda v: v <= 0.02),
        ("ringing_instr_ratio_vs_aplay", "≤ 5", lambda v: v <= 5),
        ("ringing_instr_per_audio_s_eggtimer", "context", None),
        ("ringing_instr_per_audio_s_mpg123", "context", None),
        ("ringing_instr_per_audio_s_aplay", "context", None),
        ("peak_rss_mb", "≤ 10", lambda v: v <= 10),
        ("peak_rss_mb_counting", "≤ 10", lambda v: v <= 10),
        ("peak_rss_mb_ringing", "≤ 10", lambda v: v <= 10),
        ("peak_rss_mb_mpg123", "context", None),
        ("peak_rss_mb_termdown", "context", None),
        ("startup_ratio_vs_mpg123", "≤ 1.5", lambda v: v <= 1.5),
        ("startup_ratio_vs_mpg123_net", "context (minus /bin/true)", None),
        ("startup_ms_eggtimer", "context", None),
        ("startup_ms_mpg123", "context", None),
        ("gap_samples_eggtimer", "0", lambda v: v == 0),
        ("kitchen_start_to_counting_ms_median_kitchen", "context", None),
        ("kitchen_start_to_counting_ms_max_kitchen", "context", None),
        ("kitchen_start_to_counting_ms_median_direct", "context", None),
        ("kitchen_start_to_counting_ms_max_direct", "context", None),
        ("kitchen_mqtt_start_to_counting_ms_median", "context", None),
        ("kitchen_mqtt_start_to_counting_ms_max", "context", None),
        ("kitchen_idle_wakeups_per_s", "≤ 0.1", lambda v: v <= 0.1),
        ("kitchen_uss_mb", "≤ 3", lambda v: v <= 3),
        ("kitchen_key_to_alarm_stopped_ms_median", "≤ 5", lambda v: v <= 5),
        ("kitchen_key_to_alarm_stopped_ms_max", "≤ 5", lambda v: v <= 5),
        ("mqtt_ringing_state_ms_median", "≤ 5", lambda v: v <= 5),
        ("mqtt_ringing_state_ms_max", "≤ 5", lambda v: v <= 5),
        ("heard_onset_ms_median_eggtimer", "≤ 20", lambda v: v <= 20),
        ("heard_onset_ms_median_eggtimer_say", "≤ 20", lambda v: v <= 20),
        ("heard_onset_ms_max_eggtimer_say", "context", None),
        ("heard_onset_ms_max_eggtimer", "≤ 20", lambda v: v <= 20),
        ("heard_onset_ms_median_aplay", "context (peer)", None),
        ("heard_onset_ms_max_aplay", "context (peer)", None),
        ("heard_onset_ms_median_mpg123", "context (peer)", None),
        ("heard_onset_ms_max_mpg123", "context (peer)", None),
        ("heard_onset_lead_ms_vs_peers", "> 0 (medians: ahead of both peers)", lambda v: v > 0),
        ("heard_loud_chunks_before_deadline", "0", lambda v: v == 0),
        ("heard_stop_ms_median_eggtimer", "≤ 100", lambda v: v <= 100),
        ("heard_stop_ms_max_eggtimer", "≤ 100", lambda v: v <= 100),
        ("heard_ringing_cpu_pct_eggtimer", "context", None),
        ("heard_ringing_wakeups_per_s_eggtimer", "context", None),
        ("heard_underruns_ringing_busy", "0", lambda v: v == 0),
        ("heard_mismatched_frames_ringing_busy", "context", None),
        ("heard_peak_rss_ratio_vs_mpg123", "≤ 2", lambda v: v <= 2),
        ("heard_peak_rss_mb_eggtimer", "context", None),
        ("heard_peak_rss_mb_mpg123", "context", None),
        ("gap_samples_aplay", "context (peer)", None),
        ("gap_samples_sox", "context (peer)", None),
        ("gap_samples_mpg123", "context (peer)", None),
    ]

    def report(self, command_line):
        short, long_ = self.s.short_s, self.s.long_s
        rows = []
        keys = []
        passes = misses = missing = 0
        for key, target, check in self.TARGETS:
            key = key.format(short=short, long=long_)
            value = self.figures.get(key)
            if check is None:
                status = "—"
            elif value is None:
                status = "n/a"
            elif isinstance(value, str):
                status = value.upper() if value == "missing" else "n/a"
                missing += value == "missing"
            else:
                ok = check(value)
                status = "PASS" if ok else "MISS"
                passes += ok
                misses += not ok
            rows.append(f"| `{key}` | {fmt(value)} | {target} | {status} |")
            keys.append(key)
        for key in self.figures:
            if key not in keys:
                rows.append(f"| `{key}` | {fmt(self.figures[key])} | context | — |")
                keys.append(key)
        mode = "quick" if self.s.quick else "full"
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        text = [f"# eggtimer benchmarks ({mode} run, {when})", ""]
        if self.s.quick:
            text += ["Quick mode: short countdowns and few runs so that the harness cannot rot; the figures "
                     "are NOT comparable with a full run and are never judged.", ""]
        text += [
            "Generated by `make bench` (`" + command_line + "`); "
            f"the run took {self.elapsed:.0f} s.",
            "",
            "This machine has no sound card: ALSA's `null` PCM and `file:` PCMs only, and nothing paces playback "
            "in real time. So the latencies come from eggtimer's own monotonic timestamps (`--json`, "
            "CLOCK_BOOTTIME ns), instruction counts from callgrind, CPU time and wakeups from /proc. "
            "The `heard_*` figures are the exception: they come from a private PulseAudio server with a null sink, "
            "which plays in real time, and from what its monitor records (eggtimer on `-D pulse` next to "
            "`aplay -D pulse` and `mpg123 -o pulse`, in the same run). "
            "**The ratios measured in one run are the headline; absolute times hold for this machine only.**",
            "",
            "eggtimer asks for SCHED_FIFO priority 1 and gets it where the system allows (this run: "
            + ("root, so it did" if os.geteuid() == 0 else "not root, so only with CAP_SYS_NICE or an RLIMIT_RTPRIO")
            + "). The busy-machine lateness depends on it: at normal priority, earlier runs on this machine "
            "measured p99 0.6 ms with one outlier of 4.6 ms, the scheduler's wake-up latency under full load.",
            "",
            "## Machine",
            "",
        ]
        text += [f"- {k}: {v}" for k, v in self.machine.items()]
        text += ["", "## Versions", ""]
        text += [f"- {k}: {v}" for k, v in self.version_info.items()]
        text += ["", f"## Results ({passes} PASS, {misses} MISS" + (f", {missing} MISSING" if missing else "") + ")", "",
                 "Targets are floors. p99 is nearest-rank (with fewer than 100 samples it is the maximum). "
                 "`context` rows have no target.", "",
                 "| figure | value | target | status |", "|---|---|---|---|"] + rows + [""]
        if self.problems:
            text += ["## Problems met by the harness", ""] + [f"- {p}" for p in self.problems] + [""]
        text += ["## Details", ""] + self.details
        text += ["## How to reproduce", "",
                 "```sh",
                 "make bench          # full run (< 10 min); installs valgrind mpg123 alsa-utils sox python3 python3-pip pulseaudio pulseaudio-utils libasound2-plugins; writes BENCHMARKS.md",
                 "make bench-quick    # seconds; prints only (and bench/out/quick/BENCHMARKS-quick.md)",
                 "# or by hand:",
                 "swift build -c release --static-swift-stdlib",
                 f"python3 bench/bench.py {'--quick ' if self.s.quick else ''}--binary \"$(swift build -c release --static-swift-stdlib --show-bin-path)/eggtimer\"",
                 "```", "",
                 "The commands the harness ran (eggtimer = the binary under test; `bench/out/…/` = its scratch folder):",
                 "", "```sh"] + self.commands + ["```", "", "## Figures", "",
                 "One `key=value` line per figure, to the end of this file (the code block is left open on "
                 "purpose, so that the last lines are the figures).", "", "```text"]
        text += [f"{key}={fmt(self.figures.get(key), 6) if not isinstance(self.figures.get(key), str) else self.figures.get(key)}"
                 for key in keys]
        return "\n".join(text) + "\n"


def main():
    parser = argparse.ArgumentParser(description="eggtimer benchmarks (bench/README.md)")
    parser.add_argument("--binary", help="the release eggtimer to measure")
    parser.add_argument("--install-peers", action="store_true",
                        help="only install the peers that come from PyPI (termdown), then exit: make runs this "
                             "before the isolated run, where no package can be fetched")
    parser.add_argument("--quick", action="store_true", help="a few seconds of every measurement; prints only")
    parser.add_argument("--sound", default=os.path.join(REPO, "Sounds", "alarm_sound.mp3"),
                        help="the MP3 that eggtimer and mpg123 loop (default: Sounds/alarm_sound.mp3)")
    parser.add_argument("--heard-only", action="store_true",
                        help="only the figures heard through a private PulseAudio server (while working on them)")
    parser.add_argument("--mqtt-only", action="store_true",
                        help="only the MQTT figures (a private mosquitto broker on loopback)")
    parser.add_argument("--kitchen-only", action="store_true",
                        help="only the kitchen's figures (eggtimer kitchen and eggtimer start)")
    parser.add_argument("--output", default=None,
                        help="where the full run writes its report (default: BENCHMARKS.md at the repository root)")
    options = parser.parse_args()
    if options.install_peers:
        termdown = Termdown()
        found = termdown.ensure()
        log(f"termdown: {termdown.note}")
        return 0 if found else 1
    if not options.binary:
        parser.error("--binary is required")
    binary = os.path.abspath(options.binary)
    sound = os.path.abspath(options.sound)
    try:
        if not os.access(binary, os.X_OK):
            raise HarnessError(f"{binary} is not an executable")
        if not os.path.exists(sound):
            raise HarnessError(f"{sound} is missing")
        settings = Settings(options.quick)
        bench = Bench(binary, settings, sound)
        if options.heard_only:
            bench.run_heard_only()
        elif options.mqtt_only:
            bench.run_mqtt_only()
        elif options.kitchen_only:
            bench.run_kitchen_only()
        else:
            bench.run()
        command_line = ("python3 bench/bench.py " + ("--quick " if options.quick else "")
                        + "--binary <release eggtimer>")
        report = bench.report(command_line)
        print(report, end="")
        if options.heard_only:
            path = os.path.join(bench.out, "BENCHMARKS-heard.md")
        elif options.mqtt_only:
            path = os.path.join(bench.out, "BENCHMARKS-mqtt.md")
        elif options.kitchen_only:
            path = os.path.join(bench.out, "BENCHMARKS-kitchen.md")
        elif options.quick:
            path = os.path.join(bench.out, "BENCHMARKS-quick.md")
        else:
            path = options.output or os.path.join(REPO, "BENCHMARKS.md")
        with open(path, "w") as f:
            f.write(report)
        log(f"wrote {os.path.relpath(path, REPO) if path.startswith(REPO) else path} in {bench.elapsed:.0f} s")
        return 0
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except Exception:
        traceback.print_exc()
        log("the harness itself failed (exit 2); no figures judged")
        return 2
    finally:
        end_all_children()


if __name__ == "__main__":
    sys.exit(main())
