"""Stop latency: a key byte written to the pty master while a `-D null` alarm rings (paced) until
eggtimer's `audio_stopped_t_mono_ns` (snd_pcm_drop returned), p99 of the runs. The runs also
sample the ringing process's memory (bench/memory.py)."""

import time

from bench.figures import Result, fmt
from bench.harness import finish_process, spawn_eggtimer
from bench.procfs import snapshot
from bench.stats import p99


def stop_latency(bench):
    """Runs the stop runs: (samples: dicts of stop_ns, key_to_event_ns, start_ns; memories: the
    ringing process's snapshot memory, VmHWM and the kinds, 0.2–0.4 s into each ring)."""
    samples, memories, problems = [], [], []
    args = ["0.5", "-D", "null"]
    bench.egg_args_note(args, True)
    for run in range(bench.s.stop_runs):
        popen, events, term = spawn_eggtimer(bench.binary, bench.sound, args, tty=True)
        try:
            sounding = events.wait("sounding", 15)
            if not sounding:
                problems.append(f"stop run {run + 1}: no sounding event")
                continue
            time.sleep(0.2 + 0.037 * run)
            memories.append(snapshot(popen.pid)["memory"])
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
    bench.problems += problems
    return samples, memories


def summary(bench, stops):
    """The stop_latency_ms figure and its detail from stop_latency's samples."""
    f = Result("a key byte to the pty master → audio_stopped_t_mono_ns, `eggtimer 0.5 -D null` ringing")
    stop_values = [s["stop_ns"] / 1e6 for s in stops]
    f.add("stop_latency_ms", p99(stop_values), stop_values)
    f.detail(
        "### Stop latency\n\n"
        f"{len(stops)} runs of `eggtimer 0.5 -D null` (ringing paced to real time) on a pty; a key byte "
        "written to the pty master 0.2–0.4 s into the ringing; latency = `audio_stopped_t_mono_ns` "
        "(snd_pcm_drop returned) − the instant just before the write. ms per run: "
        + ", ".join(fmt(x) for x in stop_values)
        + ". Key → `acknowledged` event: "
        + ", ".join(fmt(s["key_to_event_ns"] / 1e6) for s in stops) + " ms.\n")
    return f
