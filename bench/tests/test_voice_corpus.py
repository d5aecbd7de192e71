"""The recogniser's corpus texts (bench/voice_corpus.py)."""

import unittest

from bench import voice_corpus


class VoiceCorpusTests(unittest.TestCase):
    def test_numbers_are_spelled_as_the_grammar_spells_them(self):
        self.assertEqual([voice_corpus.number(n) for n in (1, 7, 15, 20, 21, 50, 99)],
                         ["one", "seven", "fifteen", "twenty", "twenty one", "fifty", "ninety nine"])

    def test_every_duration_is_said_by_every_voice_at_every_speed(self):
        lines = [line.split("\t") for line in voice_corpus.lines()]
        commands = [fields for fields in lines if fields[0] == "command"]
        for duration in voice_corpus.durations():
            speakers = {(voice, speed) for _, voice, speed, _, heard in commands
                        if heard == f"egg timer {duration}"}
            self.assertEqual(len(speakers), len(voice_corpus.VOICES) * len(voice_corpus.SPEEDS), duration)

    def test_lines_have_five_fields_and_unrelated_speech_no_wake_phrase(self):
        for line in voice_corpus.lines():
            kind, voice, speed, said, heard = line.split("\t")
            self.assertIn(kind, ("command", "unrelated"))
            self.assertTrue(int(speed) > 0 and voice)
            if kind == "unrelated":
                self.assertEqual(heard, "")
                self.assertNotIn("egg", said.lower())
                self.assertNotIn("timer", said.lower())
            else:
                self.assertEqual(heard, said.replace(",", ""))

    def test_the_same_arguments_give_the_same_lines(self):
        self.assertEqual(list(voice_corpus.lines()), list(voice_corpus.lines()))
        self.assertLess(len(list(voice_corpus.lines(quick=True))), len(list(voice_corpus.lines())))


if __name__ == "__main__":
    unittest.main()
