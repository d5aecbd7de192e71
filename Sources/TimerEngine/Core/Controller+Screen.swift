package import TimerCore
import TimerModel

/// What the screen shows beyond the ``TimerSnapshot``: the egg menu and the screen's own
/// animation instants, given out by the controller beside the snapshot (issue 22: the view reads
/// these two values, never the controller).
///
/// A plain value: any thread; instants are on the boot clock (`ContinuousClock`).
package struct ScreenExtras: Equatable {
    /// The egg menu as shown: the highlighted entry, the time being typed, the typing error.
    package struct Menu: Equatable {
        /// The highlighted entry: a preset's index, or the preset count for "Other time".
        package var selection = 0
        /// The duration being typed after `t`, if any.
        package var entry: String?
        /// Why the typed duration was refused.
        package var error: String?
    }

    /// The egg presets, in menu order.
    package var presets: [Preset] = Preset.eggs
    /// The menu while it waits for a pick; nil while a timer runs.
    package var menu: Menu?
    /// Whether the app returns to the menu after a timer.
    package var fromMenu = false
    /// Whether the app is done and about to exit (the snapshot's state is its outcome, if any).
    package var exited = false
    /// The preset index of the egg boiling; nil for any other timer.
    package var egg: Int?
    /// The menu entry picked to start this countdown (it flashes); nil when not picked.
    package var pickedEntry: Int?
    /// When that entry was picked (the countdown's start).
    package var pickedAt: ContinuousClock.Instant?
    /// When the alarm began ringing (the deadline); nil unless ringing.
    package var ringingSince: ContinuousClock.Instant?
    /// How the time came about, under the title (an egg's computed time, an alarm's resolution).
    package var note: String?
    /// An alarm at a time: the time of day as set (`07:00`); nil for a countdown.
    package var alarmTime: String?
    /// An alarm at a time: when it rings (`tomorrow at 07:00`).
    package var alarmWhen: String?
    /// The last device problem, until a device plays again (also before the alarm is due).
    package var deviceNotice: String?
    /// Whether `+` can add a minute to the countdown now.
    package var canAdd = false
    /// Whether `-` can take a minute off the countdown now.
    package var canTake = false
}

extension Controller {
    /// What the screen shows beside the snapshot at `now`: a pure function of the controller's state.
    package func screen(at now: Instant) -> ScreenExtras {
        var screen = ScreenExtras()
        screen.presets = configuration.presets
        screen.fromMenu = fromMenu
        switch mode {
        case .menu(let menu): screen.menu = .init(selection: menu.selection, entry: menu.entry, error: menu.error)
        case .counting(let counting): (screen.pickedEntry, screen.pickedAt) = (counting.pickedEntry, counting.startedAt)
        case .ringing(let ringing): screen.ringingSince = ringing.since
        case .exited: screen.exited = true
        }
        if case .egg(let index) = currentRun?.kind { screen.egg = index }
        screen.note = currentRun.flatMap(explanation) ?? schedule?.occurrence.note
        (screen.alarmTime, screen.alarmWhen) = (schedule.map { "\($0.occurrence.time)" }, schedule?.whenText)
        screen.deviceNotice = audio.notice.map { "\($0)" }
        screen.canAdd = canAdjust(by: .seconds(60), at: now)
        screen.canTake = canAdjust(by: .seconds(-60), at: now)
        return screen
    }
}
