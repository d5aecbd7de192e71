package import TimerCore

/// One countdown the user is watching: what it is for, its label, and its countdown.
package struct Run: Equatable {
    /// What the timer is for, which sets its titles.
    package enum Kind: Equatable {
        /// An egg from the menu or the command line: index into `Controller.Configuration.presets`.
        case egg(Int)
        /// A plain countdown (`eggtimer 90`, or a time typed in the menu).
        case plain
        /// The current pomodoro interval; its phase is `Controller.pomodoro`'s.
        case pomodoro
    }

    package let kind: Kind
    /// The timer's identifier, fixed at start: the preset's name, the duration as typed, or
    /// `pomodoro`.
    ///
    /// `+`/`-` never change it; the title on screen is derived elsewhere.
    package let label: String
    /// The deadline, on the boot clock (CLOCK_BOOTTIME, `ContinuousClock`).
    package var countdown: Countdown<ContinuousClock.Instant>
}
