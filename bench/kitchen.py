"""The kitchen's figures (issue 26): `eggtimer start` from a shell -> the timer counting,
through the kitchen and directly; the kitchen's idle wakeups per second and its private memory (USS);
a keypad press (issue 27: `struct input_event` records written to a FIFO standing in for
/dev/input/event0 under EGGTIMER_INPUT_ROOT) -> the ringing timer's `acknowledged` event; and both
again with 12 frozen timers (issue 39: ringing, then SIGSTOPped, so none of them answers the
kitchen), a press -> the one live ringing timer acknowledged and a start's round trip.

Standard library only. Every process runs in the harness's private runtime and state folders, with a
config file of its own (`device = null`: the kitchen passes no device, its timers read the config)."""

import json
import re
import shutil
import os
import signal
import socket
import statistics
import struct
import subprocess
import time

from bench.figures import Result
from bench.harness import child_env, now_ns, private_folder, track, untrack
from bench.services import private_broker


def _uss_mb(pid):
    """Private_Clean + Private_Dirty of /proc/PID/smaps_rollup, in MB (10^6 bytes)."""
    total_kb = 0
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total_kb += int(line.split()[1])
    return total_kb * 1024 / 1e6


def _voluntary_switches(pid):
    """Voluntary context switches summed over the process's threads."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


def event_t_ns(log_path, event, timeout_s=10, after_ns=0):
    """The `t_mono_ns` of the first `event` in a timer's --json log later than `after_ns` (waits for
    it to appear); None when it has not within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with open(log_path) as f:
                for line in f:
                    if f'"event":"{event}"' in line and json.loads(line)["t_mono_ns"] > after_ns:
                        return json.loads(line)["t_mono_ns"]
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    return None


def ringing_timer(binary, env, state, label, length="1s"):
    """Starts `eggtimer start LENGTH --label LABEL` through the kitchen and waits for the timer's
    `sounding` event: the finished `start` (its reply on stdout) once it rings, else None."""
    done = subprocess.run([binary, "start", length, "--label", label], env=env, capture_output=True, timeout=30)
    if done.returncode != 0 or event_t_ns(os.path.join(state, label.lower() + ".log"), "sounding") is None:
        return None
    return done


def ringing_pid(binary, env, state, label):
    """The pid of the 1 s timer `label` started through the kitchen once it rings (ringing_timer);
    None when it did not."""
    done = ringing_timer(binary, env, state, label)
    pid = re.search(rb"\(pid (\d+)\)", done.stdout) if done else None
    return int(pid.group(1)) if pid else None


def stopped_ms(bench, binary, env, state, label, stop, what):
    """Starts the 1 s timer `label` through the kitchen (ringing_timer), then `stop(log_path)`, which
    stops its alarm and returns (the instant it did so, CLOCK_BOOTTIME ns, or None; the problem line
    should the timer not be acknowledged). Returns the timer's `acknowledged` t_mono_ns minus that
    instant, in ms; None when it did not ring (a problem: `what` LABEL did not ring) or was not
    acknowledged (stop's problem line), each in bench.problems."""
    log_path = os.path.join(state, label.lower() + ".log")
    if ringing_timer(binary, env, state, label) is None:
        bench.problems.append(f"{what} {label} did not ring")
        return None
    sent, problem = stop(log_path)
    acked = event_t_ns(log_path, "acknowledged") if sent else None
    if acked is None:
        bench.problems.append(problem)
        return None
    return (acked - sent) / 1e6


# struct input_event as linux/input.h lays it out for this userspace: a struct timeval (two C longs),
# then __u16 type, __u16 code, __s32 value (24 bytes on x86_64 and arm64).
_INPUT_EVENT = "llHHi"
_EV_SYN, _EV_KEY, _KEY_ENTER = 0, 1, 28


def _press(seconds):
    """The records of one press and release of Enter, each followed by a SYN_REPORT."""
    records = b""
    for offset, value in ((0, 1), (50_000, 0)):
        records += struct.pack(_INPUT_EVENT, seconds, offset, _EV_KEY, _KEY_ENTER, value)
        records += struct.pack(_INPUT_EVENT, seconds, offset, _EV_SYN, 0, 0)
    return records


def _input_root(folder):
    """A private input root (dev/input/event0, a FIFO, and its sysfs key capabilities) in `folder`."""
    for sub in ("dev/input", "sys/class/input/event0/device/capabilities"):
        os.makedirs(os.path.join(folder, sub), mode=0o700, exist_ok=True)
    with open(os.path.join(folder, "sys/class/input/event0/device/capabilities/key"), "w") as f:
        f.write("10000000 0 0 3fffe\n")
    os.mkfifo(os.path.join(folder, "dev/input/event0"), 0o600)
    return os.path.join(folder, "dev/input/event0")


def _keypad_acks(bench, binary, env, state, kitchen, writer, runs, cancel_all):
    """Press -> acknowledged, in ms, for `runs` timers of 1 s started through the kitchen: the
    acknowledged event's t_mono_ns minus the instant the press's bytes were written (CLOCK_BOOTTIME).
    A press the kitchen read before it saw the alarm ring is only a report: pressed again."""
    samples = []
    for run in range(runs):
        label = f"keyack{run}-{os.getpid()}"

        def press(_log_path):
            problem = f"kitchen: keypad press did not acknowledge {label}"
            for attempt in range(50):
                written = now_ns()
                os.write(writer, _press(1000 + run * 100 + attempt))
                line = ""
                while "key: " not in line:
                    line = kitchen.stdout.readline().decode("utf-8", "replace")
                    if not line:
                        break
                if "alarm stopped" in line:
                    return written, problem
            return None, problem

        ms = stopped_ms(bench, binary, env, state, label, press, "kitchen: keypad timer")
        if ms is not None:
            samples.append(ms)
        cancel_all()
    return samples


FROZEN_TIMERS = 12


def _frozen(bench, binary, env, state, kitchen, writer, runs, cancel_all):
    """With FROZEN_TIMERS ringing timers SIGSTOPped (the kitchen's picture shows them ringing; none
    answers): (press -> the one live ringing timer's `acknowledged`, in ms; a shell's `eggtimer start
    10m` launch -> its reply, in ms), `runs` each. The frozen timers are woken and cancelled after."""
    frozen = []
    presses, round_trips = [], []
    try:
        for n in range(FROZEN_TIMERS):
            label = f"frozen{n}-{os.getpid()}"
            pid = ringing_pid(binary, env, state, label)
            if pid is None:
                bench.problems.append(f"kitchen: frozen timer {label} did not ring")
                return presses, round_trips, frozen
            frozen.append(pid)
            os.kill(frozen[-1], signal.SIGSTOP)
        for run in range(runs):
            label = f"live{run}-{os.getpid()}"

            def press(log_path):
                problem = f"kitchen: a press did not acknowledge {label} beside frozen timers"
                for attempt in range(20):  # a press read before the kitchen saw it ring is pressed again
                    written = now_ns()
                    os.write(writer, _press(5000 + run * 100 + attempt))
                    if event_t_ns(log_path, "acknowledged", timeout_s=3) is not None:
                        return written, problem
                return None, problem

            ms = stopped_ms(bench, binary, env, state, label, press, "kitchen: live timer")
            if ms is not None:
                presses.append(ms)
            label = f"trip{run}-{os.getpid()}"
            launched = now_ns()
            done = subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True, timeout=60)
            if done.returncode == 0:
                round_trips.append((now_ns() - launched) / 1e6)
            else:
                bench.problems.append(f"kitchen: start {label} beside frozen timers failed (rc {done.returncode})")
            subprocess.run([binary, "cancel", label], env=env, capture_output=True, timeout=30)
    finally:
        for pid in frozen:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        cancel_all()
    return presses, round_trips, frozen


def _killed(bench, binary, env, state, runs, cancel_all):
    """A ringing timer started through the kitchen, killed with SIGKILL (as the OOM killer would):
    the kill instant -> its recovered successor's `sounding` event (the kitchen runs `eggtimer
    recover LABEL`, which starts it again from its record, overdue, so it rings at once), in ms,
    `runs` timers; each recovered one is acknowledged."""
    samples = []
    for run in range(runs):
        label = f"killed{run}-{os.getpid()}"
        pid = ringing_pid(binary, env, state, label)
        if pid is None:
            bench.problems.append(f"kitchen: timer {label} to kill did not ring")
            continue
        killed = now_ns()
        os.kill(pid, signal.SIGKILL)
        again = event_t_ns(os.path.join(state, label.lower() + ".log"), "sounding", timeout_s=15, after_ns=killed)
        if again is None:
            bench.problems.append(f"kitchen: killed timer {label} did not ring again within 15 s")
        else:
            samples.append((again - killed) / 1e6)
        subprocess.run([binary, "ack", label], env=env, capture_output=True, timeout=30)
    cancel_all()
    return samples


def _reachable_ms(path, timeout_s=5):
    """Unlinks the socket `path`, then connects to it every millisecond until a connect succeeds
    (its process noticed and bound it again): ms from the unlink, or None after `timeout_s`."""
    os.unlink(path)
    lost = now_ns()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            probe.connect(path)
            return (now_ns() - lost) / 1e6
        except OSError:
            time.sleep(0.001)
        finally:
            probe.close()
    return None


def _lost_sockets(bench, binary, env, runs, cancel_all):
    """A timer's control socket and the kitchen's own, each deleted `runs` times: the unlink -> the
    first connect that succeeds, in ms (the process sees its socket gone and binds it again)."""
    folder = os.path.join(env["XDG_RUNTIME_DIR"], "eggtimer")
    label = f"lost-{os.getpid()}"
    samples = []
    done = subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True, timeout=30)
    if done.returncode != 0:
        bench.problems.append(f"kitchen: start {label} failed (rc {done.returncode})")
        return samples
    for path in (os.path.join(folder, label.lower() + ".sock"), os.path.join(folder, "kitchen", "kitchen.sock")):
        for _ in range(runs):
            ms = _reachable_ms(path)
            if ms is None:
                bench.problems.append(f"kitchen: {path} deleted was not reachable again within 5 s")
                break
            samples.append(ms)
    cancel_all()
    return samples


def measure(bench):
    """The kitchen_* figures (a Result); problems go to bench.problems."""
    result = Result("CLOCK_BOOTTIME: the timer's own --json log against the harness's launch or write instant")
    quick = bench.s.quick
    root = private_folder()
    config = os.path.join(bench.out, "kitchen.config")
    with open(config, "w") as f:
        f.write("device = null\n")
    env = child_env({"EGGTIMER_CONFIG": config})
    state = os.path.join(env["XDG_STATE_HOME"], "eggtimer")
    runs = 3 if quick else 10
    idle_s = 5 if quick else 60
    binary = bench.binary

    def cancel_all():
        subprocess.run([binary, "cancel", "--all"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=30)

    def starts(prefix):
        samples = []
        for run in range(runs):
            label = f"{prefix}{run}-{os.getpid()}"
            launched = now_ns()
            done = subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True,
                                  timeout=30)
            started = event_t_ns(os.path.join(state, label.lower() + ".log"), "started")
            if done.returncode != 0 or started is None:
                bench.problems.append(f"kitchen: start {label} failed (rc {done.returncode}): "
                                      + done.stderr.decode("utf-8", "replace").strip())
                continue
            samples.append((started - launched) / 1e6)
            cancel_all()  # the limit stays far; each start meets the same empty house
        return samples

    direct = starts("direct")
    input_root = os.path.join(private_folder(), "keypad")
    device = _input_root(input_root)
    kitchen_env = dict(env, EGGTIMER_INPUT_ROOT=input_root)
    # Room for the frozen timers, the live one and a start beside them.
    kitchen = track(subprocess.Popen([binary, "kitchen", "--max-timers", str(FROZEN_TIMERS + 3)], env=kitchen_env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True))
    try:
        first = kitchen.stdout.readline().decode("utf-8", "replace")
        while first.startswith("keys: "):
            first = kitchen.stdout.readline().decode("utf-8", "replace")
        if "listening on" not in first:
            bench.problems.append(f"kitchen: did not start: {first.strip()}")
            return result
        through = starts("kitchen")
        # One writer for every press: a FIFO whose last writer closes reads as end-of-file, which
        # the kitchen takes as the keypad unplugged (a real evdev device never ends).
        writer = os.open(device, os.O_WRONLY | os.O_CLOEXEC)
        acks = _keypad_acks(bench, binary, env, state, kitchen, writer, runs, cancel_all)
        if acks:
            result.add("kitchen_key_to_alarm_stopped_ms_median", statistics.median(acks), acks)
            result.add("kitchen_key_to_alarm_stopped_ms_max", max(acks), acks)
        for name, samples in (("kitchen", through), ("direct", direct)):
            if samples:
                result.add(f"kitchen_start_to_counting_ms_median_{name}", statistics.median(samples), samples)
                result.add(f"kitchen_start_to_counting_ms_max_{name}", max(samples), samples)
        presses, trips, _ = _frozen(bench, binary, env, state, kitchen, writer, runs, cancel_all)
        os.close(writer)
        lost = _lost_sockets(bench, binary, env, runs, cancel_all)
        if lost:
            result.add("socket_deleted_to_reachable_ms_max", max(lost), lost)
            result.detail(
                "A control socket deleted (a timer's, then the kitchen's), until a connect to its path succeeds "
                "again (the process sees it gone and binds it again), probing every millisecond: "
                f"{', '.join(f'{v:.1f}' for v in lost)} ms; target 2000 ms.\n")
        killed = _killed(bench, binary, env, state, runs, cancel_all)
        if killed:
            result.add("kitchen_killed_to_ringing_ms_max", max(killed), killed)
            result.detail(
                "A ringing timer started through the kitchen and killed with SIGKILL, until its successor's "
                "`sounding` event (the kitchen recovers it from its record with `eggtimer recover LABEL`; "
                f"the kill instant before `kill`), {len(killed)} timers: "
                f"{', '.join(f'{v:.1f}' for v in killed)} ms; target 2000 ms.\n")
        if presses:
            result.add("kitchen_frozen_key_to_alarm_stopped_ms_max", max(presses), presses)
        if trips:
            result.add("kitchen_frozen_start_round_trip_ms_max", max(trips), trips)
        if presses or trips:
            result.detail(
                f"Beside {FROZEN_TIMERS} frozen timers (each started through the kitchen, ringing, then SIGSTOPped: "
                "the kitchen still shows them ringing, none answers): a keypad press while one more timer rings, "
                "until that live timer's `acknowledged` event "
                f"({', '.join(f'{v:.1f}' for v in presses)} ms), and `eggtimer start 10m` from a shell until its "
                f"reply, client start-up included ({', '.join(f'{v:.1f}' for v in trips)} ms); target 50 ms each.\n")
        # Idle: two timers followed (counting 10 min), nothing asked of it.
        for label in ("idle-a", "idle-b"):
            subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True, timeout=30)
        time.sleep(0.5)  # let the watches' first lines and the start replies settle
        before, t0 = _voluntary_switches(kitchen.pid), now_ns()
        time.sleep(idle_s)  # the window measured: nothing happens in it by design
        after, t1 = _voluntary_switches(kitchen.pid), now_ns()
        result["kitchen_idle_wakeups_per_s"] = (after - before) / ((t1 - t0) / 1e9)
        result.add("kitchen_uss_mb", _uss_mb(kitchen.pid), how="Private_Clean + Private_Dirty of /proc/PID/smaps_rollup, MB = 10^6 bytes")
        cancel_all()
        result.detail(
            "### The kitchen\n\n"
            f"`eggtimer start 10m --label L` from a shell until the timer's `started` event (its log's `t_mono_ns` "
            f"minus the launch instant, CLOCK_BOOTTIME), {runs} starts each, then `cancel --all`: directly "
            f"({', '.join(f'{v:.1f}' for v in direct)} ms) and through `eggtimer kitchen` "
            f"({', '.join(f'{v:.1f}' for v in through)} ms). The kitchen's idle wakeups: voluntary context switches "
            f"over all its threads across {idle_s} s with two timers followed; its USS: Private_Clean + Private_Dirty "
            f"of /proc/PID/smaps_rollup. A keypad press (Enter's press and release records written to a FIFO "
            f"standing in for /dev/input/event0 under EGGTIMER_INPUT_ROOT) while a 1 s timer rings, until that "
            f"timer's `acknowledged` event (its `t_mono_ns` minus the write instant), {runs} timers: "
            f"{', '.join(f'{v:.2f}' for v in acks)} ms.\n")
    finally:
        _end(kitchen)
        cancel_all()
    mqtt = _mqtt_starts(bench, binary, env, state, runs, cancel_all)
    if mqtt:
        result.add("kitchen_mqtt_start_to_counting_ms_median", statistics.median(mqtt), mqtt)
        result.add("kitchen_mqtt_start_to_counting_ms_max", max(mqtt), mqtt)
        result.detail(
            "A start over MQTT: a kitchen with `--mqtt` on a private Mosquitto broker on 127.0.0.1, "
            f"`mosquitto_pub -t eggtimer/bench/start -m '10m L'` until the timer's `started` event (the launch "
            f"instant before mosquitto_pub, whose own start-up is included), {runs} starts: "
            f"{', '.join(f'{v:.1f}' for v in mqtt)} ms.\n")
    return result


def _end(process):
    """Ends a tracked child with SIGTERM (then SIGKILL after 10 s) and forgets it."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
    untrack(process)


def _mqtt_starts(bench, binary, env, state, runs, cancel_all):
    """Start payload published -> the timer's `started` event, in ms, through a kitchen on a private
    broker; [] (and a problem) when mosquitto is missing or a start fails."""
    broker_bin, pub_bin = shutil.which("mosquitto") or "/usr/sbin/mosquitto", shutil.which("mosquitto_pub")
    if not os.access(broker_bin, os.X_OK) or not pub_bin:
        bench.problems.append("kitchen: mosquitto or mosquitto_pub is missing; the MQTT start figures are n/a")
        return []
    try:
        broker, port = private_broker(bench.out, "kitchen-mosquitto.conf")
    except Exception as error:  # HarnessError: reported, the other figures stand
        bench.problems.append(f"kitchen: {error}")
        return []
    kitchen = None
    samples = []
    try:
        kitchen = track(subprocess.Popen(
            [binary, "kitchen", "--keys", "none", "--mqtt", f"mqtt://127.0.0.1:{port}", "--node", "bench"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True))
        # Connected once its own availability is retained online on the broker.
        online = subprocess.run(
            [shutil.which("mosquitto_sub") or "mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-C", "1",
             "-W", "10", "-t", "eggtimer/bench/kitchen/availability"], capture_output=True, timeout=30)
        if b"online" not in online.stdout:
            bench.problems.append("kitchen: the kitchen did not come online on the private broker")
            return []
        for run in range(runs):
            label = f"mqtt{run}-{os.getpid()}"
            launched = now_ns()
            subprocess.run([pub_bin, "-h", "127.0.0.1", "-p", str(port), "-t", "eggtimer/bench/start",
                            "-m", f"10m {label}"], timeout=30, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            started = event_t_ns(os.path.join(state, label.lower() + ".log"), "started")
            if started is None:
                bench.problems.append(f"kitchen: the MQTT start {label} did not run")
                continue
            samples.append((started - launched) / 1e6)
            cancel_all()
    finally:
        if kitchen is not None:
            _end(kitchen)
        _end(broker)
        cancel_all()
    return samples
