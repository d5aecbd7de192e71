"""The report: each figure against its target (PASS / MISS; targets are floors), the machine and
versions, the harness's problems, the groups' details, the commands run, and one `key=value` line
per figure at the end (what CI and the lead diff)."""

import datetime
import os

from bench.figures import fmt

TARGETS = [
    # key, target text, check (value -> bool), or None for context figures
    ("finish_lateness_p99_ms", "≤ 2", lambda v: v <= 2),
    ("finish_lateness_p99_ms_busy", "≤ 2", lambda v: v <= 2),
    ("lateness_growth_{short}s_to_{long}s_ms", "≤ 0.25 (no growth)", lambda v: v <= 0.25),
    ("lateness_growth_{short}s_to_{long}s_ms_busy", "≤ 0.25 (no growth)", lambda v: v <= 0.25),
    ("reference_lateness_{long}s_ms", "context", None),
    ("reference_lateness_{long}s_ms_busy", "context", None),
    ("reference_growth_{short}s_to_{long}s_ms", "context", None),
    ("lateness_ratio_vs_reference", "≤ 0.02 (1/50)", lambda v: v <= 0.02),
    ("lateness_ratio_vs_reference_busy", "≤ 0.02 (1/50)", lambda v: v <= 0.02),
    ("pause_error_ms", "≤ 1 (abs)", lambda v: abs(v) <= 1),
    ("pause_remaining_error_ms", "context (accounting alone)", None),
    ("alarm_start_latency_ms", "≤ 1", lambda v: v <= 1),
    ("alarm_start_latency_ms_busy", "≤ 1", lambda v: v <= 1),
    ("stop_latency_ms", "≤ 5", lambda v: v <= 5),
    ("waiting_cpu_ratio_vs_termdown", "≥ 20", lambda v: v >= 20),
    ("waiting_cpu_ratio_vs_termdown_headless", "context", None),
    ("waiting_cpu_ms_per_min_ui", "context", None),
    ("waiting_cpu_ms_per_min_headless", "context", None),
    ("waiting_cpu_ms_per_min_termdown", "context", None),
    ("wakeups_per_s_ui", "≤ 2", lambda v: v <= 2),
    ("wakeups_per_s_headless", "≤ 0.1", lambda v: v <= 0.1),
    ("wakeups_per_s_termdown", "context", None),
    ("ringing_instr_ratio_vs_mpg123", "≤ 0.02", lambda v: v <= 0.02),
    ("ringing_instr_ratio_vs_aplay", "≤ 5", lambda v: v <= 5),
    ("ringing_instr_per_audio_s_eggtimer", "context", None),
    ("ringing_instr_per_audio_s_mpg123", "context", None),
    ("ringing_instr_per_audio_s_aplay", "context", None),
    ("peak_rss_mb", "≤ 10", lambda v: v <= 10),
    ("peak_rss_mb_counting", "≤ 10", lambda v: v <= 10),
    ("peak_rss_mb_ringing", "≤ 10", lambda v: v <= 10),
    ("peak_rss_mb_mpg123", "context", None),
    ("peak_rss_mb_termdown", "context", None),
    ("pss_mb_counting", "context", None),
    ("uss_mb_counting", "context", None),
    ("pss_mb_ringing", "context", None),
    ("uss_mb_ringing", "context", None),
    ("pss_mb_mpg123", "context (peer)", None),
    ("uss_mb_mpg123", "context (peer)", None),
    ("pss_mb_termdown", "context (peer)", None),
    ("uss_mb_termdown", "context (peer)", None),
    ("startup_ratio_vs_mpg123", "≤ 1.5", lambda v: v <= 1.5),
    ("startup_ratio_vs_mpg123_net", "context (minus /bin/true)", None),
    ("startup_ms_eggtimer", "context", None),
    ("startup_ms_mpg123", "context", None),
    ("gap_samples_eggtimer", "0", lambda v: v == 0),
    ("kitchen_start_to_counting_ms_median_kitchen", "context", None),
    ("kitchen_start_to_counting_ms_max_kitchen", "context", None),
    ("kitchen_start_to_counting_ms_median_direct", "context", None),
    ("kitchen_start_to_counting_ms_max_direct", "context", None),
    ("kitchen_mqtt_start_to_counting_ms_median", "context", None),
    ("kitchen_mqtt_start_to_counting_ms_max", "context", None),
    ("kitchen_idle_wakeups_per_s", "≤ 0.1", lambda v: v <= 0.1),
    ("kitchen_uss_mb", "≤ 3", lambda v: v <= 3),
    ("kitchen_key_to_alarm_stopped_ms_median", "≤ 5", lambda v: v <= 5),
    ("kitchen_key_to_alarm_stopped_ms_max", "≤ 5", lambda v: v <= 5),
    ("kitchen_frozen_key_to_alarm_stopped_ms_max", "≤ 50", lambda v: v <= 50),
    ("kitchen_frozen_start_round_trip_ms_max", "≤ 50", lambda v: v <= 50),
    ("kitchen_killed_to_ringing_ms_max", "≤ 2000", lambda v: v <= 2000),
    ("socket_deleted_to_reachable_ms_max", "≤ 2000", lambda v: v <= 2000),
    ("listen_commands", "context", None),
    ("listen_commands_exact_pct", "≥ 95", lambda v: v >= 95),
    ("listen_durations_misheard_acted_pct", "context", None),
    ("listen_durations_misheard_acted", "context", None),
    ("listen_durations_misheard_uncaught", "0", lambda v: v == 0),
    ("listen_false_wakes_per_h_speech", "≤ 0.1", lambda v: v <= 0.1),
    ("listen_false_wakes_per_h_noise", "≤ 0.1", lambda v: v <= 0.1),
    ("listen_answer_ms_median", "≤ 1000", lambda v: v <= 1000),
    ("listen_answer_ms_max", "≤ 1000", lambda v: v <= 1000),
    ("listen_cpu_core_s_per_audio_s", "context", None),
    ("listen_cpu_core_s_per_audio_s_commands", "context", None),
    ("listen_cpu_pi4_estimate", "≤ 0.5", lambda v: v <= 0.5),
    ("kitchen_http_ack_ms_median", "≤ 50", lambda v: v <= 50),
    ("kitchen_http_ack_ms_max", "≤ 50", lambda v: v <= 50),
    ("kitchen_http_ack_under_flood_ms_median", "≤ 1000", lambda v: v <= 1000),
    ("kitchen_http_ack_under_flood_ms_max", "≤ 1000", lambda v: v <= 1000),
    ("kitchen_http_rss_mb_sse20", "context", None),
    ("kitchen_http_pss_mb_sse20", "context", None),
    ("kitchen_http_uss_mb_sse20", "context", None),
    ("kitchen_http_peak_rss_mb_sse20", "context", None),
    ("kitchen_http_rss_mb_no_streams", "context", None),
    ("kitchen_http_pss_mb_no_streams", "context", None),
    ("kitchen_http_uss_mb_no_streams", "context", None),
    ("kitchen_http_peak_rss_mb_no_streams", "context", None),
    ("kitchen_http_uss_mb_per_stream", "context", None),
    ("kitchen_http_sse_streams_live", "context (of 20)", None),
    ("mqtt_ringing_state_ms_median", "≤ 5", lambda v: v <= 5),
    ("mqtt_ringing_state_ms_max", "≤ 5", lambda v: v <= 5),
    ("heard_onset_ms_median_eggtimer", "≤ 20", lambda v: v <= 20),
    ("heard_onset_ms_median_eggtimer_say", "≤ 20", lambda v: v <= 20),
    ("heard_onset_ms_max_eggtimer_say", "context", None),
    ("heard_onset_ms_median_eggtimer_announce", "≤ 20", lambda v: v <= 20),
    ("heard_onset_ms_max_eggtimer_announce", "context", None),
    ("heard_onset_ms_max_eggtimer", "≤ 20", lambda v: v <= 20),
    ("heard_onset_ms_median_aplay", "context (peer)", None),
    ("heard_onset_ms_max_aplay", "context (peer)", None),
    ("heard_onset_ms_median_mpg123", "context (peer)", None),
    ("heard_onset_ms_max_mpg123", "context (peer)", None),
    ("heard_onset_lead_ms_vs_peers", "> 0 (medians: ahead of both peers)", lambda v: v > 0),
    ("heard_loud_chunks_before_deadline", "0", lambda v: v == 0),
    ("heard_stop_ms_median_eggtimer", "≤ 100", lambda v: v <= 100),
    ("heard_stop_ms_max_eggtimer", "≤ 100", lambda v: v <= 100),
    ("heard_ringing_cpu_pct_eggtimer", "context", None),
    ("heard_ringing_wakeups_per_s_eggtimer", "context", None),
    ("heard_underruns_ringing_busy", "0", lambda v: v == 0),
    ("stall_recovery_ms_median", "≤ 1000", lambda v: v <= 1000),
    ("stall_recovery_ms_max", "≤ 1000", lambda v: v <= 1000),
    ("heard_mismatched_frames_ringing_busy", "context", None),
    ("heard_peak_rss_ratio_vs_mpg123", "≤ 2", lambda v: v <= 2),
    ("heard_peak_rss_mb_eggtimer", "context", None),
    ("heard_peak_rss_mb_mpg123", "context", None),
    ("heard_rss_mb_eggtimer", "context", None),
    ("heard_pss_mb_eggtimer", "context", None),
    ("heard_uss_mb_eggtimer", "context", None),
    ("heard_rss_mb_mpg123", "context (peer)", None),
    ("heard_pss_mb_mpg123", "context (peer)", None),
    ("heard_uss_mb_mpg123", "context (peer)", None),
    ("heard_rss_mb_aplay", "context (peer)", None),
    ("heard_pss_mb_aplay", "context (peer)", None),
    ("heard_uss_mb_aplay", "context (peer)", None),
    ("heard_speaking_rss_mb", "context", None),
    ("heard_speaking_pss_mb", "context", None),
    ("heard_speaking_uss_mb", "context", None),
    ("heard_speaking_peak_rss_mb", "context", None),
    ("gap_samples_aplay", "context (peer)", None),
    ("gap_samples_sox", "context (peer)", None),
    ("gap_samples_mpg123", "context (peer)", None),
]


def report(bench, command_line):
    """The Markdown of the whole run (BENCHMARKS.md's layout)."""
    short, long_ = bench.s.short_s, bench.s.long_s
    rows = []
    keys = []
    passes = misses = missing = 0
    for key, target, check in TARGETS:
        key = key.format(short=short, long=long_)
        value = bench.value(key)
        if check is None:
            status = "—"
        elif value is None:
            status = "n/a"
        elif isinstance(value, str):
            status = value.upper() if value == "missing" else "n/a"
            missing += value == "missing"
        else:
            ok = check(value)
            status = "PASS" if ok else "MISS"
            passes += ok
            misses += not ok
        rows.append(f"| `{key}` | {fmt(value)} | {target} | {status} |")
        keys.append(key)
    for key in bench.figures:
        if key not in keys:
            rows.append(f"| `{key}` | {fmt(bench.value(key))} | context | — |")
            keys.append(key)
    mode = "quick" if bench.s.quick else "full"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = [f"# eggtimer benchmarks ({mode} run, {when})", ""]
    if bench.s.quick:
        text += ["Quick mode: short countdowns and few runs so that the harness cannot rot; the figures "
                 "are NOT comparable with a full run and are never judged.", ""]
    text += [
        "Generated by `make bench` (`" + command_line + "`); "
        f"the run took {bench.elapsed:.0f} s.",
        "",
        "This machine has no sound card: ALSA's `null` PCM and `file:` PCMs only, and nothing paces playback "
        "in real time. So the latencies come from eggtimer's own monotonic timestamps (`--json`, "
        "CLOCK_BOOTTIME ns), instruction counts from callgrind, CPU time and wakeups from /proc. "
        "The `heard_*` figures are the exception: they come from a private PulseAudio server with a null sink, "
        "which plays in real time, and from what its monitor records (eggtimer on `-D pulse` next to "
        "`aplay -D pulse` and `mpg123 -o pulse`, in the same run). "
        "**The ratios measured in one run are the headline; absolute times hold for this machine only.**",
        "",
        "eggtimer asks for SCHED_FIFO priority 1 and gets it where the system allows (this run: "
        + ("root, so it did" if os.geteuid() == 0 else "not root, so only with CAP_SYS_NICE or an RLIMIT_RTPRIO")
        + "). The busy-machine lateness depends on it: at normal priority, earlier runs on this machine "
        "measured p99 0.6 ms with one outlier of 4.6 ms, the scheduler's wake-up latency under full load.",
        "",
        "## Machine",
        "",
    ]
    text += [f"- {k}: {v}" for k, v in bench.machine.items()]
    text += ["", "## Versions", ""]
    text += [f"- {k}: {v}" for k, v in bench.version_info.items()]
    text += ["", f"## Results ({passes} PASS, {misses} MISS" + (f", {missing} MISSING" if missing else "") + ")", "",
             "Targets are floors. p99 is nearest-rank (with fewer than 100 samples it is the maximum). "
             "`context` rows have no target.", "",
             "| figure | value | target | status |", "|---|---|---|---|"] + rows + [""]
    if bench.problems:
        text += ["## Problems met by the harness", ""] + [f"- {p}" for p in bench.problems] + [""]
    text += ["## Details", ""] + bench.details
    text += ["## How to reproduce", "",
             "```sh",
             "make bench          # full run (< 10 min); installs valgrind mpg123 alsa-utils sox python3 python3-pip pulseaudio pulseaudio-utils libasound2-plugins; writes BENCHMARKS.md",
             "make bench-quick    # seconds; prints only (and bench/out/quick/BENCHMARKS-quick.md)",
             "# or by hand:",
             "swift build -c release --static-swift-stdlib",
             f"python3 bench/bench.py {'--quick ' if bench.s.quick else ''}--binary \"$(swift build -c release --static-swift-stdlib --show-bin-path)/eggtimer\"",
             "```", "",
             "The commands the harness ran (eggtimer = the binary under test; `bench/out/…/` = its scratch folder):",
             "", "```sh"] + bench.commands + ["```", "", "## Figures", "",
             "One `key=value` line per figure, to the end of this file (the code block is left open on "
             "purpose, so that the last lines are the figures).", "", "```text"]
    text += [f"{key}={fmt(bench.value(key), 6) if not isinstance(bench.value(key), str) else bench.value(key)}"
             for key in keys]
    return "\n".join(text) + "\n"


