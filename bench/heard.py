"""Heard: what a listener hears, through a private PulseAudio server with a null sink whose monitor
is recorded (bench/services.py): onset after the deadline, stop as heard, the three players
ringing at once (CPU, wakeups, memory with its kinds), a `--say` timer's memory while its line
plays (issue 28) and underruns with both cores busy."""

import glob
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback

from bench.figures import Result, fmt
from bench.gapless import write_wav
from bench.harness import Events, HarnessError, finish_process, log, now_ns, track, untrack
from bench.memory import memory_breakdown
from bench.procfs import read_smaps, resident_by_section, snapshot, window_cost
from bench.services import FRAME_BYTES, PULSE_RATE, Monitor, PulseServer
from bench.stall import heard_stall
from bench.stats import median, mismatched_frames


def heard(bench):
    """Through a private PulseAudio server: heard onset, stop as heard, ringing cost, underruns under
    load and memory, eggtimer side by side with aplay -D pulse and mpg123 -o pulse. Returns a Result."""
    result = Result("a private PulseAudio null sink's monitor, parec chunks stamped on arrival (CLOCK_BOOTTIME)")
    missing = [tool for tool in ("pulseaudio", "pactl", "parec") if not shutil.which(tool)]
    if not glob.glob("/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so") + glob.glob(
            "/usr/lib/alsa-lib/libasound_module_pcm_pulse.so"):
        missing.append("ALSA's pulse plugin (libasound2-plugins)")
    if missing:
        bench.problems.append("heard figures n/a: missing " + ", ".join(missing)
                             + " (make bench installs pulseaudio pulseaudio-utils libasound2-plugins)")
        return result
    server = PulseServer()
    monitor = None
    try:
        server.start()
        bench.note_command(PulseServer.ARGV, "&  # HOME, XDG_RUNTIME_DIR, PULSE_RUNTIME_PATH in a private 0700 folder")
        monitor = Monitor(server)
        bench.note_command(Monitor.ARGV, "# read in ~10 ms chunks, each stamped with CLOCK_BOOTTIME")
        bench.heard_wav = os.path.join(bench.out, "sound-heard.wav")
        write_wav(bench, bench.heard_wav, max(4, int((bench.s.heard_cost_s + 6) / bench.sound_seconds) + 1))
        log("heard: onset")
        result.extend(heard_onset(bench, server, monitor))
        log("heard: stop")
        result.extend(heard_stop(bench, server, monitor))
        log(f"heard: ringing cost and memory ({bench.s.heard_cost_s} s)")
        result.extend(heard_cost(bench, server, monitor))
        log("heard: memory while speaking (--say)")
        result.extend(heard_speaking(bench, server, monitor, result))
        log(f"heard: underruns ringing {bench.s.heard_busy_s} s with both cores busy")
        result.extend(heard_busy(bench, server, monitor))
        log(f"heard: stall recovery ({bench.s.heard_stall_runs} server stalls in one ringing)")
        result.extend(heard_stall(bench, server, monitor))
    except Exception as error:  # reported; the other figures stand
        bench.problems.append(f"heard phase: {type(error).__name__}: {error}")
        traceback.print_exc()
    finally:
        if monitor is not None:
            monitor.stop()
        server.stop()
        server.remove()
    return result


def spawn_heard(bench, server, name, argv, json_events=False):
    """A child of the private server (its own HOME, XDG_RUNTIME_DIR, PULSE_SERVER); stdin /dev/null."""
    popen = track(subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE if json_events else subprocess.DEVNULL,
                                   stderr=subprocess.PIPE if json_events else subprocess.DEVNULL,
                                   env=server.env(name), start_new_session=True))
    return popen, (Events(popen.stdout) if json_events else None)


def heard_players(bench, ringing):
    """(name, argv, stop signal) of eggtimer and the peers on the pulse device."""
    egg = [bench.binary, "0.5" if ringing else "2", "-D", "pulse"] + ([] if ringing else ["--loops", "1"])
    players = [("eggtimer", egg + ["--json", "--sound", bench.sound], signal.SIGUSR1)]
    if bench.tools.get("aplay"):
        players.append(("aplay", ["aplay", "-q", "-D", "pulse", bench.heard_wav if ringing else bench.wav_1],
                        signal.SIGTERM))
    if bench.tools.get("mpg123"):
        players.append(("mpg123", ["mpg123", "-q", "-o", "pulse"] + (["--loop", "-1"] if ringing else [])
                        + [bench.sound], signal.SIGTERM))
    for name, argv, _ in players:
        bench.note_command(argv, "# PULSE_SERVER=the private server" + (" (the WAV: the decoded sound repeated)" if name == "aplay" else ""))
    return players


def heard_onset(bench, server, monitor):
    onsets = {}
    early = []
    players = heard_players(bench, ringing=False)
    # The same timer with a spoken line at the head of its ring (issue 28): its onset is the
    # line's first sound. `--say` speaks the given text; `--announce` the timer's own name (the
    # kitchen's timers: "Pasta is ready" for the label pasta).
    players.append(("eggtimer_say", players[0][1] + ["--say", SPOKEN_LINE], signal.SIGUSR1))
    players.append(("eggtimer_announce", players[0][1] + ["--announce", "--label", "pasta"], signal.SIGUSR1))
    for run in range(bench.s.heard_onset_runs):
        for name, argv, _ in players:
            launch_at = now_ns() + 200_000_000
            if name != "eggtimer":   # a peer is launched at its deadline
                while now_ns() < launch_at - 2_000_000:
                    time.sleep(0.001)
                while now_ns() < launch_at:
                    pass
            launched = now_ns()
            popen, events = spawn_heard(bench, server, name, argv, json_events=name.startswith("eggtimer"))
            deadline = launched
            if events is not None:
                sounding = events.wait("sounding", 20)
                if sounding:
                    deadline = int(sounding["deadline_t_mono_ns"])
            rc, err = finish_process(popen, 30)
            if rc != 0 or (events is not None and not sounding):
                bench.problems.append(f"heard onset run {run + 1}, {name}: exit {rc} {err.strip()[:200]!r}")
                continue
            monitor.wait_past(now_ns() + 60_000_000)
            loud = monitor.loud_stamps(launched)
            if not loud:
                bench.problems.append(f"heard onset run {run + 1}, {name}: nothing heard")
                continue
            if name == "eggtimer" and not starts_with_sound(bench, monitor, launched):
                # the check below must see a plain ring as one, or it proves nothing
                bench.problems.append(f"heard onset run {run + 1}: the plain ring did not start with the "
                                      "sound's own bytes, so a spoken line's presence is not checked")
            if name in SPOKEN and (starts_with_sound(bench, monitor, launched) or "not ready" in err):
                # rang without its line (a synthesis that failed or was late): not a spoken onset
                bench.problems.append(f"heard onset run {run + 1}, {name}: the plain alarm came first, "
                                      f"no spoken line ({err.strip()[:160]!r})")
                continue
            onsets.setdefault(name, []).append((loud[0] - deadline) / 1e6)
            if name == "eggtimer":
                early.append(len([t for t in loud if t < deadline]))
    f = Result()
    for name in ONSET_PLAYERS:
        values = onsets.get(name)
        f[f"heard_onset_ms_median_{name}"] = median(values) if values else "missing"
        f[f"heard_onset_ms_max_{name}"] = max(values) if values else "missing"
    egg = onsets.get("eggtimer")
    # ahead of both peers: the faster peer's median onset minus eggtimer's (single runs differ by
    # whole ~10 ms chunks, so run against run is below the monitor's resolution)
    peers = [median(vs) for n, vs in onsets.items() if not n.startswith("eggtimer") and vs]
    f["heard_onset_lead_ms_vs_peers"] = (min(peers) - median(egg)) if egg and peers else "missing"
    f["heard_loud_chunks_before_deadline"] = sum(early) if early else None
    f.detail(
        "### Heard onset (PulseAudio null sink, its monitor recorded)\n\n"
        "A private PulseAudio server with a null sink at the sound's rate (100 % volume, rewinds off), its "
        "monitor recorded by `parec --latency-msec=10` and read in ~10 ms chunks, each stamped with "
        "CLOCK_BOOTTIME on arrival; a chunk is loud when any sample is not zero. Onset = the first loud "
        "chunk's stamp − the deadline: eggtimer's own (`sounding.deadline_t_mono_ns` of `eggtimer 2 -D pulse "
        "--loops 1`; it opens the device 1.5 s before), and for the peers the instant they are launched, "
        "which is their deadline (`aplay -D pulse` the decoded sound as a WAV, `mpg123 -o pulse` the MP3). "
        f"{bench.s.heard_onset_runs} runs each, interleaved, on the same server. The monitor delivers a chunk "
        "about every 10 ms (the null sink renders in blocks of that order), so onsets are quantized to "
        "~10 ms: a difference smaller than one chunk is not resolved. `heard_onset_lead_ms_vs_peers` = the "
        "faster peer's median onset − eggtimer's median. Loud chunks that arrived "
        f"before eggtimer's deadline (the early open must not click): {sum(early) if early else 'n/a'}.\n\n"
        "| player | onset ms (each run) | median | max |\n|---|---|---|---|\n"
        + "\n".join(f"| {name} | {', '.join(fmt(v) for v in onsets.get(name, []))} | "
                    f"{fmt(median(onsets[name])) if onsets.get(name) else 'n/a'} | "
                    f"{fmt(max(onsets[name])) if onsets.get(name) else 'n/a'} |"
                    for name in ONSET_PLAYERS) + "\n"
        + f"\n`eggtimer_say` is the same timer with `--say \"{SPOKEN_LINE}\"`, `eggtimer_announce` with "
        "`--announce --label pasta` (it says its name, as the kitchen's timers do: \"Pasta is ready\"): their "
        "onset is the spoken line's first sound (the line's leading silence is trimmed). A run whose first "
        "heard bytes are the alarm sound's own start (the line was not ready, so it rang plain) is a "
        "problem, not a sample.\n")
    return f


ONSET_PLAYERS = ("eggtimer", "eggtimer_say", "eggtimer_announce", "aplay", "mpg123")
SPOKEN = ("eggtimer_say", "eggtimer_announce")


def starts_with_sound(bench, monitor, since_ns):
    """Whether the first loud bytes heard since `since_ns` are the alarm sound's own first loud
    bytes (bench.unit_raw from its first non-zero frame, 4096 bytes): a ring without its spoken line."""
    unit = bench.unit_raw
    lead = next((i for i, b in enumerate(unit) if b), 0) // FRAME_BYTES * FRAME_BYTES
    onset = monitor.first_loud_byte(since_ns)
    if onset is None:
        return False
    with monitor.cond:
        heard = bytes(monitor.data[onset:onset + 4096])
    return heard == unit[lead:lead + len(heard)]


def heard_stop(bench, server, monitor):
    stops = {}
    rows = []
    for run in range(bench.s.heard_stop_runs):
        for name, argv, stop_signal in heard_players(bench, ringing=True):
            if bench.s.quick and name != "eggtimer":
                continue
            launched = now_ns()
            popen, events = spawn_heard(bench, server, name, argv, json_events=name.startswith("eggtimer"))
            try:
                if not monitor.wait(lambda: monitor.loud_stamps(launched), 20):
                    bench.problems.append(f"heard stop run {run + 1}, {name}: nothing heard")
                    continue
                first = monitor.loud_stamps(launched)[0]
                # a beep group that begins after 0.5 s of sound: unstopped, it sounds ~250 ms
                begun = lambda: [t for t in monitor.group_starts if t > first + 500_000_000]
                if not monitor.wait(begun, 10):
                    bench.problems.append(f"heard stop run {run + 1}, {name}: no beep group began")
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
                    bench.problems.append(f"heard stop run {run + 1}: eggtimer exit {rc}, no acknowledged event")
            finally:
                if popen.poll() is None:
                    popen.kill()
                    finish_process(popen, 5)
    f = Result()
    for name in ("eggtimer", "aplay", "mpg123"):
        values = stops.get(name)
        if values:
            f[f"heard_stop_ms_median_{name}"] = median(values)
            f[f"heard_stop_ms_max_{name}"] = max(values)
        elif name == "eggtimer" or not bench.s.quick:
            f[f"heard_stop_ms_max_{name}"] = "missing"
    f.detail(
        "### Stop as heard\n\n"
        "Each player rings (`eggtimer 0.5 -D pulse`; `aplay -D pulse` of the sound repeated; `mpg123 -o pulse "
        "--loop -1`); the harness waits until a beep group begins (a loud chunk after ≥ 200 ms of silence, "
        "0.5 s or more after the first sound) and at once sends the stop: SIGUSR1 to eggtimer (acknowledge), "
        "SIGTERM to the peers. Unstopped, the group would sound ~250 ms on; the sound's longest pause is "
        "247 ms, so the recording is followed for 600 ms after the signal and the stop is the last loud "
        "chunk's stamp − the signal's. "
        + ("Quick mode: eggtimer only. " if bench.s.quick else "")
        + "\n\n| player | run | group start → signal ms | stop heard ms | silence after, ms | exit |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    return f


def heard_cost(bench, server, monitor):
    """The three players ringing at once: CPU, wakeups, peak RSS, the memory kinds and the breakdown."""
    players = heard_players(bench, ringing=True)
    running = {}
    try:
        for name, argv, stop_signal in players:
            popen, events = spawn_heard(bench, server, name, argv, json_events=name.startswith("eggtimer"))
            running[name] = (popen, events, stop_signal)
        egg = running["eggtimer"]
        if not egg[1].wait("sounding", 20):
            raise HarnessError("heard cost: eggtimer printed no sounding event")
        time.sleep(1.5)   # every stream set up and heard (the peers take ~0.9 s)
        before = {name: snapshot(p.pid) for name, (p, _, _) in running.items()}
        time.sleep(bench.s.heard_cost_s)
        after = {name: snapshot(p.pid) for name, (p, _, _) in running.items()}
        smaps = {name: read_smaps(p.pid) for name, (p, _, _) in running.items()}
        bench.program_sections = resident_by_section(running["eggtimer"][0].pid, bench.binary)
        alive = {name: p.poll() is None for name, (p, _, _) in running.items()}
    finally:
        for name, (popen, _, stop_signal) in running.items():
            if popen.poll() is None:
                popen.send_signal(stop_signal)
            finish_process(popen, 10)
    f = Result()
    lines = ["### Ringing through the server: CPU, wakeups, memory\n",
             f"The three players ring at once on the same server (eggtimer `0.5 -D pulse`, aplay of the sound "
             f"repeated, `mpg123 --loop -1`); after 1.5 s of sound, /proc/PID/task/*/{{sched,status}} over "
             f"{bench.s.heard_cost_s} s: CPU (`se.sum_exec_runtime`) and wakeups (voluntary context switches), "
             "summed over threads. VmHWM (peak RSS) read at the end of the window.\n",
             "| player | threads | CPU % of a core | wakeups/s | involuntary/s | VmHWM kB | per thread (wakeups/s, CPU %) |",
             "|---|---|---|---|---|---|---|"]
    for name in ("eggtimer", "aplay", "mpg123"):
        if name not in before:
            continue
        if not alive[name]:
            bench.problems.append(f"heard cost: {name} ended inside the window")
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
    # The memory kinds at the end of the same window (smaps_rollup): RSS counts every shared page whole.
    for name in ("eggtimer", "aplay", "mpg123"):
        kinds = after.get(name, {}).get("memory", {})
        if name in alive and alive[name] and "pss_kb" in kinds:
            how = "/proc/PID/smaps_rollup at the end of the ringing window: Rss, Pss, Private_Clean + Private_Dirty"
            f.add(f"heard_rss_mb_{name}", kinds["rss_now_kb"] / 1024, how=how)
            f.add(f"heard_pss_mb_{name}", kinds["pss_kb"] / 1024, how=how)
            f.add(f"heard_uss_mb_{name}", kinds["uss_kb"] / 1024, how=how)
    f.detail("\n".join(lines) + "\n")
    f.detail(memory_breakdown(bench, smaps))
    return f


def heard_busy(bench, server, monitor):
    hogs = [track(subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True))
            for _ in range(2)]
    window = bench.s.heard_busy_s
    name, argv, _ = heard_players(bench, ringing=True)[0]
    launched = now_ns()
    popen, events = spawn_heard(bench, server, name, argv, json_events=True)
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
    unit = bench.unit_raw
    lead = next((i for i, b in enumerate(unit) if b), 0) // FRAME_BYTES * FRAME_BYTES
    onset = monitor.first_loud_byte(launched)
    mismatched, compared = None, 0
    if onset is not None and onset >= lead:
        start = onset - lead
        length = (1 + window) * PULSE_RATE * FRAME_BYTES
        with monitor.cond:
            heard = bytes(monitor.data[start:start + length])
        compared = len(heard) // FRAME_BYTES
        mismatched = mismatched_frames(heard, unit)
    f = Result()
    f["heard_underruns_ringing_busy"] = underruns
    f["heard_mismatched_frames_ringing_busy"] = mismatched
    if hwm:
        f["heard_peak_rss_mb_eggtimer_busy"] = hwm / 1024
    f.detail(
        "### Underruns ringing with both cores busy\n\n"
        f"`eggtimer 0.5 -D pulse` rings {window} s (from 1 s after its deadline) while two busy loops "
        "hold both cores. Underruns = lines `end of underrun` the server's debug log gained in the window "
        f"(as the HeardTests count them): **{underruns}**; exit {rc} after SIGUSR1. The monitor's recording "
        f"from the first pass's start ({compared} frames) against the sound looped: {mismatched} frames "
        "differ (a recording gap on parec's side would count here too).\n")
    return f


SPOKEN_LINE = "Pasta is ready"   # about 0.9 s of speech in espeak-ng's default voice


def heard_speaking(bench, server, monitor, ringing):
    """A `--say` timer's memory while its spoken line plays (issue 28): `eggtimer 2 -D pulse --say …`,
    sampled (VmHWM; smaps_rollup's RSS, PSS, USS) 300 ms after the line's first loud chunk at the
    monitor, so inside the ~0.9 s line; the largest of each over the runs (quick 1, full 3). A run
    whose line was not ready (it rang without it) is a problem, not a sample. `ringing` holds the
    plain ringing eggtimer's kinds (heard_cost) for the comparison."""
    f = Result("VmHWM and /proc/PID/smaps_rollup of `eggtimer 2 -D pulse --say …`, 300 ms into the heard line")
    argv = [bench.binary, "2", "-D", "pulse", "--say", SPOKEN_LINE, "--json", "--sound", bench.sound]
    bench.note_command(argv, "# PULSE_SERVER=the private server; sampled 300 ms into the line as heard")
    samples, rows = [], []
    for run in range(1 if bench.s.quick else 3):
        popen, events = spawn_heard(bench, server, "eggtimer_speaking", argv, json_events=True)
        memory, heard_at, sampled = None, None, None
        try:
            sounding = events.wait("sounding", 20)
            if sounding:
                deadline = int(sounding["deadline_t_mono_ns"])
                if monitor.wait(lambda: monitor.loud_stamps(deadline), 10):
                    heard_at = monitor.loud_stamps(deadline)[0]
                    time.sleep(max(0.0, (heard_at + 300_000_000 - now_ns()) / 1e9))
                    sampled = now_ns()
                    memory = snapshot(popen.pid)["memory"]
        finally:
            if popen.poll() is None:
                popen.send_signal(signal.SIGUSR1)
            rc, err = finish_process(popen, 10)
        if memory is None or "pss_kb" not in memory or "not ready" in err:
            bench.problems.append(f"heard speaking run {run + 1}: no sample while the line played (exit {rc}, "
                                  f"{err.strip()[:200]!r})")
            continue
        samples.append(memory)
        rows.append(f"| {run + 1} | {(sampled - heard_at) / 1e6:.0f} | {memory['hwm_kb']} | {memory['rss_now_kb']} | "
                    f"{memory['pss_kb']} | {memory['uss_kb']} |")
    for key, name in (("rss_now_kb", "heard_speaking_rss_mb"), ("pss_kb", "heard_speaking_pss_mb"),
                      ("uss_kb", "heard_speaking_uss_mb"), ("hwm_kb", "heard_speaking_peak_rss_mb")):
        values = [m[key] / 1024 for m in samples]
        f.add(name, max(values) if values else None, values)
    plain = ", ".join(f"{kind} {fmt(ringing.get(f'heard_{kind.lower()}_mb_eggtimer'), 2)}" for kind in ("RSS", "PSS", "USS"))
    f.detail(
        "### Memory while speaking\n\n"
        f"`eggtimer 2 -D pulse --say \"{SPOKEN_LINE}\"` on the same server: the spoken line (espeak-ng, converted "
        "to the alarm's rate by libsamplerate, both loaded with dlopen) plays at the head of the ring. Sampled "
        "300 ms after the line's first loud chunk at the monitor (the line lasts about 0.9 s): VmHWM and "
        "smaps_rollup's RSS, PSS, USS (kB). The plain ringing eggtimer above, in MB: " + plain + ".\n\n"
        "| run | ms after the line's first chunk | VmHWM | RSS | PSS | USS |\n|---|---|---|---|---|---|\n"
        + "\n".join(rows) + "\n")
    return f
