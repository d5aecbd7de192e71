"""Start-up: the median wall time of `eggtimer --version` against `mpg123 --version` (and /bin/true),
interleaved; and, as a diagnostic, callgrind's instruction count of `--version` with the dynamic
loader's share."""

import os
import re
import subprocess
import time

from bench.cost import annotate, callgrind
from bench.figures import Result
from bench.harness import HarnessError, private_folder
from bench.stats import median


def startup(bench):
    """The startup_* figures: posix_spawn + waitpid of each command, output to /dev/null."""
    f = Result("median wall time of posix_spawn + waitpid, interleaved runs")
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

    commands = {"eggtimer": [bench.binary, "--version"], "true": ["/bin/true"]}
    if bench.tools.get("mpg123"):
        commands["mpg123"] = [bench.tools["mpg123"], "--version"]
    for argv in commands.values():
        bench.note_command(argv, f"# x{bench.s.startup_runs}, interleaved, median wall time")
        timed(argv)  # warm the page cache
    times = {name: [] for name in commands}
    for _ in range(bench.s.startup_runs):
        for name, argv in commands.items():
            times[name].append(timed(argv))
    medians = {name: median(values) for name, values in times.items()}
    f.add("startup_ms_eggtimer", medians["eggtimer"] / 1e6, [v / 1e6 for v in times["eggtimer"]])
    if "mpg123" in medians:
        f.add("startup_ms_mpg123", medians["mpg123"] / 1e6, [v / 1e6 for v in times["mpg123"]])
        f["startup_ratio_vs_mpg123"] = medians["eggtimer"] / medians["mpg123"]
        net_egg = medians["eggtimer"] - medians["true"]
        net_mpg = medians["mpg123"] - medians["true"]
        f["startup_ratio_vs_mpg123_net"] = net_egg / net_mpg if net_mpg > 0 else None
    f.detail(
        "### Start-up\n\n"
        f"{bench.s.startup_runs} interleaved runs each (posix_spawn + waitpid, output to /dev/null), medians: "
        + ", ".join(f"`{' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))}` "
                    f"{medians[name] / 1e6:.3f} ms" for name, argv in commands.items())
        + ". The `net` ratio subtracts /bin/true (process creation, exec, exit).\n")
    return f



def startup_instructions(bench):
    """callgrind of `--version`: total user-space instructions and the dynamic loader's share."""
    f = Result("callgrind Ir of `--version`")
    if not bench.tools.get("valgrind"):
        return f
    rows = []
    programs = [("eggtimer", [bench.binary, "--version"])]
    if bench.tools.get("mpg123"):
        programs.append(("mpg123", [bench.tools["mpg123"], "--version"]))
    for name, argv in programs:
        total, path = callgrind(bench, f"version-{name}", argv, 1)
        costs = annotate(bench, path)
        loader = sum(c for f, c in costs.items() if f.endswith("[ld-linux-x86-64.so.2]"))
        top = sorted(costs.items(), key=lambda kv: -kv[1])[:4]
        f[f"startup_instr_{name}"] = total
        rows.append(f"| {name} | {total:,} | {loader:,} ({100 * loader / total:.0f}%) | "
                    + "; ".join(f"`{f[:90]}` {c:,}" for f, c in top).replace("|", "\\|") + " |")
    libraries = subprocess.run(["ldd", bench.binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    linked = ", ".join(re.findall(r"^\s*(\S+\.so[.\d]*)", libraries.stdout.decode(), re.M))
    f.detail(
        "### Start-up instructions (callgrind)\n\n"
        f"`--version`, user-space instructions; the dynamic loader's share is the self cost of functions in "
        f"ld-linux (relocations and symbol lookups). eggtimer loads: {linked}.\n\n"
        "| program | Ir | in the dynamic loader | largest self costs |\n|---|---|---|---|\n" + "\n".join(rows) + "\n")
    return f
