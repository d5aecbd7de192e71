"""The run's context: the binary and sound under test, the settings, the tools found, the commands
run (for the report), the harness's problems, the shared decoded sound, and the figures and
details the groups returned (`take`)."""

import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

from bench.harness import OUT_ROOT
from bench.services import Termdown


class Bench:
    """One run of the benchmark; every group's functions take it as `bench`."""

    def __init__(self, binary, settings, sound):
        self.binary = binary
        self.s = settings
        self.sound = sound
        self.out = os.path.join(OUT_ROOT, "quick" if settings.quick else "full")
        os.makedirs(self.out, exist_ok=True)
        self.figures = {}        # name -> Figure, in the order the groups returned them
        self.details = []        # markdown sections
        self.problems = []       # harness-level notes (a run that failed, a missing tool)
        self.commands = []       # exact commands run, for reproduction
        self.tools = {}
        self.termdown = Termdown()
        self.sound_seconds = None
        self.unit_raw = None     # eggtimer's capture of one pass

    def take(self, result):
        """Keeps a group's figures and details (a figure measured again replaces the first in its place)."""
        for name, figure in result.figures.items():
            self.figures[name] = figure
        self.details += result.details
        return result

    def value(self, name):
        figure = self.figures.get(name)
        return figure.value if figure is not None else None

    def note_command(self, argv, comment=None):
        text = " ".join(shlex.quote(a) for a in argv) + (f"  {comment}" if comment else "")
        text = text.replace(self.binary, "eggtimer").replace(self.sound, "Sounds/alarm_sound.mp3")
        text = text.replace(self.out + "/", "bench/out/…/")
        text = re.sub(r"--label bench-\d+-\d+", "--label bench-N", text)
        if text not in self.commands:
            self.commands.append(text)

    def egg_args_note(self, args, tty, ui=False):
        self.note_command([self.binary] + args + ([] if ui else ["--json"]) + ["--sound", self.sound],
                          "# stdin and stderr a pty (80x24), stdout a pipe" if tty else "</dev/null  # stdout a pipe")

    def check_tools(self):
        for tool in ["mpg123", "aplay", "sox", "valgrind", "callgrind_annotate"]:
            self.tools[tool] = shutil.which(tool)
            if not self.tools[tool]:
                self.problems.append(f"{tool} is missing (install: make bench installs it via scripts/ensure-deps.sh); its figures are n/a")
        if not self.termdown.ensure():
            self.problems.append(f"termdown {self.termdown.note}; its figures are n/a")

    def versions(self):
        def first_line(argv, pattern=None):
            try:
                result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                return "missing"
            lines = result.stdout.decode("utf-8", "replace").strip().splitlines()
            if pattern:
                lines = [l for l in lines if re.search(pattern, l)] or lines
            return lines[0].strip() if lines else "?"

        def deb(package):
            result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            return result.stdout.decode().strip() or "?"

        cpu = "?"
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("model name"):
                        cpu = line.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        distro = "?"
        try:
            with open("/etc/os-release") as f:
                for line in f:
                    if line.startswith("PRETTY_NAME="):
                        distro = line.split("=", 1)[1].strip().strip('"')
        except OSError:
            pass
        memory = "?"
        try:
            with open("/proc/meminfo") as f:
                memory = f"{int(f.readline().split()[1]) / 1024 / 1024:.1f} GiB"
        except (OSError, ValueError, IndexError):
            pass
        machine = {
            "nproc": str(os.cpu_count()),
            "CPU": cpu,
            "memory": memory,
            "kernel": platform.release(),
            "OS": distro,
            "timer slack / clocksource": self._clocksource(),
        }
        versions = {
            "eggtimer": first_line([self.binary, "--version"]),
            "mpg123": first_line(["mpg123", "--version"]) if self.tools.get("mpg123") else "missing",
            "aplay": first_line(["aplay", "--version"]) if self.tools.get("aplay") else "missing",
            "sox": first_line(["sox", "--version"]) if self.tools.get("sox") else "missing",
            "termdown": self.termdown.version or self.termdown.note,
            "valgrind": first_line(["valgrind", "--version"]) if self.tools.get("valgrind") else "missing",
            "python": platform.python_version() + f" ({sys.executable})",
            "alsa-lib": deb("libasound2"),
            "libmpg123": deb("libmpg123-0"),
        }
        return machine, versions

    @staticmethod
    def _clocksource():
        try:
            with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
                return "clocksource " + f.read().strip()
        except OSError:
            return "?"

