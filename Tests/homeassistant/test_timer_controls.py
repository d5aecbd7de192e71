"""What a timer entity has (issue 45), as Home Assistant shows it through its REST and websocket APIs.

A timer started from Home Assistant is a device of its own (its label) under the node's, both with
manufacturer and release (the node's linking the kitchen's page), and its entities read `ctl Time left`, `ctl Add 1 minute`. It shows its time left and duration as attributes of its sensors
(`remaining`, `duration` in seconds; `finishes_at` while there is a deadline). Paused, the deadline
sensor says why it has no value (`timer_state` paused) and `finishes_at` goes; a minute added while
paused grows `remaining` by 60; resumed and a minute taken off, it rings; it is snoozed, then
acknowledged: each press on its own buttons, each button available only while the timer takes it
(acknowledge and snooze while it rings, pause while it counts, resume while it is paused). Home
Assistant logs no warning or error about eggtimer throughout.
"""

import datetime
import unittest

import harness
from test_timer_life import NODE, HomeAssistantTimers, parse_time

LABEL = "ctl"
BUTTONS = ("ack", "snooze", "cancel", "pause", "resume", "add-minute", "subtract-minute")


class TimerControlTests(HomeAssistantTimers):
    def press(self, entities, button):
        """Presses the timer's `button` in Home Assistant, once it is available (an event)."""
        entity_id = entities[button]
        self.ha.watch.wait("%s available" % entity_id,
                           lambda: self.ha.watch.states(entity_id)[-1:] not in ([], ["unavailable"], [None]))
        self.ha.service("button", "press", {"entity_id": entity_id})

    def device(self, identifier, required=True):
        """The device registry's entry whose MQTT identifier is `identifier` (None if none)."""
        [devices] = self.ha.websocket([{"type": "config/device_registry/list"}])
        for device in devices:
            if ["mqtt", identifier] in device["identifiers"]:
                return device
        if required:
            self.fail("no device %s in %s" % (identifier, [d["identifiers"] for d in devices]))
        return None

    def wait_available(self, entities, wanted):
        """Waits until exactly the buttons `wanted` of the timer are available (as the state
        events last said), the others unavailable."""
        watch = self.ha.watch

        def available():
            return {button for button in BUTTONS
                    if watch.states(entities[button])[-1:] not in ([], ["unavailable"], [None])}

        watch.wait("exactly %s available" % sorted(wanted), lambda: available() == set(wanted))

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
        # Named in sentence case after the timer's own device (its label), with icons.
        deadline_state = self.ha.state(entities["deadline"])["attributes"]
        self.assertEqual(deadline_state["friendly_name"], LABEL + " Time left")
        self.assertEqual(deadline_state["icon"], "mdi:timer-outline")
        self.assertEqual(self.ha.state(entities["add-minute"])["attributes"]["friendly_name"], LABEL + " Add 1 minute")
        # The timer's device is under the node's; both say who made them and the release.
        timer_device, node_device = self.device("eggtimer_%s__%s" % (NODE, LABEL)), self.device("eggtimer_" + NODE)
        for device in (timer_device, node_device):
            self.assertEqual(device["manufacturer"], "eggtimer project")
            self.assertRegex(device["sw_version"], r"^\d+\.\d+\.\d+")
        self.assertEqual((timer_device["name"], timer_device["model"]), (LABEL, "Timer"))
        self.assertEqual(timer_device["via_device_id"], node_device["id"])
        # The node's device links the kitchen's page (its own configs say it; the timers' shared
        # node configs, which do not, leave it).
        self.assertEqual(node_device["configuration_url"], self.kitchen.page)
        self.assertIsNone(timer_device["configuration_url"])
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

        self.wait_available(entities, ["cancel", "pause", "add-minute", "subtract-minute"])
        self.press(entities, "pause")
        self.wait_state(entities["state"], "paused")
        # Only what a paused timer takes: not acknowledge, snooze nor pause.
        self.wait_available(entities, ["cancel", "resume", "add-minute", "subtract-minute"])
        paused = self.wait_attributes(entities["state"], "paused: no finishes_at", lambda a: "finishes_at" not in a)
        self.assertEqual(paused["duration"], 15)
        self.assertLessEqual(paused["remaining"], counting["remaining"])
        why = self.wait_attributes(entities["deadline"], "timer_state paused",
                                   lambda a: a.get("timer_state") == "paused")
        self.assertNotIn("finishes_at", why)
        self.assertEqual(self.ha.state(entities["deadline"])["state"], "unknown")

        self.press(entities, "add-minute")
        added = self.wait_attributes(entities["state"], "a minute more", lambda a: a["remaining"] > paused["remaining"])
        self.assertAlmostEqual(added["remaining"], paused["remaining"] + 60, delta=0.01)
        self.assertEqual(added["duration"], 75)
        self.assertEqual(self.ha.watch.states(entities["state"])[-1], "paused")

        self.press(entities, "resume")
        self.wait_state(entities["state"], "counting")
        self.press(entities, "subtract-minute")
        resumed = self.wait_attributes(entities["state"], "resumed a minute shorter",
                                       lambda a: "finishes_at" in a and a["duration"] == 15)
        self.assertLessEqual(resumed["remaining"], paused["remaining"])
        self.wait_state(entities["state"], "ringing")
        self.wait_available(entities, ["ack", "snooze", "cancel"])
        # Ringing: nothing left, and finishes_at says when it rang.
        rung = self.wait_attributes(entities["state"], "ringing: nothing left", lambda a: a["remaining"] == 0)
        self.assertLessEqual(parse_time(rung["finishes_at"]), datetime.datetime.now(datetime.timezone.utc))

        self.press(entities, "snooze")
        self.wait_state(entities["state"], "snoozed")
        self.wait_attributes(entities["state"], "snoozed: finishes_at again", lambda a: "finishes_at" in a)
        self.press(entities, "ack")
        self.wait_state(entities["state"], "done")
        self.wait_gone(LABEL, entities)
        # Its device goes with its entities.
        harness.wait_for("the device of %s removed" % LABEL,
                         lambda: self.device("eggtimer_%s__%s" % (NODE, LABEL), required=False) is None)
        self.assert_log_clean(LABEL)


if __name__ == "__main__":
    unittest.main()
