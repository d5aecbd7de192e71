package import AlarmAudio
package import TimerCore
package import TimerEngine

/// What the kitchen reads of its configuration: the command line over the config file, as the
/// executable's `Options` parsed them (`Options.kitchenSettings`).
///
/// The kitchen never sees the command line: this value is all it is told. The defaults are
/// the options' own, for tests. A plain value; any thread.
package struct KitchenSettings: Sendable, Equatable {
    /// The ALSA PCM name of the kitchen's own sounds (the speaker test, spoken answers).
    package var device = "default"
    /// The ALSA PCM those move to when ``device`` cannot be opened, is lost or stalls; nil for
    /// none (already nil when it names ``device`` again).
    package var fallback: String?
    /// `--sound PATH`, or nil for the shipped sound: the alarm the speaker test plays and the
    /// page offers.
    package var soundPath: SoundFilePath?
    /// `--volume PERCENT`: ``Loudness/floorPercent`` (10) to 100.
    package var volume = 100
    /// `--ramp D`: rise from the floor to ``volume`` across this much of the alarm; nil for none.
    package var ramp: Duration?
    /// `--voice NAME`: the espeak-ng voice of the spoken answers; nil for espeak-ng's default.
    package var voice: String?
    /// Whether the kitchen speaks its answers and passes `--announce` to the timers it starts
    /// (true unless the config file says `announce = no`).
    package var announce = true
    /// `--mqtt`, `--mqtt-…` and `--node`: the broker, the topics and this node's name.
    package var bus = BusOptions()
    /// The `--http…` options: the HTTP API and the phone page.
    package var web = WebOptions()
    /// The keypad's devices and what its keys 4 to 9 start.
    package var keypad = KeypadSettings()
    /// The microphone and what it listens for (`--listen`); nil while the kitchen does not listen.
    package var listen: ListenSettings?
    /// The egg presets a request may name.
    package var presets = Preset.eggs
    /// How many timers may run at once, 1...``KitchenCore/maxTimersLimit``.
    package var maxTimers = 12

    /// The default settings (the options' defaults).
    package init() {}

    /// The loudness of the alarm `sound` as the kitchen plays it: ``volume`` and ``ramp``, the
    /// ramp counted at the sound's rate.
    /// - Parameter sound: The decoded alarm.
    /// - Returns: The loudness.
    package func loudness(for sound: AlarmSound) -> Loudness {
        Loudness(volumePercent: volume, ramp: ramp, sampleRate: sound.sampleRate)
    }
}
