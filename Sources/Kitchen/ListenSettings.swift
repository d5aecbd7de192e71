/// What the kitchen's listener is told (issue 46).
///
/// `--listen`, `--wake` and `--listen-labels`, as the executable's options parsed them. A plain
/// value; any thread.
package struct ListenSettings: Sendable, Equatable {
    /// The ALSA capture PCM the microphone is.
    package var device: String
    /// The wake phrase's words, lowercased: "egg timer" unless `--wake` says otherwise.
    package var wakePhrase: [String] = ["egg", "timer"]
    /// The labels that can be spoken before a duration and after "cancel", lowercased
    /// (`--listen-labels`); a label with a word the dictionary lacks is left out at start.
    package var labels: [String] = []
    /// Where the config file set the wake phrase (`FILE:LINE`), so that words the dictionary
    /// lacks are a bad config line (78) rather than a bad option (64); nil from the command line.
    package var wakeConfigLine: String?

    /// Listening on `device`, with the default wake phrase and no labels.
    /// - Parameter device: The capture PCM's name.
    package init(device: String) { self.device = device }
}
