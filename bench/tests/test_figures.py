"""bench.figures (units from names, results in order) and bench.procfs's memory kinds."""

import os
import unittest

from bench.figures import Result, fmt, unit_for
from bench.procfs import memory_kinds, memory_kinds_from_rollup
from bench.report import TARGETS

ROLLUP = """55d0c0a4e000-7ffd2b5f8000 ---p 00000000 00:00 0                          [rollup]
Rss:               13312 kB
Pss:                6144 kB
Pss_Anon:           1200 kB
Shared_Clean:      11000 kB
Shared_Dirty:          0 kB
Private_Clean:       512 kB
Private_Dirty:      1280 kB
Referenced:        13312 kB
"""


class UnitTests(unittest.TestCase):
    def test_units_come_from_the_names(self):
        table = {
            "finish_lateness_p99_ms_busy": "ms",
            "heard_onset_lead_ms_vs_peers": "ms",
            "peak_rss_mb_ringing": "MB",
            "heard_uss_mb_eggtimer": "MB",
            "heard_ringing_cpu_pct_eggtimer": "% of a core",
            "wakeups_per_s_headless": "wakeups/s",
            "kitchen_idle_wakeups_per_s": "wakeups/s",
            "ringing_instr_ratio_vs_mpg123": "ratio",
            "heard_peak_rss_ratio_vs_mpg123": "ratio",
            "ringing_instr_per_audio_s_aplay": "instructions per second of audio",
            "ui_instr_per_s": "instructions/s",
            "startup_instr_eggtimer": "instructions",
            "gap_samples_eggtimer": "frames",
            "heard_mismatched_frames_ringing_busy": "frames",
            "heard_underruns_ringing_busy": "count",
            "heard_loud_chunks_before_deadline": "count",
        }
        for name, unit in table.items():
            self.assertEqual(unit_for(name), unit, name)

    def test_every_target_names_a_unit(self):
        for name, _, _ in TARGETS:
            self.assertNotEqual(unit_for(name.format(short=10, long=60)), "", name)


class ResultTests(unittest.TestCase):
    def test_figures_keep_the_order_first_added_and_a_replacement_keeps_its_place(self):
        result = Result(how="group")
        result.add("b_ms", 1.0, samples=[1.0, 0.5])
        result["a_mb"] = 2.0
        result["b_ms"] = "missing"
        self.assertEqual(list(result.figures), ["b_ms", "a_mb"])
        self.assertEqual(result["b_ms"], "missing")
        self.assertEqual(result.figures["a_mb"].unit, "MB")
        self.assertEqual(result.figures["a_mb"].how, "group")
        self.assertIsNone(result.get("c_ms"))

    def test_extend_appends_details_in_order(self):
        first, second = Result(), Result()
        first.detail("one")
        second.detail("two")
        second.detail("")
        second["x_ms"] = 3
        self.assertEqual(first.extend(second).details, ["one", "two"])
        self.assertEqual(first["x_ms"], 3)

    def test_fmt(self):
        self.assertEqual(fmt(None), "n/a")
        self.assertEqual(fmt("missing"), "missing")
        self.assertEqual(fmt(7), "7")
        self.assertEqual(fmt(1.23456), "1.235")
        self.assertEqual(fmt(0.0001234), "1.23e-04")
        self.assertEqual(fmt(0.0), "0.000")


class MemoryKindTests(unittest.TestCase):
    def test_uss_is_private_clean_plus_private_dirty(self):
        self.assertEqual(memory_kinds_from_rollup(ROLLUP), {"rss_now_kb": 13312, "pss_kb": 6144, "uss_kb": 1792})

    def test_text_without_rss_gives_none(self):
        self.assertIsNone(memory_kinds_from_rollup("Pss: 12 kB\n"))

    def test_this_process_has_uss_at_most_pss_at_most_rss(self):
        kinds = memory_kinds(os.getpid())
        self.assertIsNotNone(kinds, "no /proc/self/smaps_rollup")
        self.assertGreater(kinds["uss_kb"], 0)
        self.assertLessEqual(kinds["uss_kb"], kinds["pss_kb"])
        self.assertLessEqual(kinds["pss_kb"], kinds["rss_now_kb"])

    def test_a_process_that_is_gone_gives_none(self):
        self.assertIsNone(memory_kinds(2 ** 22 + 12345))


if __name__ == "__main__":
    unittest.main()
