"""bench.stats: nearest-rank percentiles, medians, loudness, gap detection, mismatched frames."""

import random
import unittest

from bench.stats import gaps, is_loud, median, mismatched_frames, p99, percentile

FRAME = 4  # S16 stereo


def sound(frames, lead_frames=100, seed=7):
    """A unit: `lead_frames` of silence, then non-zero noise (never an all-zero frame)."""
    rng = random.Random(seed)
    body = bytes(rng.randrange(1, 256) for _ in range((frames - lead_frames) * FRAME))
    return bytes(lead_frames * FRAME) + body


class PercentileTests(unittest.TestCase):
    def test_nearest_rank_not_interpolated(self):
        # interpolation (numpy's default, statistics.quantiles' "inclusive") would give 2.5
        self.assertEqual(percentile([4, 1, 3, 2], 50), 2)
        self.assertEqual(percentile([1, 2, 3, 4], 75), 3)
        self.assertEqual(percentile([1, 2, 3, 4], 76), 4)

    def test_p99_of_100_samples_is_the_99th_sample(self):
        values = list(range(1, 101))
        random.Random(1).shuffle(values)
        self.assertEqual(p99(values), 99)  # interpolated: 99.01

    def test_p99_of_200_samples(self):
        self.assertEqual(p99(range(1, 201)), 198)  # rank ceil(198.0) = 198; interpolated 198.01

    def test_p99_with_fewer_than_100_samples_is_the_maximum(self):
        for count in (1, 2, 7, 50, 99):
            values = [float(v) / 3 for v in range(count)]
            self.assertEqual(p99(values), max(values), count)

    def test_a_percentile_is_always_a_sample(self):
        rng = random.Random(3)
        for _ in range(200):
            values = [rng.uniform(-5, 5) for _ in range(rng.randrange(1, 60))]
            for percent in (1, 25, 50, 90, 99, 100):
                self.assertIn(percentile(values, percent), values)

    def test_empty_gives_none(self):
        self.assertIsNone(p99([]))
        self.assertIsNone(percentile([], 50))
        self.assertIsNone(median([]))

    def test_percent_out_of_range_is_refused(self):
        for percent in (0, 101, -1, 99.5, "99"):
            with self.assertRaises(ValueError):
                percentile([1, 2], percent)

    def test_median(self):
        self.assertEqual(median([3, 1, 2]), 2)
        self.assertEqual(median([4, 1, 3, 2]), 2.5)


class LoudnessTests(unittest.TestCase):
    def test_silence_is_exact_zeros(self):
        self.assertFalse(is_loud(bytes(441 * FRAME)))
        self.assertTrue(is_loud(bytes(440 * FRAME) + b"\x01\x00\x00\x00"))
        self.assertFalse(is_loud(b""))


class GapTests(unittest.TestCase):
    unit = sound(6000)

    def test_back_to_back_copies_have_no_gap(self):
        result = gaps(self.unit, self.unit * 3, 3, FRAME)
        self.assertEqual(result["gap_frames"], 0)
        self.assertEqual(result["junction_frames"], [0, 0, 0])
        self.assertEqual(result["trailing_frames"], 0)
        self.assertEqual(result["mismatched_copies"], 0)
        self.assertEqual(result["captured_frames"], 18000)
        self.assertEqual(result["expected_frames"], 18000)

    def test_silence_between_copies_and_padding_after_are_counted(self):
        captured = self.unit + bytes(37 * FRAME) + self.unit + self.unit + bytes(5 * FRAME)
        result = gaps(self.unit, captured, 3, FRAME)
        self.assertEqual(result["junction_frames"], [0, 37, 0])
        self.assertEqual(result["trailing_frames"], 5)
        self.assertEqual(result["gap_frames"], 42)

    def test_leading_silence_before_the_first_copy_is_a_gap(self):
        result = gaps(self.unit, bytes(11 * FRAME) + self.unit * 2, 2, FRAME)
        self.assertEqual(result["junction_frames"], [11, 0])
        self.assertEqual(result["gap_frames"], 11)

    def test_a_changed_sample_after_the_probe_is_a_mismatched_copy(self):
        changed = bytearray(self.unit)
        changed[-8] ^= 0xFF
        result = gaps(self.unit, self.unit + bytes(changed), 2, FRAME)
        self.assertEqual(result["gap_frames"], 0)
        self.assertEqual(result["mismatched_copies"], 1)

    def test_a_missing_copy_is_an_error_not_a_count(self):
        result = gaps(self.unit, self.unit * 2, 3, FRAME)
        self.assertIsNone(result["gap_frames"])
        self.assertIn("copy 3 of 3", result["error"])


class MismatchTests(unittest.TestCase):
    unit = sound(3000, lead_frames=10)

    def test_the_loop_heard_whole_matches(self):
        self.assertEqual(mismatched_frames(self.unit * 2 + self.unit[:400], self.unit), 0)

    def test_each_changed_frame_counts_once(self):
        heard = bytearray(self.unit * 3)
        heard[5 * FRAME] ^= 1
        heard[len(self.unit) + 9 * FRAME + 2] ^= 1
        heard[len(self.unit) + 9 * FRAME + 3] ^= 1  # the same frame
        self.assertEqual(mismatched_frames(bytes(heard), self.unit), 2)

    def test_a_partial_frame_at_the_end_is_ignored(self):
        self.assertEqual(mismatched_frames(self.unit + b"\x07\x07", self.unit), 0)


if __name__ == "__main__":
    unittest.main()
