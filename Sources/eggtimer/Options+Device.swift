import TimerEngine
import TimerText

extension Options {
    /// Checks an ALSA PCM name for `-D` or `--fallback-device` by ``ValueRule/deviceNameProblem(_:)``.
    /// - Parameters:
    ///   - name: Who gave it, for the message.
    ///   - value: The name as given.
    /// - Returns: `value`.
    /// - Throws: `UsageError` naming the option and the bad value (exit 64, or 78 from the config
    ///   file).
    static func deviceName(_ name: ValueSource, _ value: String) throws(UsageError) -> String {
        if let problem = ValueRule.deviceNameProblem(value) { throw name.error(problem) }
        return value
    }

    /// The device a ringing moves to, if one is set and differs from ``device`` (the same name
    /// again is no fallback).
    var fallback: String? {
        guard let fallbackDevice, fallbackDevice != device else { return nil }
        return fallbackDevice
    }
}
