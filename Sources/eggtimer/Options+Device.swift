import TimerEngine
import TimerText

extension Options {
    /// The longest ALSA PCM name taken, in bytes: 255, beyond any real one
    /// (`sysdefault:CARD=Headphones`, `bluealsa:DEV=00:11:22:33:44:55,PROFILE=a2dp`).
    static let deviceNameLimit = 255

    /// Checks an ALSA PCM name for `-D` or `--fallback-device`.
    ///
    /// At most ``deviceNameLimit`` bytes and no control characters (a name from a script that
    /// swallowed a tab or a newline would otherwise fail only at the deadline, in silence). An
    /// empty value is refused before this, as for every option.
    /// - Parameters:
    ///   - name: Who gave it, for the message.
    ///   - value: The name as given.
    /// - Returns: `value`.
    /// - Throws: `UsageError` naming the option and the bad value (exit 64, or 78 from the config
    ///   file).
    static func deviceName(_ name: ValueSource, _ value: String) throws(UsageError) -> String {
        guard value.utf8.count <= deviceNameLimit else {
            throw name.error("takes at most \(deviceNameLimit) bytes, got \(value.utf8.count)")
        }
        guard !value.containsControlCharacters else {
            throw name.error(
                "needs an ALSA device name without control characters, got '\(value.escapingControlCharacters)'")
        }
        return value
    }

    /// The device a ringing moves to, if one is set and differs from ``device`` (the same name
    /// again is no fallback).
    var fallback: String? {
        guard let fallbackDevice, fallbackDevice != device else { return nil }
        return fallbackDevice
    }
}
