"""Cost: what waiting and ringing cost. Waiting: CPU and wakeups of a 60 s countdown (eggtimer with
the UI on a pty, headless, termdown) from /proc, over the idle timing phase's runs. Ringing:
callgrind's instruction counts for N and M passes to `null` (eggtimer, mpg123, aplay), the
difference per second of audio. Diagnostic: the UI's instructions per second of countdown."""

import os
import re
import subprocess
import threading

from bench.figures import Result
from bench.gapless import write_wav
from bench.harness import HarnessError, Pty, child_env, finish_process, take_terminal, track, unique_label



def callgrind(bench, name, argv, loops, stdin_devnull=True):
    outfile = os.path.join(bench.out, f"callgrind.{name}.{loops}")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={outfile}"] + argv
    bench.note_command(command)
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

def annotate(bench, path, inclusive=False):
    """Self (or inclusive) cost per function from callgrind_annotate."""
    if not bench.tools.get("callgrind_annotate"):
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

def ui_redraw_cost(bench):
    """callgrind of eggtimer with the UI on a pty: two countdowns, the difference per second of UI."""
    result = Result("callgrind Ir of two UI countdowns on a pty, the difference per second")
    if not bench.tools.get("valgrind"):
        return result
    short, long_ = (1, 3) if bench.s.quick else (4, 14)
    results = {}

    def one(duration):
        term = Pty()
        out = os.path.join(bench.out, f"callgrind.ui.{duration}")
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", bench.binary, str(duration),
                "-D", "null", "--loops", "1"] + unique_label() + ["--sound", bench.sound]
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
    bench.note_command(["valgrind", "--tool=callgrind", bench.binary, str(long_), "-D", "null", "--loops", "1",
                       "--sound", bench.sound], f"# and {short} s; stdin/stderr a pty (80x24), stdout /dev/null")
    threads = [threading.Thread(target=one, args=(d,)) for d in (short, long_)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(results) != 2:
        bench.problems.append("UI callgrind runs failed")
        return result
    seconds = long_ - short
    per_second = (results[long_][0] - results[short][0]) / seconds
    result["ui_instr_per_s"] = per_second
    a, b = annotate(bench, results[short][1]), annotate(bench, results[long_][1])
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
        inclusive[label] = annotate(bench, path, inclusive=True)
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
    result.detail("\n".join(lines) + "\n")
    return result

def ringing_cost(bench):
    """The ringing_instr_* figures: callgrind Ir of two pass counts, the difference per second of audio."""
    result = Result("callgrind Ir, all threads, of M minus N passes to the null PCM, per second of audio")
    if not bench.tools.get("valgrind"):
        for key in ["ringing_instr_ratio_vs_mpg123", "ringing_instr_ratio_vs_aplay"]:
            result[key] = "missing"
        return result
    small, large = bench.s.cg_loops
    audio_seconds = (large - small) * bench.sound_seconds
    jobs = []
    for loops in (small, large):
        jobs.append(("eggtimer", loops, [bench.binary, "0.01", "--json", "-D", "null", "--loops", str(loops),
                                         "--sound", bench.sound] + unique_label()))
        if bench.tools.get("mpg123"):
            jobs.append(("mpg123", loops, ["mpg123", "-q", "--loop", str(loops), "-o", "alsa", "-a", "null",
                                           bench.sound]))
        if bench.tools.get("aplay"):
            wav = os.path.join(bench.out, f"sound-{loops}.wav")
            write_wav(bench, wav, loops)
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
                results[(name, loops)] = callgrind(bench, name, argv, loops)
            except Exception as error:
                errors.append(str(error))

    queue = list(jobs)
    threads = [threading.Thread(target=worker, args=(queue,)) for _ in range(2)]  # 2 cores
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for loops in (small, large):
        path = os.path.join(bench.out, f"sound-{loops}.wav")
        if os.path.exists(path):
            os.remove(path)
    if errors:
        bench.problems += errors
    per_second = {}
    for name in ("eggtimer", "mpg123", "aplay"):
        if (name, small) in results and (name, large) in results:
            delta = results[(name, large)][0] - results[(name, small)][0]
            per_second[name] = delta / audio_seconds
            result[f"ringing_instr_per_audio_s_{name}"] = per_second[name]
    egg = per_second.get("eggtimer")
    result["ringing_instr_ratio_vs_mpg123"] = (
        egg / per_second["mpg123"] if egg is not None and "mpg123" in per_second else "missing")
    result["ringing_instr_ratio_vs_aplay"] = (
        egg / per_second["aplay"] if egg is not None and "aplay" in per_second else "missing")

    lines = ["### Ringing cost (callgrind)\n",
             f"User-space instructions (callgrind `Ir`, all threads) for {small} and {large} passes of the "
             f"{bench.sound_seconds:.3f} s sound to the `null` PCM; the difference covers {audio_seconds:.1f} s of "
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
            a = annotate(bench, results[(name, small)][1])
            b = annotate(bench, results[(name, large)][1])
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
    result.detail("\n".join(lines) + "\n")
    return result



def waiting_cost(bench, idle):
    """The waiting_* and wakeups_* figures from the idle phase's waiting runs (bench/timing.py)."""
    f = Result("/proc/PID/task/*/{sched,status} summed over threads, 0.3 s after the start to 30 ms before the deadline")
    # waiting cost
    waiting = {r["waiting"]: r for r in idle if r.get("waiting")}
    lines = ["### Waiting cost\n",
             "CPU time (`se.sum_exec_runtime` from /proc/PID/task/*/sched) and wakeups (voluntary context "
             "switches from /proc/PID/task/*/status), summed over threads, from 0.3 s after the start to 30 ms "
             f"before the deadline of a {bench.s.wait_s} s countdown (so eggtimer's pre-opening of the device "
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
                lines.append(f"| termdown | {bench.termdown.note} | | | | | | | |")
            continue
        if "cost" not in run:
            lines.append(f"| {name} | failed: {run.get('error')} | | | | | | | |")
            bench.problems.append(f"waiting-cost run {name} failed: {run.get('error')}")
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
    f.detail("\n".join(lines) + "\n")
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
        f["waiting_cpu_ratio_vs_termdown"] = "missing" if not bench.termdown.argv else None
    if "termdown" in rates and "headless" in rates:
        f["waiting_cpu_ratio_vs_termdown_headless"] = rates["termdown"][0] / rates["headless"][0]

    return f
