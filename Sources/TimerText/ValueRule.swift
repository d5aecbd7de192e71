import SystemKit
import TextCoding

/// The rules of the values a timer's options and its record share: what a `--say` line,
/// a `--voice` name and a device name may be, and how many `--loops` there may be (a label's
/// rule is SystemKit's `LabelRule`).
///
/// The command line checks its values by them (eggtimer's option table), and so does a record read
/// back for `eggtimer recover` (a hand-made record must not carry more). Pure; any thread.
public enum ValueRule {
    /// The largest `--loops` and `--sets` accepted (a sanity bound, not a design limit).
    public static let countLimit = 1_000_000
    /// The longest ALSA PCM name taken, in bytes: 255, beyond any real one
    /// (`sysdefault:CARD=Headphones`, `bluealsa:DEV=00:11:22:33:44:55,PROFILE=a2dp`).
    public static let deviceNameLimit = 255
    /// The longest `--say` text, in UTF-8 bytes: 200 (about 12 s of speech at espeak-ng's
    /// 175 words a minute; a line, not a speech).
    public static let sayLimit = 200
    /// The longest `--voice` name, in bytes: 40 (espeak-ng's names are up to about 20, `en-gb-x-rp`).
    public static let voiceLimit = 40

    /// Whether `text` may be spoken: 1 to ``sayLimit`` bytes, no control character (C0, DEL or C1).
    public static func isValidSay(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= sayLimit
            && !text.containsControlCharacters
    }

    /// Whether `name` is a voice name by the simple rule (``voiceNameProblem(_:)`` finds nothing).
    public static func isValidVoice(_ name: String) -> Bool { voiceNameProblem(name) == nil }

    /// What is wrong with a `--voice` name by the simple rule, or nil when nothing is.
    ///
    /// A name is 1 to ``voiceLimit`` bytes: ASCII letters, digits and `-`, then optionally `+`
    /// and a variant of the same (`en-gb`, `de`, `en+f3`). Whether espeak-ng lists the voice and
    /// the variant is the Speech target's check (`VoiceCatalog`), made when a timer or the kitchen
    /// that will speak starts.
    /// - Parameter name: The name as given.
    /// - Returns: The problem as a predicate for a message (`takes at most 40 bytes, got 10240`);
    ///   nil for a good name.
    public static func voiceNameProblem(_ name: String) -> String? {
        guard name.utf8.count <= voiceLimit else { return "takes at most \(voiceLimit) bytes, got \(name.utf8.count)" }
        let parts = name.utf8.split(separator: UInt8(ascii: "+"), omittingEmptySubsequences: false)
        let wellFormed =
            !name.isEmpty && parts.count <= 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.allSatisfy { byte in
                        switch byte {
                        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                            true
                        default: false
                        }
                    }
            }
        guard wellFormed else {
            return
                "needs a voice name of letters, digits and -, optionally +VARIANT (en-gb, de, en+f3), got '\(name.escapingControlCharacters)'"
        }
        return nil
    }

    /// What is wrong with an ALSA PCM name for `-D` or `--fallback-device`, or nil when nothing is.
    ///
    /// At most ``deviceNameLimit`` bytes and no control characters (a name from a script that
    /// swallowed a tab or a newline would otherwise fail only at the deadline, in silence). An
    /// empty value is refused before this, as for every option.
    /// - Parameter value: The name as given.
    /// - Returns: The problem as a predicate for a message (`takes at most 255 bytes, got 300`);
    ///   nil for a good name.
    public static func deviceNameProblem(_ value: String) -> String? {
        guard value.utf8.count <= deviceNameLimit else {
            return "takes at most \(deviceNameLimit) bytes, got \(value.utf8.count)"
        }
        guard !value.containsControlCharacters else {
            return "needs an ALSA device name without control characters, got '\(value.escapingControlCharacters)'"
        }
        return nil
    }
}
