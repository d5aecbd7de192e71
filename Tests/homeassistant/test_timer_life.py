"""A timer's life as Home Assistant sees it (issue 45), through its REST and websocket APIs only.

Started from Home Assistant's own entity (the kitchen's start text), counting with its deadline,
ringing (the node's ringing sensor on), acknowledged with its button, ended: its entities gone.
Through that life Home Assistant logs no warning or error. A timer killed (kill -9) until the
kitchen gives up on it leaves the node's ringing sensor off, and once forgotten (`eggtimer cancel
LABEL`) its entities go.
"""

import datetime
import os
import signal
import unittest

import harness

NODE = harness.Kitchen.NODE
# What eggtimer's discovery configs name (HouseBus HomeAssistantDiscovery): unique ids.
KITCHEN_START = "eggtimer_%s_start" % NODE
NODE_RINGING = "eggtimer_%s_ringing" % NODE
TIMER_ENTITIES = ("state", "deadline", "ack", "snooze", "cancel", "pause", "resume", "add-minute", "subtract-minute")


def timer_ids(label):
    """The unique ids of a timer's entities (its object id is `<node>__<label>` for plain names)."""
    return ["eggtimer_%s__%s_%s" % (NODE, label, entity) for entity in TIMER_ENTITIES]


def parse_time(text):
    """An ISO 8601 time as Home Assistant shows a timestamp sensor: aware datetime."""
    return datetime.datetime.fromisoformat(text)


class HomeAssistantTimers(unittest.TestCase):
    """What the Home Assistant tests share: the session, starting from the kitchen's start text,
    a timer's entities, waiting on states; no tests of its own."""

    @classmethod
    def setUpClass(cls):
        cls.session = harness.session()
        cls.ha = cls.session.ha
        cls.kitchen = cls.session.kitchen

    def setUp(self):
        self.log_start = self.ha.log_size()
        # The kitchen's start text and the node's ringing sensor: registered by the kitchen's and
        # (for the node's) the first timer's discovery configs.
        self.start_text = self.ha.watch.wait(
            "the kitchen's start text in Home Assistant",
            lambda: self.ha.entity_ids({KITCHEN_START}).get(KITCHEN_START))
        # Available once the kitchen says it is online (it took the node's starts).
        self.ha.watch.wait(
            "the kitchen's start text available",
            lambda: (self.ha.state(self.start_text) or {}).get("state") not in (None, "unavailable"))

    def start(self, words):
        """Types `words` in the kitchen's start text, as a household would on a dashboard."""
        self.ha.service("text", "set_value", {"entity_id": self.start_text, "value": words})

    def entities(self, label):
        """{entity: entity_id} of the timer `label`'s entities, once all are registered."""
        ids = timer_ids(label)
        found = self.ha.watch.wait(
            "the entities of %s in Home Assistant's registry" % label,
            lambda: (lambda known: known if len(known) == len(ids) else None)(self.ha.entity_ids(set(ids))))
        return {entity: found[unique] for entity, unique in zip(TIMER_ENTITIES, ids)}

    def wait_state(self, entity_id, wanted, timeout=harness.PATIENCE):
        """Waits until Home Assistant's state machine said `wanted` for `entity_id` (an event)."""
        watch = self.ha.watch
        watch.wait("%s %s (went through %s)" % (entity_id, wanted, watch.states(entity_id)),
                   lambda: wanted in watch.states(entity_id), timeout)
        return self.ha.state(entity_id)

    def wait_gone(self, label, entities):
        """Waits until every entity of the timer `label` is removed: from the state machine (its
        last state event says None) and from the registry."""
        watch = self.ha.watch
        for entity_id in entities.values():
            watch.wait("%s removed (went through %s)" % (entity_id, watch.states(entity_id)),
                       lambda: watch.states(entity_id)[-1:] == [None])
        left = self.ha.entity_ids(set(timer_ids(label)))
        self.assertEqual(left, {}, "registered after their removal")
        for entity_id in entities.values():
            self.assertIsNone(self.ha.state(entity_id), "%s still has a state" % entity_id)

    def assert_log_clean(self, *labels):
        """No WARNING or ERROR about eggtimer in Home Assistant's log since the test began
        (``HomeAssistant.log_problems``), once the broker holds
        nothing of the timers `labels` (their last messages are in) and Home Assistant dispatched
        every message the broker took before (the fence)."""
        for label in labels:
            harness.wait_for("nothing of %s retained on the broker" % label,
                             lambda: self.session.broker.retained("eggtimer/%s/%s/#" % (NODE, label)) == {})
        self.ha.fence()
        self.assertEqual(self.ha.log_problems(self.log_start), [])

    def ringing_sensor(self):
        return self.ha.entity_ids({NODE_RINGING}).get(NODE_RINGING)


class TimerLifeTests(HomeAssistantTimers):
    def test_a_timer_started_from_home_assistant_counts_rings_and_is_acknowledged(self):
        asked = datetime.datetime.now(datetime.timezone.utc)
        self.start("8s tea")
        entities = self.entities("tea")
        counting = self.wait_state(entities["state"], "counting")
        self.assertEqual(counting["attributes"]["device_class"], "enum")
        # The deadline sensor: a timestamp 8 s after the start (Home Assistant counts it down).
        deadline = self.ha.watch.wait(
            "a deadline", lambda: (lambda s: s if s and s["state"] not in ("unknown", "unavailable") else None)(
                self.ha.state(entities["deadline"])))
        self.assertEqual(deadline["attributes"]["device_class"], "timestamp")
        when = parse_time(deadline["state"])
        self.assertGreaterEqual(when, asked + datetime.timedelta(seconds=7))
        self.assertLessEqual(when, datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=8.5))
        ringing = self.ha.watch.wait("the node's ringing sensor", self.ringing_sensor)
        self.wait_state(ringing, "off")
        # Never pressed: cancel is there; acknowledge and snooze only once it rings.
        self.assertEqual(self.ha.state(entities["cancel"])["state"], "unknown")
        for button in ("ack", "snooze"):
            self.assertEqual(self.ha.state(entities[button])["state"], "unavailable", "%s while counting" % button)
        self.wait_state(entities["state"], "ringing")
        self.wait_state(ringing, "on")
        self.wait_state(entities["ack"], "unknown")
        self.ha.service("button", "press", {"entity_id": entities["ack"]})
        self.wait_state(entities["state"], "done")
        self.wait_gone("tea", entities)
        # The node's ringing sensor says off as its last timer ends (and stays available: the
        # kitchen runs).
        watch = self.ha.watch
        watch.wait("the ringing sensor off after on (went through %s)" % watch.states(ringing),
                   lambda: "off" in watch.states(ringing)[watch.states(ringing).index("on"):])
        self.assertEqual(self.ha.watch.states(entities["state"])[-3:-1], ["ringing", "done"])

    def test_home_assistant_logs_nothing_bad_through_timers_lives(self):
        # One acknowledged while it rings, one cancelled while it counts.
        self.start("3s rung")
        rung = self.entities("rung")
        self.start("10m left")
        left = self.entities("left")
        self.wait_state(left["state"], "counting")
        self.wait_state(rung["state"], "ringing")
        self.wait_state(rung["ack"], "unknown")
        self.ha.service("button", "press", {"entity_id": rung["ack"]})
        self.ha.service("button", "press", {"entity_id": left["cancel"]})
        self.wait_gone("rung", rung)
        self.wait_gone("left", left)
        self.assert_log_clean("rung", "left")

    def test_a_killed_timer_given_up_on_stops_ringing_and_once_forgotten_its_entities_go(self):
        self.start("2s crash")
        entities = self.entities("crash")
        ringing = self.ha.watch.wait("the node's ringing sensor", self.ringing_sensor)
        self.wait_state(entities["state"], "ringing")
        self.wait_state(ringing, "on")
        # The kitchen recovers a timer that died by a signal, at most 3 times in a row: the fourth
        # death is the last.
        killed = set()
        for death in range(4):
            timer = harness.wait_for(
                "crash running again, ringing (killed %s)" % sorted(killed),
                lambda: (lambda t: t if t and t["pid"] not in killed and t.get("state") == "ringing" else None)(
                    self.kitchen.running("crash")))
            # Followed by the kitchen first, or it would not see it die.
            self.kitchen.lines.expect(r"(following crash \(pid %d,|crash: started, .*\(pid %d\))" % ((timer["pid"],) * 2))
            os.kill(timer["pid"], signal.SIGKILL)
            killed.add(timer["pid"])
        self.kitchen.lines.expect(r"crash: died .*not recovered")
        self.wait_state(entities["state"], "unavailable")
        # Nothing rings on the node any more.
        self.ha.watch.wait("the ringing sensor off after the last death",
                           lambda: self.ha.watch.states(ringing)[-1:] == ["off"])
        self.assertTrue(self.kitchen.record_exists("crash"), "its record is kept until it is forgotten")
        status, out, err = self.kitchen.command("cancel", "crash")
        self.assertEqual(status, 0, err)
        self.assertIn("its kept record is removed", out)
        self.wait_gone("crash", entities)
        self.assertEqual(self.ha.state(ringing)["state"], "off")
        # Nothing of it stays retained on the broker.
        self.assert_log_clean("crash")


if __name__ == "__main__":
    unittest.main()
