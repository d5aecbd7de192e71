"""bench.web's readers of the kitchen's HTTP API: the pairing line, the session cookie, the timer
paths, the Server-Sent Events stream."""

import unittest

from bench.web import SSEReader, pairing_code, session_cookie, timer_path

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n"


class PairingCodeTests(unittest.TestCase):
    def test_the_code_of_the_documented_line(self):
        self.assertEqual(pairing_code("pairing code 042917, valid for 10 minutes (5 tries)\n"), "042917")

    def test_one_minute_one_try(self):
        self.assertEqual(pairing_code("pairing code 123456, valid for 1 minute (1 try)"), "123456")

    def test_other_lines_give_none(self):
        for text in ("", "eggtimer: kitchen --pair: no kitchen runs: start eggtimer kitchen first",
                     "pairing code , valid for 10 minutes (5 tries)", "pairing code 12a456, valid for 10 minutes (5 tries)",
                     "unpaired 2 devices"):
            self.assertIsNone(pairing_code(text), text)


class SessionCookieTests(unittest.TestCase):
    def test_the_value_without_attributes(self):
        self.assertEqual(session_cookie(["eggtimer_session=ab12; Path=/; HttpOnly; SameSite=Strict"]), "ab12")

    def test_other_cookies_are_not_it(self):
        self.assertIsNone(session_cookie(["eggtimer_sessionx=1; Path=/", "other=eggtimer_session"]))

    def test_the_last_one_set_wins_and_an_empty_one_removes(self):
        self.assertEqual(session_cookie(["eggtimer_session=old", "eggtimer_session=\"new\"; Path=/"]), "new")
        self.assertIsNone(session_cookie(["eggtimer_session=old", "eggtimer_session=; Max-Age=0"]))


class TimerPathTests(unittest.TestCase):
    def test_segments_are_encoded_whole(self):
        self.assertEqual(timer_path("pi-kitchen", "pasta", "ack"), "/api/timers/pi-kitchen/pasta/ack")
        self.assertEqual(timer_path("a/b", "soft egg+1", "ack"), "/api/timers/a%2Fb/soft%20egg%2B1/ack")
        self.assertEqual(timer_path("n", "..", "cancel"), "/api/timers/n/../cancel")  # the kitchen refuses it: 404


class SSEReaderTests(unittest.TestCase):
    def test_events_split_across_reads(self):
        reader = SSEReader()
        wire = HEAD + b"event: timers\ndata: {\"timers\":[]}\n\n: keep-alive\n\nevent: timers\ndata: {\"a\":1}\n\n"
        events = []
        for index in range(0, len(wire), 7):
            events += reader.feed(wire[index:index + 7])
        self.assertEqual(reader.status, 200)
        self.assertEqual(events, [("timers", "{\"timers\":[]}"), ("timers", "{\"a\":1}")])

    def test_crlf_lines_even_split_between_cr_and_lf(self):
        reader = SSEReader()
        self.assertEqual(reader.feed(HEAD + b"event: timers\r\ndata: x\r\n\r"), [])
        self.assertEqual(reader.feed(b"\n"), [("timers", "x")])

    def test_chunk_size_lines_and_unnamed_events(self):
        reader = SSEReader()
        body = b"data: one\ndata: two\n\n"
        wire = HEAD + f"{len(body):x}\r\n".encode() + body + b"\r\n" + b"0\r\n\r\n"
        self.assertEqual(reader.feed(wire), [("message", "one\ntwo")])

    def test_a_refusal_has_its_status_and_no_events(self):
        reader = SSEReader()
        events = reader.feed(b"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n\r\n{\"error\":\"not paired\"}")
        self.assertEqual((reader.status, events), (401, []))


if __name__ == "__main__":
    unittest.main()
