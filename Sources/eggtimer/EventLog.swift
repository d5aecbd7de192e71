import TimerCore

/// Formats timer events: one JSON object per line for `--json`, or a short plain line for logs.
struct EventLog {
    /// Maps instants to CLOCK_BOOTTIME nanoseconds.
    let clock: MonotonicClock

    /// The event as one line of JSON (no newline), fields in a fixed order: `event`, `label`,
    /// `duration_s`, `remaining_s`, `t_mono_ns`, then the extras.
    func json(_ event: TimerEvent) -> String {
        var fields = [
            "\"event\":\(quote(event.name.rawValue))",
            "\"label\":\(quote(event.label))",
            "\"duration_s\":\(seconds(event.total))",
            "\"remaining_s\":\(seconds(event.remaining))",
            "\"t_mono_ns\":\(clock.nanoseconds(event.at))",
        ]
        for field in event.extra {
            switch field.value {
            case .text(let text): fields.append("\(quote(field.key)):\(quote(text))")
            case .integer(let number): fields.append("\(quote(field.key)):\(number)")
            case .instant(let instant): fields.append("\(quote(field.key)):\(clock.nanoseconds(instant))")
            }
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The event as a plain log line, or nil for events too fine-grained for people.
    func plain(_ event: TimerEvent) -> String? {
        let left = event.remaining.clockText
        let what: String
        switch event.name {
        case .started: what = "started, \(event.total.clockText)"
        case .interval: what = "started, \(event.total.clockText)"
        case .paused: what = "paused, \(left) left"
        case .resumed: what = "resumed, \(left) left"
        case .reset: what = "restarted, \(left) left"
        case .adjusted: what = "adjusted, \(left) left"
        case .finished: what = "time is up"
        case .sounding: return nil
        case .acknowledged: what = "alarm stopped"
        case .cancelled: what = "cancelled"
        case .deviceUnavailable, .deviceRecovered:
            let reason = event.extra.first { $0.key == "reason" }.map { ": \($0.value)" } ?? ""
            what = event.name == .deviceRecovered ? "audio device back" : "no audio device\(reason)"
        }
        return (event.label.isEmpty ? what : "\(event.label): \(what)").escapingControlCharacters
    }

    /// Decimal seconds, exact to the nanosecond, without trailing zeros: `300`, `2.5`, `0.000123`.
    func seconds(_ duration: Duration) -> String {
        let negative = duration < .zero
        let (whole, attoseconds) = (negative ? .zero - duration : duration).components
        let nanos = attoseconds / 1_000_000_000
        var text = "\(whole)"
        if nanos > 0 {
            var digits = String(nanos)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return negative ? "-" + text : text
    }

    /// A JSON string literal.
    func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension TimerEvent.Value: CustomStringConvertible {
    var description: String {
        switch self {
        case .text(let text): text
        case .integer(let number): "\(number)"
        case .instant: "instant"
        }
    }
}
