import KeyInput
import Kitchen
import TextCoding
import TimerCore
import TimerEngine
import TimerText

// The keypad's config keys: 4 to 9, the key guard and the debounce. They are rows of the file
// alone (``Options/configOnlySpecs``, not in ``Options/optionSpecs``): the command line has no
// `--key-4`. `keys` is the kitchen's `--keys` row in the option table.

extension Options {
    /// The rows of the keys only the config file takes, the keypad's.
    ///
    /// `key-4` … `key-9` (what that digit starts), `key-guard` (how long after a key stopped an
    /// alarm the keys that would start, cancel or change a timer are ignored: the keypad's and
    /// the terminal menu's) and `key-debounce` (how long a key must stay up for its release to
    /// count). Hidden: `--help`, the man page's OPTIONS and the completion never list them; the
    /// man page's CONFIGURATION and KEYPAD do.
    static let configOnlySpecs: [Spec] =
        KeypadSettings.configurableDigits.map { digit in
            Spec(
                names: ["--key-\(digit)"], argument: "START", group: .hidden,
                help: "what the keypad's \(digit) starts: a duration and a label, or a preset", fits: [],
                inConfigFile: true
            ) { options, name, value throws(UsageError) in
                options.keypad.starts[digit] = try keyStart(name, value)
            }
        } + [
            Spec(
                names: ["--key-guard"], argument: "D", group: .hidden,
                help: "how long after a key stopped an alarm the keys that would start, cancel or change a timer "
                    + "are ignored (default \(KeyGuard.text(KeyGuard.standard)))",
                fits: [], inConfigFile: true
            ) { options, name, value throws(UsageError) in
                options.keypad.keyGuard = try keyTime(name, value, longest: KeyGuard.longest, example: "1s or 800ms")
            },
            Spec(
                names: ["--key-debounce"], argument: "D", group: .hidden,
                help: "how long a key must stay up for its release to count; a key closing again sooner bounced "
                    + "(default \(KeyGuard.text(KeypadSettings.standardDebounce)))",
                fits: [], inConfigFile: true
            ) { options, name, value throws(UsageError) in
                options.keypad.debounce = try keyTime(
                    name, value, longest: KeypadSettings.longestDebounce, example: "10ms")
            },
        ]

    /// A keypad time (`key-guard`, `key-debounce`): `0` (off), whole milliseconds with `ms`
    /// (`800ms`), or a duration as the options take one (`1s`, `1.5s`), at most `longest`.
    /// - Parameters:
    ///   - name: The key, for the message.
    ///   - value: The value as written.
    ///   - longest: The largest value taken.
    ///   - example: Values the message shows (`1s or 800ms`).
    /// - Returns: The duration, 0 to `longest`.
    /// - Throws: `UsageError` naming the key, the range and the value.
    static func keyTime(_ name: ValueSource, _ value: String, longest: Duration, example: String) throws(UsageError)
        -> Duration
    {
        let problem = "needs 0 (off) or a duration up to \(KeyGuard.text(longest)), such as \(example), "
        let text = value.lowercased()
        var duration: Duration?
        if text == "0" {
            duration = .zero
        } else if text.hasSuffix("ms") {
            let digits = text.dropLast(2)
            if !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let milliseconds = Int64(digits)
            {
                duration = .milliseconds(milliseconds)
            }
        } else {
            duration = try? DurationParser.parse(value)
        }
        guard let duration else { throw name.error(problem + "got '\(printable(value))'") }
        guard duration <= longest else {
            throw name.error(problem + "got '\(printable(value))': longer than \(KeyGuard.text(longest))")
        }
        return duration
    }

    /// A digit key's start, by the one grammar of a start (``StartRequest``): `9m pasta`,
    /// `1h 30m roast beef`, `soft`.
    /// - Throws: `UsageError` naming the key with the start parser's reason.
    static func keyStart(_ name: ValueSource, _ value: String) throws(UsageError) -> StartRequest {
        do {
            return try StartRequest.parse(value, presets: Preset.eggs.map(\.name))
        } catch {
            throw name.error(because: error.description)
        }
    }

    /// `value` for a message: control characters as `?`, at most 60 characters (TextCoding's
    /// ``Swift/StringProtocol/controlCharactersAsQuestionMarks(limit:)``).
    static func printable(_ value: String) -> String { value.controlCharactersAsQuestionMarks() }
}
