"""The command line and the order of a run: which groups run in which mode, and where the report
goes. `make bench` / `make bench-quick` run `python3 bench/bench.py`, which calls main()."""

import argparse
import glob
import json
import os
import time
import traceback

from bench import cost, gapless, heard, kitchen, listen, memory, mqtt, startup, stop, timing, web
from bench.context import Bench
from bench.harness import REPO, HarnessError, Settings, end_all_children, log
from bench.report import report
from bench.services import Termdown


def run_all(bench):
    """Every group, in the order whose details the report shows."""
    started = time.monotonic()
    bench.check_tools()
    bench.machine, bench.version_info = bench.versions()
    log("decoding reference: eggtimer's capture of one pass")
    gapless.prepare_sound(bench)
    log("calibrating the reference's per-tick work")
    bench.take(timing.calibrate(bench))
    log(f"idle timing phase (~{bench.s.long_s + bench.s.runs * bench.s.stagger_s:.0f} s)")
    idle = timing.timing_phase(bench, busy=False)
    log(f"busy timing phase, 2 busy loops (~{bench.s.long_s + bench.s.runs * bench.s.stagger_s:.0f} s)")
    busy = timing.timing_phase(bench, busy=True)
    log("pause accounting")
    bench.take(timing.pause_accounting(bench))
    log("stop latency")
    stops, ringing_memories = stop.stop_latency(bench)
    log("memory of peers")
    mpg123_memory = memory.mpg123_ringing(bench)
    log("start-up")
    bench.take(startup.startup(bench))
    log("gapless")
    bench.take(gapless.gapless(bench))
    log("MQTT: deadline to ringing state at a subscriber")
    bench.take(mqtt.mqtt_latency(bench))
    log("kitchen: start to counting, idle wakeups, private memory")
    bench.take(kitchen.measure(bench))
    log("kitchen over HTTP: POST ack to acknowledged, memory with 20 event streams")
    bench.take(web.measure(bench))
    log("listening: spoken commands through a capture device, false wakes, answer time, CPU")
    bench.take(listen.measure(bench))
    log("heard: through a private PulseAudio server")
    bench.take(heard.heard(bench))
    log("ringing cost (callgrind)")
    bench.take(cost.ringing_cost(bench))
    log("diagnostics (callgrind): start-up instructions, UI redraw cost")
    bench.take(startup.startup_instructions(bench))
    bench.take(cost.ui_redraw_cost(bench))
    bench.take(timing.lateness(bench, idle, busy))
    bench.take(cost.waiting_cost(bench, idle))
    bench.take(stop.summary(bench, stops))
    bench.take(memory.summary(bench, idle, ringing_memories, mpg123_memory))
    bench.elapsed = time.monotonic() - started
    for leftover in glob.glob(os.path.join(bench.out, "*.raw")) + glob.glob(os.path.join(bench.out, "*.wav")):
        os.remove(leftover)


def run_only(bench, measure, needs_sound=False):
    """One group alone (--heard-only, --mqtt-only, --kitchen-only, --listen-only)."""
    started = time.monotonic()
    bench.check_tools()
    bench.machine, bench.version_info = bench.versions()
    if needs_sound:
        gapless.prepare_sound(bench)
    bench.take(measure(bench))
    bench.elapsed = time.monotonic() - started


def main():
    """The command line (bench/README.md); the exit status: 0, 2 when the harness broke, 130 interrupted."""
    parser = argparse.ArgumentParser(description="eggtimer benchmarks (bench/README.md)")
    parser.add_argument("--binary", help="the release eggtimer to measure")
    parser.add_argument("--install-peers", action="store_true",
                        help="only install the peers that come from PyPI (termdown), then exit: make runs this "
                             "before the isolated run, where no package can be fetched")
    parser.add_argument("--quick", action="store_true", help="a few seconds of every measurement; prints only")
    parser.add_argument("--sound", default=os.path.join(REPO, "Sounds", "alarm_sound.mp3"),
                        help="the MP3 that eggtimer and mpg123 loop (default: Sounds/alarm_sound.mp3)")
    parser.add_argument("--heard-only", action="store_true",
                        help="only the figures heard through a private PulseAudio server (while working on them)")
    parser.add_argument("--mqtt-only", action="store_true",
                        help="only the MQTT figures (a private mosquitto broker on loopback)")
    parser.add_argument("--kitchen-only", action="store_true",
                        help="only the kitchen's figures (eggtimer kitchen and eggtimer start, and over HTTP)")
    parser.add_argument("--listen-only", action="store_true",
                        help="only the listening figures (eggtimer kitchen --listen through a FIFO capture device)")
    parser.add_argument("--output", default=None,
                        help="where the full run writes its report (default: BENCHMARKS.md at the repository root)")
    options = parser.parse_args()
    if options.install_peers:
        termdown = Termdown()
        found = termdown.ensure()
        log(f"termdown: {termdown.note}")
        return 0 if found else 1
    if not options.binary:
        parser.error("--binary is required")
    binary = os.path.abspath(options.binary)
    sound = os.path.abspath(options.sound)
    try:
        if not os.access(binary, os.X_OK):
            raise HarnessError(f"{binary} is not an executable")
        if not os.path.exists(sound):
            raise HarnessError(f"{sound} is missing")
        settings = Settings(options.quick)
        bench = Bench(binary, settings, sound)
        if options.heard_only:
            run_only(bench, heard.heard, needs_sound=True)
        elif options.mqtt_only:
            run_only(bench, mqtt.mqtt_latency)
        elif options.kitchen_only:
            run_only(bench, lambda b: kitchen.measure(b).extend(web.measure(b)))
        elif options.listen_only:
            run_only(bench, listen.measure)
        else:
            run_all(bench)
        command_line = ("python3 bench/bench.py " + ("--quick " if options.quick else "")
                        + "--binary <release eggtimer>")
        text = report(bench, command_line)
        print(text, end="")
        if options.heard_only:
            path = os.path.join(bench.out, "BENCHMARKS-heard.md")
        elif options.mqtt_only:
            path = os.path.join(bench.out, "BENCHMARKS-mqtt.md")
        elif options.kitchen_only:
            path = os.path.join(bench.out, "BENCHMARKS-kitchen.md")
        elif options.listen_only:
            path = os.path.join(bench.out, "BENCHMARKS-listen.md")
        elif options.quick:
            path = os.path.join(bench.out, "BENCHMARKS-quick.md")
        else:
            path = options.output or os.path.join(REPO, "BENCHMARKS.md")
        with open(path, "w") as f:
            f.write(text)
        # every figure with its unit, samples and how it was measured, beside the report
        with open(os.path.join(bench.out, "figures.json"), "w") as f:
            json.dump([figure.as_json() for figure in bench.figures.values()], f, indent=1, default=str)
        log(f"wrote {os.path.relpath(path, REPO) if path.startswith(REPO) else path} in {bench.elapsed:.0f} s")
        return 0
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except Exception:
        traceback.print_exc()
        log("the harness itself failed (exit 2); no figures judged")
        return 2
    finally:
        end_all_children()
