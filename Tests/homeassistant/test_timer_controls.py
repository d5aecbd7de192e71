"""What a timer entity has (issue 45), as Home Assistant shows it through its REST and websocket APIs.

A timer started from Home Assistant shows its time left and duration as attributes of its sensors
(`remaining`, `duration` in seconds; `finishes_at` while there is a deadline). Paused, the deadline
sensor says why it has no value (`timer_state` paused) and `finishes_at` goes; a minute added while
paused grows `remaining` by 60; resumed and a minute taken off, it rings; it is snoozed, then
acknowledged. Home Assistant logs no warning or error about eggtimer throughout.
"""

import datetime
import unittest

import harness
from test_timer_life import NODE, HomeAssistantTimers, parse_time

LABEL = "ctl"


class TimerControlTests(HomeAssistantTimers):
    def command(self, words):
        """Sends `words` on the timer's command topic (not retained), as a button would."""
        self.session.broker.publish("eggtimer/%s/%s/command" % (NODE, LABEL), words, retain=False)

    def wait_attributes(self, entity_id, what, condition):
        """Waits until `condition(attributes)` holds for `entity_id`'s state (an event), returns them."""
        watch = self.ha.watch

        def attributes():
            with_attributes = [s for s in watch.history.get(entity_id, []) if s is not None]
            last = with_attributes[-1]["attributes"] if with_attributes else None
            return last if last is not None and condition(last) else None

        return watch.wait("%s: %s" % (entity_id, what), attributes)

    def test_time_left_and_duration_are_attributes_through_pause_add_and_resume(self):
        self.start("15s " + LABEL)
        entities = self.entities(LABEL)
        self.wait_state(entities["state"], "counting")
        counting = self.wait_attributes(
            entities["state"], "remaining, duration and finishes_at",
            lambda a: "remaining" in a and "duration" in a and "finishes_at" in a)
        self.assertEqual(counting["duration"], 15)
        self.assertGreater(counting["remaining"], 10)
        self.assertLessEqual(counting["remaining"], 15)
        finishes = parse_time(counting["finishes_at"])
        now = datetime.datetime.now(datetime.timezone.utc)
        self.assertLessEqual(finishes, now + datetime.timedelta(seconds=15.5))
        self.assertGreater(finishes, now)
        # The deadline sensor carries them too, with the timer's state.
        deadline = self.wait_attributes(entities["deadline"], "counting attributes",
                                        lambda a: a.get("timer_state") == "counting")
        self.assertEqual(deadline["finishes_at"], counting["finishes_at"])

        self.command("pause")
        self.wait_state(entities["state"], "paused")
        paused = self.wait_attributes(entities["state"], "paused: no finishes_at", lambda a: "finishes_at" not in a)
        self.assertEqual(paused["duration"], 15)
        self.assertLessEqual(paused["remaining"], counting["remaining"])
        why = self.wait_attributes(entities["deadline"], "timer_state paused",
                                   lambda a: a.get("timer_state") == "paused")
        self.assertNotIn("finishes_at", why)
        self.assertEqual(self.ha.state(entities["deadline"])["state"], "unknown")

        self.command("add 60")
        added = self.wait_attributes(entities["state"], "a minute more", lambda a: a["remaining"] > paused["remaining"])
        self.assertAlmostEqual(added["remaining"], paused["remaining"] + 60, delta=0.01)
        self.assertEqual(added["duration"], 75)
        self.assertEqual(self.ha.watch.states(entities["state"])[-1], "paused")

        self.command("resume")
        self.command("add -60")
        resumed = self.wait_attributes(entities["state"], "resumed a minute shorter",
                                       lambda a: "finishes_at" in a and a["duration"] == 15)
        self.assertLessEqual(resumed["remaining"], paused["remaining"])
        self.wait_state(entities["state"], "ringing")
        # Ringing: nothing left, and finishes_at says when it rang.
        rung = self.wait_attributes(entities["state"], "ringing: nothing left", lambda a: a["remaining"] == 0)
        self.assertLessEqual(parse_time(rung["finishes_at"]), datetime.datetime.now(datetime.timezone.utc))

        self.command("snooze")
        self.wait_state(entities["state"], "snoozed")
        self.wait_attributes(entities["state"], "snoozed: finishes_at again", lambda a: "finishes_at" in a)
        self.command("ack")
        self.wait_state(entities["state"], "done")
        self.wait_gone(LABEL, entities)
        self.assert_log_clean(LABEL)


if __name__ == "__main__":
    unittest.main()
