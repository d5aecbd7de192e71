"""The statistics every figure uses, pure functions of their arguments (bench/tests/test_stats.py).

Percentiles are nearest-rank (no interpolation): the p-th percentile of n samples is the sample at
rank ceil(p·n/100) of the sorted samples, so it is always a measured value, and with fewer than 100
samples the 99th is the maximum. The report says so under its results table."""

import statistics


def percentile(values, percent):
    """Nearest-rank `percent`-th percentile (an int, 1 to 100) of `values`; None when empty.

    rank = ceil(percent · n / 100) in integers, at least 1: [1, 2, 3, 4] gives 2 for the 50th
    (interpolation would give 2.5) and 4 for the 99th."""
    if not isinstance(percent, int) or not 1 <= percent <= 100:
        raise ValueError(f"percent must be an int from 1 to 100, not {percent!r}")
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, -(-percent * len(ordered) // 100))
    return ordered[rank - 1]


def p99(values):
    """Nearest-rank 99th percentile (with fewer than 100 samples: the maximum); None when empty."""
    return percentile(values, 99)


def median(values):
    """The median (the mean of the middle two for an even count); None when empty."""
    return statistics.median(values) if values else None


def is_loud(chunk):
    """Whether a chunk of S16 samples holds any non-zero byte (at 100 % volume and the sound's own
    rate a server's silence is exact zeros)."""
    return chunk.count(0) != len(chunk)


def gaps(unit, captured, copies, frame_bytes):
    """Frames of gap or padding between and after `copies` copies of `unit` in `captured`.

    Each copy is found by a probe of up to 16 384 bytes from the unit's first non-zero frame; the
    gap is the bytes before each copy's start beyond the previous copy's end, plus what trails the
    last copy. Returns {"gap_frames", "junction_frames" (one per copy), "trailing_frames",
    "mismatched_copies" (copies not byte-identical to the unit), "captured_frames",
    "expected_frames"}, or {"gap_frames": None, "error", "captured_frames"} when a copy is missing."""
    fb = frame_bytes
    nonzero = next((i for i, b in enumerate(unit) if b), 0) // fb * fb
    probe = unit[nonzero:nonzero + 16384]
    pos = 0
    gap_bytes = 0
    mismatched = 0
    junctions = []
    for copy in range(copies):
        found = captured.find(probe, pos + nonzero)
        if found < 0:
            return {"gap_frames": None, "error": f"copy {copy + 1} of {copies} not found",
                    "captured_frames": len(captured) // fb}
        start = found - nonzero
        gap = start - pos
        junctions.append(gap // fb)
        gap_bytes += gap
        segment = captured[start:start + len(unit)]
        if segment != unit:
            mismatched += 1
        pos = start + len(unit)
    trailing = len(captured) - pos
    return {"gap_frames": (gap_bytes + trailing) // fb, "junction_frames": junctions,
            "trailing_frames": trailing // fb, "mismatched_copies": mismatched,
            "captured_frames": len(captured) // fb, "expected_frames": copies * len(unit) // fb}


def mismatched_frames(heard, unit):
    """Frames (4 bytes: S16 stereo) of `heard` that differ from `unit` looped from its start, over
    the whole frames of `heard`; 0 when they are equal. - Precondition: len(unit) is a multiple of 4."""
    frames = len(heard) // 4
    heard = heard[:frames * 4]
    expected = (unit * (len(heard) // len(unit) + 1))[:len(heard)]
    if heard == expected:
        return 0
    a, b = memoryview(heard).cast("I"), memoryview(expected).cast("I")
    unit_frames = len(unit) // 4
    mismatched = 0
    for pass_start in range(0, frames, unit_frames):
        end = min(frames, pass_start + unit_frames)
        if a[pass_start:end] != b[pass_start:end]:
            mismatched += sum(1 for i in range(pass_start, end) if a[i] != b[i])
    return mismatched
