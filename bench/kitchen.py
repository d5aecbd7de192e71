"""The kitchen's figures (issue 26), for bench.py: `eggtimer start` from a shell -> the timer counting,
through the kitchen and directly; the kitchen's idle wakeups per second and its private memory (USS).

Standard library only. Every process runs in bench.py's private runtime and state folders, with a
config file of its own (`device = null`: the kitchen passes no device, its timers read the config)."""

import json
import os
import statistics
import subprocess
import time


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


def _started_t_ns(log_path, timeout_s=10):
    """The `t_mono_ns` of the `started` event in a timer's --json log (waits for it to appear)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with open(log_path) as f:
                for line in f:
                    if '"event":"started"' in line:
                        return json.loads(line)["t_mono_ns"]
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    return None


def measure(bench, env_for, now_ns, track, untrack, private_folder):
    """Fills bench.figures with the kitchen_* figures; problems go to bench.problems."""
    quick = bench.s.quick
    root = private_folder()
    config = os.path.join(bench.out, "kitchen.config")
    with open(config, "w") as f:
        f.write("device = null\n")
    env = env_for({"EGGTIMER_CONFIG": config})
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
            started = _started_t_ns(os.path.join(state, label + ".log"))
            if done.returncode != 0 or started is None:
                bench.problems.append(f"kitchen: start {label} failed (rc {done.returncode}): "
                                      + done.stderr.decode("utf-8", "replace").strip())
                continue
            samples.append((started - launched) / 1e6)
            cancel_all()  # the limit stays far; each start meets the same empty house
        return samples

    direct = starts("direct")
    kitchen = track(subprocess.Popen([binary, "kitchen"], env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True))
    try:
        first = kitchen.stdout.readline().decode("utf-8", "replace")
        if "listening on" not in first:
            bench.problems.append(f"kitchen: did not start: {first.strip()}")
            return
        through = starts("kitchen")
        for name, samples in (("kitchen", through), ("direct", direct)):
            if samples:
                bench.figures[f"kitchen_start_to_counting_ms_median_{name}"] = statistics.median(samples)
                bench.figures[f"kitchen_start_to_counting_ms_max_{name}"] = max(samples)
        # Idle: two timers followed (counting 10 min), nothing asked of it.
        for label in ("idle-a", "idle-b"):
            subprocess.run([binary, "start", "10m", "--label", label], env=env, capture_output=True, timeout=30)
        time.sleep(0.5)  # let the watches' first lines and the start replies settle
        before, t0 = _voluntary_switches(kitchen.pid), now_ns()
        time.sleep(idle_s)  # the window measured: nothing happens in it by design
        after, t1 = _voluntary_switches(kitchen.pid), now_ns()
        bench.figures["kitchen_idle_wakeups_per_s"] = (after - before) / ((t1 - t0) / 1e9)
        bench.figures["kitchen_uss_mb"] = _uss_mb(kitchen.pid)
        cancel_all()
        bench.details.append(
            "### The kitchen\n\n"
            f"`eggtimer start 10m --label L` from a shell until the timer's `started` event (its log's `t_mono_ns` "
            f"minus the launch instant, CLOCK_BOOTTIME), {runs} starts each, then `cancel --all`: directly "
            f"({', '.join(f'{v:.1f}' for v in direct)} ms) and through `eggtimer kitchen` "
            f"({', '.join(f'{v:.1f}' for v in through)} ms). The kitchen's idle wakeups: voluntary context switches "
            f"over all its threads across {idle_s} s with two timers followed; its USS: Private_Clean + Private_Dirty "
            f"of /proc/PID/smaps_rollup.\n")
    finally:
        if kitchen.poll() is None:
            kitchen.terminate()
        try:
            kitchen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kitchen.kill()
            kitchen.wait(timeout=5)
        untrack(kitchen)
        cancel_all()
