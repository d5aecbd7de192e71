import TimerText

/// Who gave an option's value, so that a bad value's message names it as the user wrote it.
///
/// The option table (``Options/optionSpecs``) checks values from the command line and from the
/// config file alike; only the subject of the message differs.
enum ValueSource: Sendable, Equatable {
    /// On the command line, spelled as typed: `-D`, `--volume`.
    case option(String)
    /// A key of the config file: `volume` (the caller adds the file and line).
    case key(String)

    /// A bad value's message, from a predicate.
    ///
    /// `option '--volume' needs a whole number …` or `volume: needs a whole number …`.
    /// - Parameter problem: What is wrong, as a predicate: `needs a whole number from 1 to 9, got '0'`.
    /// - Returns: The error to throw.
    func error(_ problem: String) -> UsageError {
        switch self {
        case .option(let name): UsageError(description: "option '\(name)' \(problem)")
        case .key(let key): UsageError(description: "\(key): \(problem)")
        }
    }

    /// A bad value's message, from a reason that is a phrase of its own (a parser's).
    ///
    /// `option '--ramp': invalid duration 'x': …` or `ramp: invalid duration 'x': …`.
    /// - Parameter reason: What is wrong: `invalid duration 'x': no number in it`.
    /// - Returns: The error to throw.
    func error(because reason: String) -> UsageError {
        switch self {
        case .option(let name): UsageError(description: "option '\(name)': \(reason)")
        case .key(let key): UsageError(description: "\(key): \(reason)")
        }
    }
}
