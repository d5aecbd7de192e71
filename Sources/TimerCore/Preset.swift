/// A named countdown length offered in the egg menu.
public struct Preset: Sendable, Hashable {
    /// The display name, capitalised: `Soft`.
    public var name: String
    /// The countdown length.
    public var duration: Duration

    /// Creates a preset.
    /// - Precondition: `duration > .zero`.
    public init(name: String, duration: Duration) {
        precondition(duration > .zero, "a preset needs a positive duration")
        (self.name, self.duration) = (name, duration)
    }

    /// The egg menu: Soft 5:00, Medium 7:00, Hard 12:00 (the original app's times).
    public static let eggs: [Preset] = [
        Preset(name: "Soft", duration: .seconds(5 * 60)),
        Preset(name: "Medium", duration: .seconds(7 * 60)),
        Preset(name: "Hard", duration: .seconds(12 * 60)),
    ]
}

/// The texts of the egg timer, exactly as the original app shows them (plain ASCII apostrophe).
public enum EggTitles {
    /// The menu's title.
    public static let menu = "How do you like your eggs?"
    /// The title while an egg boils: `So you like it Soft huh?`.
    public static func counting(_ preset: String) -> String { "So you like it \(preset) huh?" }
    /// The title when the time is up.
    public static let done = "Alright, don't choke on them!"
    /// The title while paused.
    public static let paused = "Paused."
}
