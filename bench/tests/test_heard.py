"""bench.heard.starts_with_sound: telling a ring that began with its spoken line from a plain one, on
a monitor recording built in memory (no parec)."""

import random
import threading
import unittest
from types import SimpleNamespace

from bench.heard import starts_with_sound
from bench.services import Monitor

FRAME = 4  # S16 stereo


def noise(frames, seed):
    rng = random.Random(seed)
    return bytes(rng.randrange(1, 256) for _ in range(frames * FRAME))


def recording(parts, chunk_bytes=1764):
    """A Monitor holding `parts` (bytes) as if parec had delivered them in chunks stamped 1, 2, …"""
    monitor = object.__new__(Monitor)
    monitor.data = bytearray(b"".join(parts))
    monitor.cond = threading.Condition()
    monitor.chunks = []
    for index, offset in enumerate(range(0, len(monitor.data), chunk_bytes)):
        chunk = bytes(monitor.data[offset:offset + chunk_bytes])
        monitor.chunks.append((index + 1, offset, len(chunk), chunk.count(0) != len(chunk)))
    return monitor


class StartsWithSoundTests(unittest.TestCase):
    def setUp(self):
        # the sound: 300 frames of silence, then its beeps
        self.bench = SimpleNamespace(unit_raw=bytes(300 * FRAME) + noise(3000, seed=1))
        self.silence = bytes(500 * FRAME)

    def test_a_plain_ring_starts_with_the_sound(self):
        monitor = recording([self.silence, self.bench.unit_raw, self.bench.unit_raw])
        self.assertTrue(starts_with_sound(self.bench, monitor, 0))

    def test_a_ring_led_by_a_spoken_line_does_not(self):
        speech = noise(2000, seed=2)
        monitor = recording([self.silence, speech, self.bench.unit_raw])
        self.assertFalse(starts_with_sound(self.bench, monitor, 0))

    def test_a_line_differing_only_late_in_the_probe_is_still_a_line(self):
        # the first 1000 bytes equal the sound's start, the rest of the 4096-byte probe does not
        sound_start = self.bench.unit_raw[300 * FRAME:]
        speech = sound_start[:1000] + noise(2000, seed=3)
        monitor = recording([self.silence, speech, self.bench.unit_raw])
        self.assertFalse(starts_with_sound(self.bench, monitor, 0))

    def test_nothing_heard_is_not_a_plain_ring(self):
        monitor = recording([self.silence, self.silence])
        self.assertFalse(starts_with_sound(self.bench, monitor, 0))

    def test_only_chunks_since_the_instant_count(self):
        # an earlier player's sound, then silence, then this ring's spoken line
        speech = noise(2000, seed=4)
        earlier = self.bench.unit_raw + bytes(2000 * FRAME)
        monitor = recording([earlier, speech], chunk_bytes=4 * FRAME * 100)
        speech_chunk = next(stamp for stamp, offset, _, _ in monitor.chunks if offset >= len(earlier))
        self.assertTrue(starts_with_sound(self.bench, monitor, 0))
        self.assertFalse(starts_with_sound(self.bench, monitor, speech_chunk))


if __name__ == "__main__":
    unittest.main()
