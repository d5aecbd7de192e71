import Glibc
import SystemKit
import TextCoding
import TimerCore
import TimerText

/// Formats timer events: one JSON object per line for `--json`, or a short plain line for logs.
package struct EventLog {
    /// Maps instants to CLOCK_BOOTTIME nanoseconds.
    package let clock: MonotonicClock
    /// Maps CLOCK_BOOTTIME nanoseconds to wall-clock time.
    package var wallClock = WallClock.system

    /// A formatter over these clocks (the memberwise initializer, for the executable's outputs).
    /// - Parameters:
    ///   - clock: Maps instants to CLOCK_BOOTTIME nanoseconds.
    ///   - wallClock: Maps CLOCK_BOOTTIME nanoseconds to wall-clock time (default: the system's).
    package init(clock: MonotonicClock, wallClock: WallClock = .system) {
        (self.clock, self.wallClock) = (clock, wallClock)
    }

    /// The event as one line of JSON (no newline), fields in a fixed order: `event`, `label`,
    /// `duration_s`, `remaining_s`, `t_mono_ns`, `time`, then the extras.
    package func json(_ event: TimerEvent) -> String {
        let boot = clock.nanoseconds(event.at)
        var json = JSONText()
        json.object { json in
            json.member("event", event.name.rawValue)
            json.member("label", event.label)
            json.member("duration_s", decimal: seconds(event.total))
            json.member("remaining_s", decimal: seconds(event.remaining))
            json.member("t_mono_ns", boot)
            json.member("time", wallClock.utcText(bootNanoseconds: boot))
            for field in event.extra {
                switch field.value {
                case .text(let text): json.member(field.key, text)
                case .integer(let number): json.member(field.key, number)
                case .instant(let instant): json.member(field.key, clock.nanoseconds(instant))
                }
            }
        }
        return json.text
    }

    /// The event as a plain log line, or nil for events too fine-grained for people.
    package func plain(_ event: TimerEvent) -> String? {
        let left = event.remaining.clockText
        let what: String
        switch event.name {
        case .started where event.extra.contains { $0.key == "rings" }:
            let text = { (key: String) in event.extra.first { $0.key == key }.map { "\($0.value)" } }
            what =
                "started, rings \(text("rings") ?? ""), in \(left)" + (text("every").map { ", every \($0)" } ?? "")
                + (text("rule").map { " (\($0))" } ?? "")
        case .rescheduled:
            let step = event.extra.first { $0.key == "step_ms" }.map { "\($0.value)" } ?? "0"
            what = "the clock was set (\(step) ms); rings in \(left)"
        case .clock:
            let synchronised = event.extra.contains { $0.key == "clock" && $0.value == .text("synchronised") }
            what = synchronised ? "the system clock is synchronised" : "warning: \(ClockSync.warning)"
        case .started:
            let computed = event.extra.first { $0.key == "computed" }.map { " (\($0.value))" } ?? ""
            what = "started, \(event.total.clockText)\(computed)"
        case .interval: what = "started, \(event.total.clockText)"
        case .paused: what = "paused, \(left) left"
        case .resumed: what = "resumed, \(left) left"
        case .reset: what = "restarted, \(left) left"
        case .adjusted: what = "adjusted, \(left) left"
        case .finished: what = "time is up"
        case .sounding: return nil
        case .acknowledged, .missed:
            // An alarm heard on no device says so, and why (`silent`: the device's problem).
            let silent = event.extra.first { $0.key == "silent" }.map { " (silent: \($0.value))" } ?? ""
            what = (event.name == .missed ? "alarm missed: nobody stopped it" : "alarm stopped") + silent
        case .cancelled: what = "cancelled"
        case .snoozed: what = "snoozed, rings again in \(left)"
        case .doneCommand:
            let status = event.extra.first { $0.key == "status" }.map { "\($0.value)" }
            let signal = event.extra.first { $0.key == "signal" }.map { "\($0.value)" }
            if status == "0" { return nil }
            what = "--on-done command failed (" + (status.map { "exit \($0)" } ?? "signal \(signal ?? "?")") + ")"
        case .deviceUnavailable, .deviceRecovered:
            let reason = event.extra.first { $0.key == "reason" }.map { ": \($0.value)" } ?? ""
            let device = event.extra.first { $0.key == "device" }.map { " (\($0.value))" } ?? ""
            what = event.name == .deviceRecovered ? "audio device back\(device)" : "no audio device\(reason)"
        }
        return line(what, label: event.label, at: event.at)
    }

    /// A plain log line: the local wall-clock time `at` happened, the label, then `text`:
    /// `09:12:03 Soft: time is up`.
    ///
    /// A label that is a duration as typed (`eggtimer 1:30`) reads `1:30 timer`, so no line leads
    /// with a duration that looks like a clock time.
    package func line(_ text: String, label: String, at: ContinuousClock.Instant) -> String {
        let time = wallClock.localClockText(bootNanoseconds: clock.nanoseconds(at))
        guard !label.isEmpty else { return "\(time) \(text)".escapingControlCharacters }
        let name = (try? DurationParser.parse(label)) != nil ? "\(label) timer" : label
        return "\(time) \(name): \(text)".escapingControlCharacters
    }

    /// Decimal seconds, exact to the nanosecond, without trailing zeros: `300`, `2.5`, `0.000123`.
    package func seconds(_ duration: Duration) -> String {
        let negative = duration < .zero
        let (whole, attoseconds) = (negative ? .zero - duration : duration).components
        let nanos = attoseconds / 1_000_000_000
        var text = "\(whole)"
        if nanos > 0 {
            var digits = pad(nanos, 9)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return negative ? "-" + text : text
    }
}

extension TimerEvent.Value: CustomStringConvertible {
    package var description: String {
        switch self {
        case .text(let text): text
        case .integer(let number): "\(number)"
        case .instant: "instant"
        }
    }
}
