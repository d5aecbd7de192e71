"""Timing: finish lateness (idle and with both cores busy) against a "sleep 1 s, then decrement"
reference with eggtimer's own per-tick work, the alarm's start, and pause accounting. The idle
phase also runs the waiting-cost countdowns (bench/cost.py reads them) and samples their memory
(bench/memory.py).

Each lateness is finished.t − started.t − duration from eggtimer's --json events (CLOCK_BOOTTIME)."""

import signal
import subprocess
import sys
import threading
import time

from bench.figures import Result, fmt
from bench.harness import (HarnessError, Pty, child_env, finish_process, log, now_ns, spawn_eggtimer, take_terminal,
                           track, untrack)
from bench.procfs import resident_by_mapping, snapshot, window_cost
from bench.stats import median, p99

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



def calibrate(bench):
    """CPU per display update of eggtimer's UI (main thread), the reference's per-tick work: sets
    bench.work_ns; returns a Result with the detail only."""
    result = Result()
    args = [str(bench.s.calibrate_s + 5), "-D", "null"]
    popen, events, term = spawn_eggtimer(bench.binary, bench.sound, args, tty=True, ui=True)
    bench.egg_args_note(args, True, ui=True)
    try:
        if not term.got_output.wait(10):
            raise HarnessError("eggtimer (UI on a pty) drew nothing")
        time.sleep(0.3)
        before = snapshot(popen.pid)
        time.sleep(bench.s.calibrate_s)
        after = snapshot(popen.pid)
    finally:
        popen.send_signal(signal.SIGTERM)
        finish_process(popen, 5)
        term.close()
    cost = window_cost(before, after)
    main = cost["threads"][0]
    work_ns = main["cpu_ns"] // max(1, main["vol"])
    bench.work_ns = work_ns
    result.detail(
        "### Per-tick work of the reference\n\n"
        f"eggtimer's UI main thread over {cost['seconds']:.2f} s on a pty: {main['vol']} wakeups, "
        f"{main['cpu_ns'] / 1e6:.3f} ms CPU, so **{work_ns / 1e3:.1f} µs of CPU per display update**. "
        "The reference loop burns this much CPU (plus rendering and writing one status line) after "
        "each 1 s sleep: the same per-tick work.\n")
    log(f"calibration: {work_ns / 1e3:.1f} us CPU per UI update")
    return result

# -------------------------------------------------------------------- timing phases

def timing_phase(bench, busy):
    """Lateness runs (short and long countdowns, headless) and reference runs, staggered so that
    no two deadlines coincide; in the idle phase also the waiting-cost runs (eggtimer with the
    UI on a pty, eggtimer headless, termdown on a pty)."""
    label = "busy" if busy else "idle"
    hogs = []
    if busy:
        for _ in range(2):
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            hogs.append(track(hog))
        bench.note_command([sys.executable, "-c", "while True: pass"], "&  # twice: the busy phase")
        time.sleep(0.5)
    plan = []  # (offset_s, kind, duration)
    step = bench.s.stagger_s
    for i in range(bench.s.runs):
        plan.append((i * step, "egg", bench.s.long_s))
        plan.append((i * step + step / 2, "egg", bench.s.short_s))
        plan.append((i * step + step / 4, "ref", bench.s.long_s))
        plan.append((i * step + 3 * step / 4, "ref", bench.s.short_s))
    if not busy:
        plan.append((0.05, "ui", bench.s.wait_s))
        if bench.termdown.argv:
            plan.append((0.0, "termdown", bench.s.wait_s))
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
                popen, events, _ = spawn_eggtimer(bench.binary, bench.sound, args)
                bench.egg_args_note(args, False)
                run = {"kind": kind, "duration": duration, "popen": popen, "events": events}
                # the first long headless run is also the headless waiting-cost run
                if not busy and duration == bench.s.long_s and not any(
                        r.get("waiting") for r in runs if r["kind"] == "egg"):
                    run["waiting"] = "headless"
                    waiters.append(_start_waiter(bench, run))
                runs.append(run)
            elif kind == "ref":
                popen = spawn_reference(duration, bench.work_ns)
                bench.note_command(["python3", "-c", "\"$REFERENCE_SCRIPT\"", str(duration), str(bench.work_ns)],
                                  "# REFERENCE_SCRIPT in bench/bench.py; args: seconds, CPU ns of work per tick")
                runs.append({"kind": kind, "duration": duration, "popen": popen})
            elif kind == "ui":
                args = [str(duration), "-D", "null"]
                popen, events, term = spawn_eggtimer(bench.binary, bench.sound, args, tty=True, ui=True)
                bench.egg_args_note(args, True, ui=True)
                run = {"kind": kind, "duration": duration, "popen": popen, "events": events,
                       "term": term, "waiting": "ui"}
                waiters.append(_start_waiter(bench, run))
                runs.append(run)
            elif kind == "termdown":
                term = Pty()
                argv = bench.termdown.argv + [str(duration)]
                popen = track(subprocess.Popen(argv, stdin=term.slave, stdout=term.slave, stderr=term.slave,
                                               env=child_env(), start_new_session=True,
                                               preexec_fn=take_terminal))
                term.close_slave()
                bench.note_command(["termdown", str(duration)], "# stdin/stdout/stderr a pty (80x24)")
                run = {"kind": kind, "duration": duration, "popen": popen, "term": term,
                       "waiting": "termdown"}
                waiters.append(_start_waiter(bench, run))
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
                    bench.problems.append(f"reference run ({run['duration']} s, {label}) printed {out!r}")
            elif run["kind"] == "egg":
                rc, err = finish_process(run["popen"], limit)
                started, finished = run["events"].first("started"), run["events"].first("finished")
                sounding = run["events"].first("sounding")
                run["rc"] = rc
                if rc != 0 or not started or not finished:
                    bench.problems.append(
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

def _start_waiter(bench, run):
    thread = threading.Thread(target=_waiting_run, args=(bench, run), daemon=True)
    thread.start()
    return thread

def _waiting_run(bench, run):
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
        run["memory_counting"] = after["memory"]
        run["mappings"] = resident_by_mapping(popen.pid)
        if run["kind"] == "ui":
            # it rings (paced, until a key): peak RSS while ringing, then a key stops it
            time.sleep(max(0, (begin + duration * 10**9 + 300_000_000 - now_ns()) / 1e9))
            if popen.poll() is None:
                run["memory_ringing"] = snapshot(popen.pid)["memory"]
                run["hwm_ringing_kb"] = run["memory_ringing"].get("hwm_kb")
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

def pause_accounting(bench):
    args = [str(bench.s.pause_countdown_s), "-D", "null", "--loops", "1"]
    popen, events, term = spawn_eggtimer(bench.binary, bench.sound, args, tty=True)
    bench.egg_args_note(args, True)
    try:
        started = events.wait("started", 10)
        if not started:
            raise HarnessError("pause run: no started event")
        time.sleep(0.1)
        for cycle in range(bench.s.pause_cycles):
            index = events.count()
            term.write_key(b" ")
            if not events.wait("paused", 5, after=index):
                raise HarnessError(f"pause run: no paused event in cycle {cycle + 1}")
            time.sleep(bench.s.pause_hold_s)
            index = events.count()
            term.write_key(b" ")
            if not events.wait("resumed", 5, after=index):
                raise HarnessError(f"pause run: no resumed event in cycle {cycle + 1}")
            time.sleep(bench.s.pause_run_s)
        finished = events.wait("finished", bench.s.pause_countdown_s + 30)
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
    result = Result("one countdown on a pty, Space to pause and resume; from the events' t_mono_ns")
    result.add("pause_error_ms", total_error / 1e6)
    result.add("pause_remaining_error_ms", worst_remaining_error / 1e6)
    result.detail(
        "### Pause accounting\n\n"
        f"One {bench.s.pause_countdown_s} s countdown on a pty, {pauses} pause/resume cycles "
        f"(Space; paused {bench.s.pause_hold_s * 1000:.0f} ms, running {bench.s.pause_run_s * 1000:.0f} ms). "
        f"Total paused {paused_total / 1e9:.3f} s (from the paused/resumed events). "
        f"finished − started − duration − paused = **{total_error / 1e6:.3f} ms** (this includes the "
        f"wake-up lateness at the deadline); the largest difference between an event's `remaining_s` "
        f"and duration − running time from the events' own timestamps: {worst_remaining_error / 1e6:.6f} ms.\n")
    return result


def lateness(bench, idle, busy):
    """The lateness and alarm-start figures of the idle and busy phases' runs (timing_phase)."""
    f = Result("finished.t − started.t − duration from --json events (CLOCK_BOOTTIME), headless runs, staggered")
    short, long_ = bench.s.short_s, bench.s.long_s

    def values(runs, kind, duration=None, key="lateness_ns"):
        return [r[key] / 1e6 for r in runs if r["kind"] == kind and key in r
                and (duration is None or r["duration"] == duration)]

    for label, runs, suffix in (("idle", idle, ""), ("busy", busy, "_busy")):
        egg_all = values(runs, "egg")
        egg_short, egg_long = values(runs, "egg", short), values(runs, "egg", long_)
        ref_short, ref_long = values(runs, "ref", short), values(runs, "ref", long_)
        f.add(f"finish_lateness_p99_ms{suffix}", p99(egg_all), egg_all)
        if egg_short and egg_long:
            f[f"lateness_growth_{short}s_to_{long_}s_ms{suffix}"] = median(egg_long) - median(egg_short)
        f[f"reference_lateness_{long_}s_ms{suffix}"] = median(ref_long)
        if ref_short and ref_long:
            f[f"reference_growth_{short}s_to_{long_}s_ms{suffix}"] = median(ref_long) - median(ref_short)
        if egg_long and ref_long:
            f[f"lateness_ratio_vs_reference{suffix}"] = median(egg_long) / median(ref_long)
        starts = values(runs, "egg", key="start_latency_ns")
        f.add(f"alarm_start_latency_ms{suffix}", p99(starts), starts, "sounding.t − deadline_t_mono_ns of each lateness run")
        f.detail(
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
    return f
