"""The kitchen's stable entities (issue 45), as Home Assistant shows them through its REST and websocket APIs.

The kitchen, which always runs, owns entities a dashboard can pin: `Timers running` (a count),
`Next due` (a timestamp, unknown when nothing counts, the timer's label as an attribute),
`Silent` (off), and the node's `Ringing` and `Acknowledge all`, which stay available between
timers while the kitchen runs; its `Timer event` says started, finished, acknowledged and
refused (with why and the request's id). The kitchen's end makes its own entities unavailable.
"""

import unittest

import harness
from test_timer_life import NODE, HomeAssistantTimers, parse_time

KITCHEN_IDS = {
    "running": "eggtimer_%s_timers-running" % NODE,
    "next": "eggtimer_%s_next-due" % NODE,
    "silent": "eggtimer_%s_silent" % NODE,
    "ringing": "eggtimer_%s_ringing" % NODE,
    "ack_all": "eggtimer_%s_ack-all" % NODE,
}
LABEL = "due"


class KitchenEntityTests(HomeAssistantTimers):
    def kitchen_entities(self):
        """{name: entity_id} of the kitchen's stable entities, once all are registered."""
        wanted = set(KITCHEN_IDS.values())
        found = self.ha.watch.wait(
            "the kitchen's entities in Home Assistant's registry",
            lambda: (lambda known: known if len(known) == len(wanted) else None)(self.ha.entity_ids(wanted)))
        return {name: found[unique] for name, unique in KITCHEN_IDS.items()}

    def wait_now(self, entity_id, wanted):
        """Waits until `entity_id`'s state is `wanted` (Home Assistant's state machine, polled:
        a state set before the watch saw it sends no event)."""
        return harness.wait_for("%s %s" % (entity_id, wanted),
                                lambda: (self.ha.state(entity_id) or {}).get("state") == wanted)

    def test_the_kitchens_entities_count_say_the_next_due_and_stay_between_timers(self):
        entities = self.kitchen_entities()
        # Nothing runs: 0, no next due, nothing silent; Ringing and Acknowledge all available.
        self.wait_now(entities["running"], "0")
        self.wait_now(entities["next"], "unknown")
        self.wait_now(entities["silent"], "off")
        self.wait_now(entities["ringing"], "off")
        self.assertNotIn(self.ha.state(entities["ack_all"])["state"], ("unavailable",))
        names = {name: self.ha.state(entity_id)["attributes"]["friendly_name"] for name, entity_id in entities.items()}
        self.assertEqual(names["running"], "eggtimer %s Timers running" % NODE)
        self.assertEqual(names["next"], "eggtimer %s Next due" % NODE)
        self.assertEqual(self.ha.state(entities["next"])["attributes"]["device_class"], "timestamp")

        # What each went through from here on (an earlier test may have stopped the kitchen).
        marks = {name: len(self.ha.watch.states(entity_id)) for name, entity_id in entities.items()}
        self.start("10m " + LABEL)
        timer = self.entities(LABEL)
        self.wait_state(timer["state"], "counting")
        self.wait_state(entities["running"], "1")
        deadline = self.ha.watch.wait(
            "the timer's deadline", lambda: (lambda s: s if s and s["state"] not in ("unknown", "unavailable") else None)(
                self.ha.state(timer["deadline"])))
        self.ha.watch.wait("the next due", lambda: self.ha.state(entities["next"])["state"] not in ("unknown",))
        next_due = self.ha.state(entities["next"])
        self.assertEqual(parse_time(next_due["state"]), parse_time(deadline["state"]))
        self.assertEqual(next_due["attributes"]["label"], LABEL)

        self.ha.service("button", "press", {"entity_id": timer["cancel"]})
        self.wait_gone(LABEL, timer)
        self.wait_state(entities["running"], "0")
        self.wait_now(entities["next"], "unknown")
        # Between timers, with the kitchen running: nothing of the kitchen's or the node's is unavailable.
        self.assert_log_clean(LABEL)
        for name, entity_id in entities.items():
            self.assertNotIn("unavailable", self.ha.watch.states(entity_id)[marks[name]:], name)

    def test_the_event_entity_says_started_finished_acknowledged_and_refused(self):
        unique = "eggtimer_%s_events" % NODE
        events = self.ha.watch.wait("the kitchen's event entity", lambda: self.ha.entity_ids({unique}).get(unique))
        watch = self.ha.watch

        def fired():
            """(event_type, attributes) of each event since the mark, in order."""
            states = [s for s in watch.history.get(events, [])[mark:] if s is not None]
            return [(s["attributes"].get("event_type"), s["attributes"]) for s in states
                    if s["state"] not in ("unknown", "unavailable")]

        mark = len(watch.history.get(events, []))
        self.start("2s evt")
        timer = self.entities("evt")
        self.wait_state(timer["state"], "ringing")
        self.wait_state(timer["ack"], "unknown")
        self.ha.service("button", "press", {"entity_id": timer["ack"]})
        self.wait_gone("evt", timer)
        # A label the broker reserves: refused, with why and the press's request id.
        self.start("5m follow")
        watch.wait("four events (so far %s)" % [kind for kind, _ in fired()], lambda: len(fired()) >= 4)
        kinds = [kind for kind, _ in fired()]
        self.assertEqual(kinds, ["started", "finished", "acknowledged", "refused"])
        for _, attributes in fired()[:3]:
            self.assertEqual(attributes["label"], "evt")
        refused = fired()[3][1]
        self.assertIn("follow", refused["reason"])
        self.assertTrue(refused["request_id"].startswith("ha-"), refused)
        self.assertEqual(self.ha.state(events)["attributes"]["friendly_name"], "eggtimer %s Timer event" % NODE)
        self.assert_log_clean("evt")

    def test_the_kitchens_end_makes_its_entities_unavailable_until_it_runs_again(self):
        entities = self.kitchen_entities()
        self.wait_now(entities["running"], "0")
        self.kitchen.stop()
        try:
            for name in ("running", "next", "silent", "ringing", "ack_all"):
                self.wait_state(entities[name], "unavailable")
        finally:
            self.kitchen.start()
        self.wait_now(entities["running"], "0")
        self.wait_now(entities["ringing"], "off")
        self.assert_log_clean()


if __name__ == "__main__":
    unittest.main()
