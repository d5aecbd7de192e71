"""Gapless looping: N passes captured through `file:'X',raw` against N copies of eggtimer's own
capture of one pass, for eggtimer, aplay (the WAV N times), `sox … repeat N-1` and
`mpg123 --loop N`. Also the decoded sound the other groups share (prepare_sound)."""

import os
import subprocess
import wave

from bench.figures import Result
from bench.harness import HarnessError
from bench.stats import gaps


def capture_eggtimer(bench, loops, path):
    """The bytes eggtimer plays in `loops` passes to a raw file PCM at `path`."""
    if os.path.exists(path):
        os.remove(path)
    args = ["0.01", "-D", f"file:'{path}',raw", "--loops", str(loops)]
    argv = [bench.binary] + args + ["--json", "--sound", bench.sound]
    bench.note_command(argv, "</dev/null")
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            timeout=120)
    if result.returncode != 0 or not os.path.exists(path):
        raise HarnessError(f"eggtimer capture ({loops} loops) failed: rc {result.returncode}, "
                           f"{result.stderr.decode('utf-8', 'replace').strip()[:300]}")
    with open(path, "rb") as f:
        return f.read()

def prepare_sound(bench):
    """eggtimer's own capture of one pass: the decoded sound (S16LE, 2 ch, 44.1 kHz here)."""
    bench.unit_raw = capture_eggtimer(bench, 1, os.path.join(bench.out, "egg-1.raw"))
    bench.rate, bench.channels = 44100, 2
    if bench.tools.get("mpg123"):
        info = subprocess.run(["mpg123", "-q", "-s", bench.sound], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        bench.mpg123_decode_matches = info.stdout == bench.unit_raw
    else:
        bench.mpg123_decode_matches = None
    bench.frame_bytes = 2 * bench.channels
    bench.sound_seconds = len(bench.unit_raw) / bench.frame_bytes / bench.rate
    bench.wav_1 = os.path.join(bench.out, "sound-1.wav")
    write_wav(bench, bench.wav_1, 1)

def write_wav(bench, path, copies):
    """A WAV of `copies` copies of the decoded sound (prepare_sound) at `path`."""
    with wave.open(path, "wb") as w:
        w.setnchannels(bench.channels)
        w.setsampwidth(2)
        w.setframerate(bench.rate)
        for _ in range(copies):
            w.writeframesraw(bench.unit_raw)

def gapless(bench):
    """The gap_samples_* figures: frames inserted before each copy plus frames after the last."""
    f = Result("N passes through `file:'PATH',raw` against N copies of one pass (bench.stats.gaps)")
    n = bench.s.gap_loops
    results = {}
    egg = capture_eggtimer(bench, n, os.path.join(bench.out, f"egg-{n}.raw"))
    results["eggtimer"] = gaps(bench.unit_raw, egg, n, bench.frame_bytes)
    results["eggtimer"]["identical"] = egg == bench.unit_raw * n
    peers = {}
    if bench.tools.get("aplay"):
        peers["aplay"] = ["aplay", "-q", "-D", "file:'{out}',raw"] + [bench.wav_1] * n
    if bench.tools.get("sox"):
        peers["sox"] = ["sox", "-q", bench.wav_1, "-t", "alsa", "file:'{out}',raw", "repeat", str(n - 1)]
    if bench.tools.get("mpg123"):
        peers["mpg123"] = ["mpg123", "-q", "--loop", str(n), "-o", "alsa", "-a", "file:'{out}',raw", bench.sound]
    for name, template in peers.items():
        path = os.path.join(bench.out, f"{name}-{n}.raw")
        if os.path.exists(path):
            os.remove(path)
        argv = [a.replace("{out}", path) for a in template]
        if name == "aplay":
            bench.note_command(argv[:4] + [bench.wav_1], f"# ... the WAV {n} times")
        else:
            bench.note_command(argv)
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        if result.returncode != 0 or not os.path.exists(path):
            results[name] = {"gap_frames": None, "error": f"rc {result.returncode}: "
                             + result.stderr.decode("utf-8", "replace").strip()[:200]}
            continue
        with open(path, "rb") as captured_file:
            captured = captured_file.read()
        results[name] = gaps(bench.unit_raw, captured, n, bench.frame_bytes)
        results[name]["identical"] = captured == bench.unit_raw * n
        os.remove(path)
    for name in ["eggtimer", "aplay", "sox", "mpg123"]:
        if name in results:
            f[f"gap_samples_{name}"] = results[name].get("gap_frames")
        else:
            f[f"gap_samples_{name}"] = "missing"
    lines = ["### Gapless looping\n",
             f"{n} passes captured through `file:'PATH',raw` and compared with {n} copies of eggtimer's own "
             f"capture of one pass ({len(bench.unit_raw) // bench.frame_bytes} frames = {bench.sound_seconds:.4f} s; "
             + ("byte-identical to `mpg123 -s`" if bench.mpg123_decode_matches else
                "NOT identical to `mpg123 -s`" if bench.mpg123_decode_matches is False else "mpg123 missing")
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
    f.detail("\n".join(lines) + "\n")
    return f

