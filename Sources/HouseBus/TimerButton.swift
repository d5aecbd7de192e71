import TextCoding
import TimerModel

/// One button of a timer in Home Assistant (issue 45): the command it sends on the timer's command
/// topic, and the states in which the timer takes that command, outside of which it is unavailable.
///
/// Pure; any thread.
struct TimerButton: Sendable {
    /// The entity's part of the object id and `unique_id` (`ack`, `add-minute`).
    let entity: String
    /// Its name in Home Assistant, sentence case (`Add 1 minute`), shown after the timer's.
    let name: String
    /// Its Material Design icon (`mdi:alarm-check`).
    let icon: String
    /// What a press sends (``Command/text``: `ack`, `add 60`).
    let command: Command
    /// The published states in which the timer takes ``command`` (the controller's `refusal(of:at:)`).
    let states: [TimerState]

    /// The buttons of every timer, in order: acknowledge (ringing, silent or snoozed), snooze
    /// (ringing or silent), cancel (until it ends), pause (counting or snoozed: a countdown that
    /// runs), resume (paused), add and subtract a minute (counting, paused or snoozed).
    ///
    /// A timer may still refuse a press in one of these states (pausing an alarm at a time, a
    /// minute off the last one): it says why in its log, as for any MQTT command.
    static let all = [
        TimerButton(
            entity: "ack", name: "Acknowledge", icon: "mdi:alarm-check", command: .acknowledge,
            states: [.ringing, .silent, .snoozed]),
        TimerButton(
            entity: "snooze", name: "Snooze", icon: "mdi:alarm-snooze", command: .snooze(nil),
            states: [.ringing, .silent]),
        TimerButton(
            entity: "cancel", name: "Cancel", icon: "mdi:close-circle-outline", command: .cancel,
            states: [.counting, .paused, .ringing, .silent, .snoozed]),
        TimerButton(entity: "pause", name: "Pause", icon: "mdi:pause", command: .pause, states: [.counting, .snoozed]),
        TimerButton(entity: "resume", name: "Resume", icon: "mdi:play", command: .resume, states: [.paused]),
        TimerButton(
            entity: "add-minute", name: "Add 1 minute", icon: "mdi:timer-plus-outline", command: .add(.seconds(60)),
            states: [.counting, .paused, .snoozed]),
        TimerButton(
            entity: "subtract-minute", name: "Subtract 1 minute", icon: "mdi:timer-minus-outline",
            command: .add(.seconds(-60)),
            states: [.counting, .paused, .snoozed]),
    ]

    /// The button's `availability` list: the timer's availability topic (`online`, `offline`),
    /// and its state topic through ``availabilityTemplate``; with `availability_mode: all` it is
    /// available only when both say `online`.
    /// - Parameter topics: The timer's topics.
    /// - Returns: The list, a JSON array of two objects.
    func availability(_ topics: TimerTopics) -> JSONValue {
        .array([
            .object([JSONMember("topic", .string(topics.availability))]),
            .object([
                JSONMember("topic", .string(topics.state)),
                JSONMember("value_template", .string(availabilityTemplate)),
            ]),
        ])
    }

    /// `{{ 'online' if value_json is defined and value_json.state in ['ringing', 'silent'] else
    /// 'offline' }}` with this button's ``states``: an empty state (cleared) is `offline`, and
    /// Home Assistant logs nothing (the test `is defined` comes first).
    var availabilityTemplate: String {
        let words = states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return "{{ 'online' if value_json is defined and value_json.state in [\(words)] else 'offline' }}"
    }
}
