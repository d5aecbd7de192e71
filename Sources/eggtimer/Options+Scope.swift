import TimerCore
import TimerText

// Which options fit which mode is said once, by each row of the option table (``Options/Spec/fits``):
// the parser refuses an option given where it does nothing, and `--help`, the man page and the
// completion list where each option fits from the same rows (issue 24).

extension Options {
    /// What a command line runs, as far as options go: an option's row lists the scopes where it
    /// does something (``Spec/fits``), and one given on the command line anywhere else is refused.
    enum Scope: Hashable, Sendable {
        /// No mode word: the egg menu.
        case menu
        /// An egg named on the command line (`soft`): the index into ``Options/presets``.
        case egg(Int)
        /// A timer of a given duration (`10m`).
        case duration
        /// `pomodoro`.
        case pomodoro
        /// `at TIME`.
        case at
        /// The hidden `--resume-record PATH` that `eggtimer recover` starts its timers with.
        case resumed
        /// A subcommand, by its name (``Subcommand/name``).
        case subcommand(String)

        /// Every scope that starts a timer: the menu, each egg, a duration, pomodoro and `at`.
        static let timers: [Scope] = [.menu] + Preset.eggs.indices.map { .egg($0) } + [.duration, .pomodoro, .at]

        /// The menu and each egg: where the egg times and the egg physics fit.
        static let eggs: [Scope] = [.menu] + Preset.eggs.indices.map { .egg($0) }

        /// The subcommands named.
        static func subcommands(_ names: [String]) -> [Scope] { names.map { .subcommand($0) } }

        /// Every scope there is: where `--help` and `--version` fit.
        static let everywhere: [Scope] = timers + [.resumed] + subcommands(Subcommand.table.map(\.name))

        /// What a refusal calls it: `a timer of a given duration`, `'pomodoro'`.
        var description: String {
            switch self {
            case .menu: "the egg menu"
            case .egg(let index): "'\(Preset.eggs[index].name.lowercased())'"
            case .duration: "a timer of a given duration"
            case .pomodoro: "'pomodoro'"
            case .at: "'at'"
            case .resumed: "--resume-record"
            case .subcommand(let name): "'\(name)'"
            }
        }

        /// What `--help` and the man page call it: `the menu`, `soft`, `DURATION`, `follow`.
        var word: String {
            switch self {
            case .menu: "the menu"
            case .egg(let index): Preset.eggs[index].name.lowercased()
            case .duration: "DURATION"
            case .pomodoro: "pomodoro"
            case .at: "at"
            case .resumed: "--resume-record"
            case .subcommand(let name): name
            }
        }
    }

    /// Where a timer's command line's options must fit: the mode's, or the menu's.
    /// - Parameters:
    ///   - command: The command the positional arguments made (a subcommand's scope is its name).
    ///   - resumed: Whether `--resume-record` was given (with no mode word: that timer's scope).
    /// - Returns: The scope the options given must fit.
    static func scope(of command: Command, resumed: Bool) -> Scope {
        switch command {
        case .preset(let index): .egg(index)
        case .countdown: .duration
        case .pomodoro: .pomodoro
        case .alarm: .at
        case .menu, .print, .help, .version, .control: resumed ? .resumed : .menu
        }
    }

    /// Checks that each option given on the command line fits `scope` (the config file's keys are
    /// never checked: they apply where they fit and are not applied elsewhere).
    /// - Parameters:
    ///   - given: The options as typed, in order, with their rows.
    ///   - scope: What the command line runs.
    /// - Throws: `UsageError` naming the first option that does not fit, the scope, and where it fits:
    ///   `option '--soft' does not work with a timer of a given duration (only with the egg menu or 'soft')`.
    static func check(_ given: [(name: String, spec: Spec)], fit scope: Scope) throws(UsageError) {
        guard let (name, spec) = given.first(where: { !$0.spec.fits.contains(scope) }) else { return }
        throw UsageError(
            description: "option '\(name)' does not work with \(scope.description) "
                + "(only with \(listed(spec.fits, quoted: true)))")
    }

    /// Scopes as words for a sentence: every timer as `a timer`, the menu and every egg as
    /// `the egg menu or an egg`, the rest one by one, joined with `or` (or `and`).
    /// - Parameters:
    ///   - scopes: The scopes, in table order; the hidden `--resume-record` is left out.
    ///   - quoted: Refusals' words (`'soft'`, `the egg menu`), else `--help`'s (`soft`, `the menu`).
    ///   - conjunction: The word before the last: `or` (only with one of them), `and` (also with them).
    /// - Returns: The words, `no mode word` for none.
    static func listed(_ scopes: [Scope], quoted: Bool, joining conjunction: String = "or") -> String {
        var rest = scopes.filter { $0 != .resumed }
        var words: [String] = []
        if Scope.timers.allSatisfy(rest.contains) {
            words.append("a timer")
            rest.removeAll { Scope.timers.contains($0) }
        } else if Scope.eggs.allSatisfy(rest.contains) {
            words.append(quoted ? "the egg menu or an egg" : "the menu or an egg")
            rest.removeAll { Scope.eggs.contains($0) }
        }
        words += rest.map { quoted ? $0.description : $0.word }
        guard words.count > 1 else { return words.first ?? "no mode word" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }

    /// What `--help` and the man page add to an option's text where it fits other than its
    /// section's heading says: `; also with follow`, `; only with the menu or soft`; nothing for
    /// one that fits everywhere or just as the heading says.
    /// - Parameters:
    ///   - spec: The option's row.
    ///   - heading: The scopes its section's heading names (``Spec/Group/scopes``).
    /// - Returns: The note to append to its help text, or "".
    static func fitNote(_ spec: Spec, heading: [Scope]) -> String {
        let fits = spec.fits.filter { $0 != .resumed }
        if Scope.everywhere.allSatisfy(spec.fits.contains) { return "" }
        if !heading.isEmpty, heading.allSatisfy(fits.contains) {
            let extra = fits.filter { !heading.contains($0) }
            return extra.isEmpty ? "" : "; also with " + listed(extra, quoted: false, joining: "and")
        }
        return "; only with " + listed(fits, quoted: false)
    }
}

extension Options.Spec.Group {
    /// The scopes its section's heading names in `--help` and the man page; each option's text
    /// says where it fits otherwise (``Options/fitNote(_:heading:)``).
    var scopes: [Options.Scope] {
        switch self {
        case .general, .timer: Options.Scope.timers
        case .presets: Options.Scope.eggs
        case .pomodoro: [.pomodoro]
        case .alarm: [.at]
        case .subcommand, .hidden: []
        }
    }

    /// What its heading adds to the title: ` (with the menu or an egg)`, or nothing.
    var headingNote: String { scopes.isEmpty ? "" : " (with \(Options.listed(scopes, quoted: false)))" }
}
