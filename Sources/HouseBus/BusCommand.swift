public import TimerModel

/// The parser of the payloads received on `<prefix>/<node>/<label>/command` into ``Command``.
public enum BusCommand {
    /// The longest command payload read, in bytes.
    public static let byteLimit = 64

    /// Parses `status`, `ack`, `cancel`, `snooze`, `pause`, `resume`, `add 60` or `add -60`.
    ///
    /// Surrounding white space is trimmed. `add` takes whole seconds, -86400 to 86400
    /// (``Command/addLimit``), not 0; `snooze` takes no length (the timer's default). Pure; any thread.
    /// - Parameter payload: The message payload.
    /// - Returns: The command.
    /// - Throws: `BusCommandError` with a one-line reason: too long, not ASCII, empty, unknown, or a
    ///   bad `add` amount.
    public static func parse(_ payload: [UInt8]) throws(BusCommandError) -> Command {
        guard payload.count <= byteLimit else { throw .tooLong(bytes: payload.count) }
        guard payload.allSatisfy({ $0 < 0x80 }) else { throw .notASCII }
        let words = String(decoding: payload, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { throw .empty }
        switch (first, words.count) {
        case ("status", 1): return .status
        case ("ack", 1): return .acknowledge
        case ("cancel", 1): return .cancel
        case ("snooze", 1): return .snooze(nil)
        case ("pause", 1): return .pause
        case ("resume", 1): return .resume
        case ("add", 2):
            let amount = words[1]
            let limit = Command.addLimit.components.seconds
            // A range check, not `abs`: `abs(Int.min)` traps.
            guard let seconds = Int64(amount), seconds != 0, (-limit...limit).contains(seconds) else {
                throw .badAmount(amount)
            }
            return .add(.seconds(seconds))
        default: throw .unknown(words.joined(separator: " "))
        }
    }
}

/// Why a command payload was refused by ``BusCommand/parse(_:)``.
public enum BusCommandError: Error, Equatable {
    /// Longer than ``BusCommand/byteLimit``.
    case tooLong(bytes: Int)
    /// Holds a byte outside ASCII.
    case notASCII
    /// Empty or only white space.
    case empty
    /// Not a known command (its words joined by single spaces).
    case unknown(String)
    /// `add` with something other than a whole number of seconds in -86400…86400, not 0.
    case badAmount(String)

    /// One line for the log, naming the bad token.
    public var message: String {
        switch self {
        case .tooLong(let bytes): "command payload too long (\(bytes) bytes, at most \(BusCommand.byteLimit))"
        case .notASCII: "command payload is not ASCII text"
        case .empty: "empty command payload"
        case .unknown(let text): "unknown command \"\(printable(text))\""
        case .badAmount(let amount):
            "bad amount \"\(printable(amount))\" for add (whole seconds, -86400 to 86400, not 0)"
        }
    }
}

/// `text` with control characters shown as `?`, so a log line stays one line.
private func printable(_ text: String) -> String {
    String(text.map { $0.isASCII && ($0.asciiValue ?? 0) >= 0x20 && $0 != "\u{7F}" ? $0 : "?" })
}
