// The kind's words, as the control socket's status line (`kind=`, `preset=`, `phase=`), the
// kitchen's HTTP API (`kind`, `preset`, `phase`) and the page say them: coded here once.

extension TimerSnapshot.Kind {
    /// Every kind's word, in the order the man page lists them: `egg`, `plain`, `pomodoro`, `alarm`.
    public static let words = ["egg", "plain", "pomodoro", "alarm"]

    /// The kind's word: one of ``words``.
    public var word: String {
        switch self {
        case .egg: "egg"
        case .plain: "plain"
        case .pomodoro: "pomodoro"
        case .alarm: "alarm"
        }
    }

    /// An egg's preset name (`Soft`); nil for any other kind.
    public var preset: String? {
        guard case .egg(let name) = self else { return nil }
        return name
    }

    /// A pomodoro's phase (`work`, `short break`, `long break`); nil for any other kind.
    public var phase: String? {
        guard case .pomodoro(let phase) = self else { return nil }
        return phase
    }

    /// The kind of `word`, with an egg's `preset` or a pomodoro's `phase`.
    ///
    /// Nil for a word outside ``words`` (a newer eggtimer's), an egg without a preset or a
    /// pomodoro without a phase. Pure; the caller checks the names' length and characters.
    /// - Parameters:
    ///   - word: The kind's word.
    ///   - preset: An egg's preset name, when given.
    ///   - phase: A pomodoro's phase, when given.
    public init?(word: some StringProtocol, preset: String?, phase: String?) {
        switch word {
        case "egg":
            guard let preset else { return nil }
            self = .egg(preset)
        case "plain": self = .plain
        case "pomodoro":
            guard let phase else { return nil }
            self = .pomodoro(phase: phase)
        case "alarm": self = .alarm
        default: return nil
        }
    }
}
