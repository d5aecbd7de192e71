"""MQTT (issue 15): deadline → the timer's `ringing` state at a subscriber on loopback, through a
private Mosquitto broker."""

import os
import shutil
import statistics
import subprocess
import threading

from bench.figures import Result
from bench.harness import finish_process, now_ns, spawn_eggtimer, track
from bench.services import private_broker


def mqtt_latency(bench):
    """Deadline -> `ringing` state at a mosquitto_sub subscriber on loopback: a private broker on a free
    port, the subscriber's lines stamped on arrival (CLOCK_BOOTTIME) by a reader thread, each run's
    deadline from eggtimer's `sounding` event (deadline_t_mono_ns). Returns a Result."""
    result = Result("mosquitto_sub -v lines stamped on arrival (CLOCK_BOOTTIME) − the sounding event's deadline_t_mono_ns")
    broker_bin, sub_bin = shutil.which("mosquitto") or "/usr/sbin/mosquitto", shutil.which("mosquitto_sub")
    if not os.access(broker_bin, os.X_OK) or not sub_bin:
        bench.problems.append("mosquitto or mosquitto_sub is missing (apt install mosquitto mosquitto-clients); "
                             "the mqtt_* figures are n/a")
        return result
    broker, port = private_broker(bench.out, "mosquitto.conf")
    sub = None
    try:
        sub_argv = [sub_bin, "-h", "127.0.0.1", "-p", str(port), "-v", "-t", "eggtimer/bench/+/state"]
        sub = track(subprocess.Popen(sub_argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True))
        arrivals = []
        arrived = threading.Condition()

        def read():
            for line in sub.stdout:
                stamp = now_ns()
                with arrived:
                    arrivals.append((stamp, line.decode("utf-8", "replace")))
                    arrived.notify_all()
        threading.Thread(target=read, daemon=True).start()
        bench.note_command(sub_argv, "# lines stamped on arrival")
        args = ["1", "-D", "null", "--loops", "1", "--mqtt", f"mqtt://127.0.0.1:{port}", "--node", "bench"]
        bench.egg_args_note(args, False)
        samples = []
        for run in range(2 if bench.s.quick else 7):
            popen, events, _ = spawn_eggtimer(bench.binary, bench.sound, args)
            sounding = events.wait("sounding", 15)
            rc, _ = finish_process(popen, 10)
            label = next((e.get("label") for e in events.all() if e.get("label")), None)
            with arrived:
                found = arrived.wait_for(lambda: any(f"/{label}/state " in t and '"state":"ringing"' in t
                                                     for _, t in arrivals), timeout=5)
                stamp = next((a for a, t in arrivals if f"/{label}/state " in t and '"state":"ringing"' in t), None)
            if not sounding or not found or rc != 0:
                bench.problems.append(f"mqtt run {run + 1}: no ringing state at the subscriber (rc {rc})")
                continue
            samples.append((stamp - sounding["deadline_t_mono_ns"]) / 1e6)
        if samples:
            result.add("mqtt_ringing_state_ms_median", statistics.median(samples), samples)
            result.add("mqtt_ringing_state_ms_max", max(samples), samples)
            result.detail("### Deadline to `ringing` state at an MQTT subscriber\n\n"
                                f"A private Mosquitto broker on 127.0.0.1, `mosquitto_sub -v` on `eggtimer/bench/+/state` "
                                f"with each line stamped on arrival; per run the arrival of the timer's `ringing` state "
                                f"minus its `deadline_t_mono_ns`: {', '.join(f'{v:.3f}' for v in samples)} ms.\n")
    finally:
        for child in (sub, broker):
            if child is not None and child.poll() is None:
                child.terminate()
                finish_process(child, 5)
    return result
