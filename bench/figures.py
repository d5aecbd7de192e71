"""A figure (name, value, unit, samples, how it was measured) and a group's result: the figures it
measured and the Markdown sections that explain them, in the order the report shows them.

A figure's name ends with its unit (`_ms`, `_mb`, `_pct`, `_per_s`, `ratio`, …): `unit_for` reads
it from there, so a new figure only needs a name that follows the rule (bench/tests/)."""

from dataclasses import dataclass, field

# (part of the name, unit), first match wins: ratios before the units of what they divide.
UNIT_RULES = [
    # The listener's (issue 46) first: "durations" holds "ratio".
    ("_misheard_acted_pct", "% of the durations said"),
    ("_misheard_acted", "count"),
    ("_misheard_uncaught", "count"),
    ("_exact_pct", "% of the commands said"),
    ("listen_cpu", "core-seconds per second of audio"),
    ("false_wakes_per_h", "per hour"),
    ("listen_commands", "count"),
    ("ratio", "ratio"),
    ("instr_per_audio_s", "instructions per second of audio"),
    ("instr_per_s", "instructions/s"),
    ("_instr_", "instructions"),
    ("wakeups_per_s", "wakeups/s"),
    ("_pct", "% of a core"),
    ("_ms", "ms"),
    ("_mb", "MB"),
    ("gap_samples", "frames"),
    ("_frames", "frames"),
    ("underruns", "count"),
    ("chunks", "count"),
    ("streams_live", "count"),
]


def unit_for(name):
    """The unit a figure's name carries (UNIT_RULES); "" when it names none."""
    for part, unit in UNIT_RULES:
        if part in name:
            return unit
    return ""


@dataclass
class Figure:
    """One measured value: a number, None (not measured: n/a) or "missing" (a peer was missing)."""

    name: str
    value: object
    unit: str = ""
    samples: list = field(default_factory=list)
    how: str = ""

    def as_json(self):
        return {"name": self.name, "value": self.value, "unit": self.unit, "samples": self.samples, "how": self.how}


class Result:
    """What one group of figures returns: figures by name (in the order first added) and details
    (Markdown sections). `how` is the group's default for its figures' `how`."""

    def __init__(self, how=""):
        self.how = how
        self.figures = {}
        self.details = []

    def add(self, name, value, samples=None, how=None, unit=None):
        """Adds (or replaces, keeping its place) the figure `name`; returns its value."""
        self.figures[name] = Figure(name, value, unit if unit is not None else unit_for(name),
                                    list(samples or []), how if how is not None else self.how)
        return value

    def __setitem__(self, name, value):
        self.add(name, value)

    def __getitem__(self, name):
        return self.figures[name].value

    def get(self, name, default=None):
        figure = self.figures.get(name)
        return figure.value if figure is not None else default

    def detail(self, text):
        if text:
            self.details.append(text)

    def extend(self, other):
        """Takes another result's figures and details after this one's."""
        for name, figure in other.figures.items():
            self.figures[name] = figure
        self.details += other.details
        return self


def fmt(value, digits=3):
    """A figure's value as the report prints it: n/a for None, strings as they are, ints whole,
    floats with `digits` decimals (tiny non-zero ones in e-notation)."""
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if value != 0 and abs(value) < 10 ** (-digits):
        return f"{value:.2e}"
    return f"{value:.{digits}f}"
