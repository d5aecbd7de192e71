"""The harness: the clock, the log, the run's settings, children that are always ended, the private
folders, pseudo-terminals and eggtimer's --json events read on a thread.

Everything here is mechanism; no figure is measured in this module."""

import fcntl
import json
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
import threading
import time

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
            self.heard_stall_runs = 2
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
            self.heard_stall_runs = 5
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

