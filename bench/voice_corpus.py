"""The recogniser's corpus as text (issue 46): what espeak-ng is to say, in which voice and at which
speed, and the words that must be heard. Audio is never stored: whoever measures synthesises it.

    python3 bench/voice_corpus.py [--quick] > corpus.tsv

One line per utterance, tab-separated: kind (`command` or `unrelated`), espeak-ng voice, speed in
words per minute, the text to say, the words expected (empty for unrelated speech). Commands are
said after the wake phrase with a comma, as "egg timer, seven minutes". Every duration the grammar
offers (one to ninety minutes, an hour, an hour and a half) is in it, so that misheard durations can
be counted one by one. Deterministic: the same arguments give the same lines. Python standard
library only. ListeningTests' opt-in `corpusFigures` test reads the file named by
EGGTIMER_VOICE_CORPUS and prints the figures.
"""

import sys

WAKE = "egg timer"
VOICES = ["en-us", "en", "en-us+f2", "en+m3"]
SPEEDS = [150, 190]
LABELS = ["pasta"]

SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number(value):
    """1..99 in words as the grammar spells them (CommandGrammar.number): "twenty one"."""
    if value < 20:
        return SMALL[value]
    return TENS[value // 10] + ("" if value % 10 == 0 else " " + SMALL[value % 10])


def durations(maximum=90):
    """The durations the grammar offers, in its words (CommandGrammar.durations)."""
    return ["one minute"] + [f"{number(n)} minutes" for n in range(2, maximum + 1)] + [
        "an hour", "an hour and a half"]


COMMANDS = ["soft egg", "medium egg", "hard egg", "stop", "snooze", "pause", "resume", "add a minute",
            "how long is left", "which timers are running", "cancel pasta"]

UNRELATED = [
    "The train left the station a little after nine, and by the time we reached the coast the rain had "
    "stopped. We walked along the harbour, bought some bread and cheese, and sat on the wall watching "
    "the boats come in.",
    "Put the big pan on the stove and let the water boil before the pasta goes in. Meanwhile chop the "
    "onions, fry them slowly until they are soft, then add the tomatoes and a pinch of salt.",
    "My sister called this morning to ask whether we are coming on Sunday. I told her we would try, but "
    "the car has been making a strange noise and I would rather have it looked at first.",
    "Libraries lend books, music and films for free, and many of them run reading groups for children "
    "and adults alike. The one near us also repairs bicycles on the first Saturday of every month.",
    "Set the table, would you? Two plates, two glasses, and the good knives from the drawer by the "
    "window. Dinner will be ready in about ten minutes, once the potatoes are done.",
]


def lines(quick=False):
    """The corpus's lines, without their newlines."""
    voices = VOICES[:2] if quick else VOICES
    phrases = COMMANDS + (durations()[::7] if quick else durations()) + [
        f"{LABELS[0]}, nine minutes"]
    for voice in voices:
        for speed in SPEEDS:
            for phrase in phrases:
                said = f"{WAKE}, {phrase}"
                yield "\t".join(["command", voice, str(speed), said, said.replace(",", "")])
            for paragraph in UNRELATED:
                yield "\t".join(["unrelated", voice, str(speed), paragraph, ""])


def main(argv):
    quick = "--quick" in argv[1:]
    for line in lines(quick):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
