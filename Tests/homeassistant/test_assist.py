"""Assist (issue 45): eggtimer's sentences and intent_script (dist/homeassistant, loaded by the
harness as a user would) run through Home Assistant's conversation API with typed text
(POST /api/conversation/process): start an egg, say how long is left in words (from the kitchen's
Next due sensor, not its ISO time), and stop the alarm (acknowledge all).
"""

import re
import unittest

from test_timer_life import HomeAssistantTimers


class AssistTests(HomeAssistantTimers):
    def say(self, text):
        """Types `text` to Assist: what it answers."""
        _, answer = self.ha.request("POST", "/api/conversation/process", body={"text": text, "language": "en"})
        response = answer["response"]
        self.assertNotEqual(response["response_type"], "error", "%r: %r" % (text, response))
        return response["speech"]["plain"]["speech"].strip()

    def test_assist_starts_an_egg_says_how_long_is_left_and_stops_the_alarm(self):
        self.assertEqual(self.say("start a soft egg"), "Starting a soft egg.")
        soft = self.entities("Soft")
        self.wait_state(soft["state"], "counting")
        # The kitchen's Next due sensor has the Soft egg's deadline (6 minutes: the harness's config).
        self.ha.watch.wait("Next due set", lambda: self.ha.state("sensor.eggtimer_kitchen_next_due")["state"]
                           not in ("unknown", "unavailable"))
        left = self.say("how long is left")
        self.assertRegex(left, r"^Soft is ready in [56] minutes?( and \d{1,2} seconds?)?\.$")
        self.assertNotRegex(left, r"\d{4}-\d\d-\d\d|T\d\d:")
        # A short one rings: stopping the alarm acknowledges it (acknowledge all); Soft counts on.
        self.start("2s quick")
        quick = self.entities("quick")
        self.wait_state(quick["state"], "ringing")
        self.assertEqual(self.say("stop the alarm"), "Alarm stopped.")
        self.wait_state(quick["state"], "done")
        self.wait_gone("quick", quick)
        self.assertEqual(self.ha.watch.states(soft["state"])[-1], "counting")
        self.ha.service("button", "press", {"entity_id": soft["cancel"]})
        self.wait_gone("Soft", soft)
        self.assertEqual(self.say("when are the eggs ready"), "No egg is counting.")
        self.assert_log_clean("Soft", "quick")


if __name__ == "__main__":
    unittest.main()
