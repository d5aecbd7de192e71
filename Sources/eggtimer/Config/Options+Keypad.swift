import KeyInput
import Kitchen
import TextCoding
import TimerCore
import TimerText

// The keypad's config keys 4 to 9. They are rows of the file alone (``Options/configOnlySpecs``, not
// in ``Options/optionSpecs``): the command line has no `--key-4`. `keys` is the kitchen's `--keys`
// row in the option table.

extension Options {
    /// The rows of the keys only the config file takes, the keypad's.
    ///
    /// `key-4` … `key-9` (what that digit starts). Hidden: `--help`, the man page's OPTIONS and the
    /// completion never list them; the man page's CONFIGURATION and KEYPAD do.
    static let configOnlySpecs: [Spec] =
        KeypadSettings.configurableDigits.map { digit in
            Spec(
                names: ["--key-\(digit)"], argument: "START", group: .hidden,
                help: "what the keypad's \(digit) starts: a duration and a label, or a preset", fits: [],
                inConfigFile: true
            ) { options, name, value throws(UsageError) in
                options.keypad.starts[digit] = try keyStart(name, value)
            }
        }

    /// A digit key's start: `StartRequest`'s words (`9m pasta`, `soft`), or a label before the
    /// duration (`pasta 9m`, as the config file's example writes it).
    /// - Throws: `UsageError` naming the key with the start parser's reason.
    static func keyStart(_ name: ValueSource, _ value: String) throws(UsageError) -> StartRequest {
        let presets = Preset.eggs.map(\.name)
        do {
            return try StartRequest.parse(value, presets: presets)
        } catch {
            let words = value.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, let swapped = try? StartRequest.parse("\(words[1]) \(words[0])", presets: presets),
                case .duration = swapped.length
            {
                return swapped
            }
            throw name.error(because: error.description)
        }
    }

    /// `value` for a message: control characters as `?`, at most 60 characters (TextCoding's
    /// ``Swift/StringProtocol/controlCharactersAsQuestionMarks(limit:)``).
    static func printable(_ value: String) -> String { value.controlCharactersAsQuestionMarks() }
}
