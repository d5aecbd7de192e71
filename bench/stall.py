"""Stall recovery (issue 37): a ringing eggtimer on a private PulseAudio server that is stopped
(SIGSTOP) until the timer says its device is unavailable, then continued (SIGCONT); the figure is
the time from SIGCONT to the timer's `device_recovered` event, which it logs once the new try has
written more than its buffer (100 ms) to the server: an upper bound of the end of a stall to the
first sample written again. Several stalls in one ringing."""

import signal

from bench.figures import Result
from bench.harness import finish_process, now_ns
from bench.stats import median


def heard_stall(bench, server, monitor):
    """Stalls and continues the server `bench.s.heard_stall_runs` times while eggtimer rings; returns
    a Result with stall_recovery_ms_median and _max (goal ≤ 1000 ms)."""
    from bench.heard import spawn_heard  # heard imports this module
    argv = [bench.binary, "0.5", "-D", "pulse", "--json", "--sound", bench.sound]
    bench.note_command(argv, "# rings; the server is stopped and continued under it")
    popen, events = spawn_heard(bench, server, "eggtimer", argv, json_events=True)
    recoveries = []
    rows = []
    try:
        if not events.wait("sounding", 20):
            bench.problems.append("stall recovery: eggtimer never rang")
            return Result()
        for run in range(bench.s.heard_stall_runs):
            stopped = now_ns()
            server.popen.send_signal(signal.SIGSTOP)
            try:
                unavailable = len(events.all("device_unavailable"))
                noticed = events.wait("device_unavailable", 10, after=_index_after(events, "device_unavailable", unavailable))
            finally:
                continued = now_ns()
                server.popen.send_signal(signal.SIGCONT)
            if noticed is None:
                bench.problems.append(f"stall recovery run {run + 1}: the stall was never reported")
                continue
            back = events.wait("device_recovered", 10, after=_index_after(events, "device_recovered", run))
            if back is None:
                bench.problems.append(f"stall recovery run {run + 1}: the alarm never came back")
                continue
            recovered = (int(back["t_mono_ns"]) - continued) / 1e6
            recoveries.append(recovered)
            rows.append(f"| {run + 1} | {(int(noticed['t_mono_ns']) - stopped) / 1e6:.1f} | {recovered:.1f} |")
        popen.send_signal(signal.SIGUSR1)
        rc, _ = finish_process(popen, 10)
        if rc != 0:
            bench.problems.append(f"stall recovery: eggtimer exit {rc} (heard: 0 expected)")
    finally:
        server.popen.send_signal(signal.SIGCONT)
        if popen.poll() is None:
            popen.kill()
            finish_process(popen, 5)
    f = Result()
    if recoveries:
        f.add("stall_recovery_ms_median", median(recoveries), samples=recoveries)
        f.add("stall_recovery_ms_max", max(recoveries), samples=recoveries)
    else:
        f.add("stall_recovery_ms_max", None)
    f.detail(
        "### Stall recovery\n\n"
        "`eggtimer 0.5 -D pulse` rings on the private server; the harness stops the server (SIGSTOP) until "
        "the timer logs `device_unavailable` (no room for audio for 500 ms, or a call that did not return), "
        "then continues it (SIGCONT). Recovery is the timer's `device_recovered` `t_mono_ns` − the SIGCONT "
        "instant (CLOCK_BOOTTIME): the new try has then written more than its 100 ms buffer, so the first "
        "sample written again came earlier. "
        f"{bench.s.heard_stall_runs} stalls in one ringing.\n\n"
        "| stall | stopped → device_unavailable ms | SIGCONT → device_recovered ms |\n|---|---|---|\n"
        + "\n".join(rows) + "\n")
    return f


def _index_after(events, name, count):
    """The index in `events.all()` just past the `count`th event called `name` (0: from the start)."""
    seen = 0
    for index, event in enumerate(events.all()):
        if seen == count:
            return index
        if event.get("event") == name:
            seen += 1
    return len(events.all()) if seen == count else 0
