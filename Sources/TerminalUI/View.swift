import TimerCore
package import TimerEngine
package import TimerModel

/// Lays out what the terminal shows for a timer's snapshot at an instant, fitted to a size.
///
/// Pure: the same ``TimerSnapshot`` and ``ScreenExtras``, instant and size always give the same
/// lines (it never reads the controller), which the `Screen` compares
/// to decide whether to redraw. Lines hold ANSI SGR codes; their visible text never exceeds the
/// width, measured by display width.
package struct View {
    /// Glyphs and colours for the terminal at hand.
    package struct Style: Equatable {
        /// Use Unicode glyphs (braille spinner, block bar); else ASCII.
        var unicode = true
        /// Use colours (off under NO_COLOR); bold and reverse video stay.
        var color = true

        /// Unicode glyphs and colours unless told otherwise.
        package init(unicode: Bool = true, color: Bool = true) { (self.unicode, self.color) = (unicode, color) }
    }

    var style = Style()
    /// Start-up warnings (a damaged install, a truncated sound), shown under the legend because the
    /// full screen hides what was printed before it.
    package var messages: [String] = []
    /// Whether keys reach the program; without a keyboard the legend says what works instead.
    package var hasKeyboard = true
    /// This process's id, for the "kill -USR1" hint shown without a keyboard.
    package var processID: Int32 = 0
    /// Whether to warn that the wall clock, which an alarm at a time follows, is not synchronised.
    package var clockWarning = false

    /// A view in `style`, with no messages, a keyboard and no clock warning.
    package init(style: Style = Style()) { self.style = style }

    /// A line's look.
    enum Tone { case plain, title, flash, selected, bar, error, notice, dim }

    /// How often the spinner steps: with the time left, so it stands still while paused.
    ///
    /// Once a second, on the same instants as the clock text, so a running countdown with the UI
    /// wakes the process once a second (the floor was twice; BENCHMARKS.md measures it).
    static let spinnerStep: Duration = .seconds(1)

    /// The lines for `snapshot` and `screen` at `now` (boot clock) in a `columns` × `rows` terminal.
    ///
    /// The time left is worked out at `now` from the snapshot's deadline (its `remaining` while
    /// paused), so a snapshot taken earlier in the round draws the same as one taken at `now`.
    package func lines(
        _ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant, columns: Int, rows: Int
    ) -> [String] {
        let rowsOut = layout(snapshot, screen, at: now, columns: columns)
        if columns < 24 || rows < rowsOut.count {
            return [fit(compact(snapshot, screen, at: now), columns).styled(.plain, style)]
        }
        return rowsOut.map { fit($0.text, columns).styled($0.tone, style) }
    }

    /// The one plain line for tiny panes: time left first (what must survive the cut), spinner, title.
    func compact(_ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant) -> String {
        guard Self.showsRun(snapshot, screen) else {
            if let entry = screen.menu?.entry { return "Time: \(entry)_" }
            return "Eggs? 1 soft 2 medium 3 hard"
        }
        let left = Self.remaining(snapshot, at: now)
        return "\(left.clockText) \(spinner(left)) \(title(snapshot, screen, at: now))"
    }

    /// Whether a countdown is on screen (counting, paused, snoozed or ringing).
    static func showsRun(_ snapshot: TimerSnapshot, _ screen: ScreenExtras) -> Bool {
        !screen.exited && snapshot.kind != nil
    }

    /// The time left at `now`: to the snapshot's deadline, or its frozen time left while paused.
    static func remaining(_ snapshot: TimerSnapshot, at now: ContinuousClock.Instant) -> Duration {
        guard let deadline = snapshot.deadline else { return snapshot.remaining }
        return max(.zero, now.duration(to: deadline))
    }

    /// A row of the layout: its text and look.
    private typealias Row = (text: String, tone: Tone)

    private func layout(
        _ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant, columns: Int
    ) -> [Row] {
        var rows: [Row] = [("", .plain), titleRow(snapshot, screen, at: now)]
        // How a computed egg time came about, under the title.
        rows.append((screen.note.map { "  " + $0 } ?? "", .dim))
        if showsMenu(snapshot, screen) { rows += menuRows(snapshot, screen, at: now) }
        if Self.showsRun(snapshot, screen) {
            let left = Self.remaining(snapshot, at: now)
            let time = left.clockText
            let spin = spinner(left)
            let barWidth = max(4, columns - 4 - spin.unicodeScalars.count - 2 - time.utf8.count - 2)
            let progress = min(1, max(0, (snapshot.total - left) / snapshot.total))
            let filled = Int((progress * Double(barWidth)).rounded(.down))
            let bar =
                String(repeating: style.unicode ? "█" : "#", count: filled)
                + String(repeating: style.unicode ? "░" : "-", count: barWidth - filled)
            rows.append(("  \(spin) \(bar)  \(time)", .bar))
            rows.append(("", .plain))
        }
        rows.append(("  " + legend(snapshot, screen, columns: columns - 2), .dim))
        // Problems wrap rather than lose their end (the device name, the hint).
        var problems: [String] = []
        if let notice = screen.deviceNotice {
            problems.append("no sound: \(notice)")
            problems.append("the terminal bell rings instead; -D NAME picks a device (see aplay -L)")
        }
        problems += messages.map { "warning: " + $0 }
        if clockWarning { problems.append("warning: " + ClockSync.warning) }
        if problems.isEmpty { rows.append(("", .plain)) }
        for problem in problems {
            for line in wrap(problem, columns: columns - 2, continuation: "  ") { rows.append(("  " + line, .notice)) }
        }
        return rows
    }

    /// The title, flashing while ringing, with the tomato meter during a pomodoro.
    private func titleRow(_ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant) -> Row {
        let titleText =
            Self.showsRun(snapshot, screen) ? title(snapshot, screen, at: now) : exitedTitle(snapshot, screen)
        var titleTone: Tone = .title
        if flashOn(screen, at: now) { titleTone = .flash }
        var titleLine = "  " + titleText
        if let pomodoro = snapshot.pomodoro {
            let (done, total) = (pomodoro.done, pomodoro.perSet)
            let meter =
                String(repeating: style.unicode ? "●" : "*", count: min(done, total))
                + String(repeating: style.unicode ? "○" : ".", count: max(0, total - done))
            titleLine += "   " + meter
        }
        return (titleLine, titleTone)
    }

    /// The title after the timer ended, while eggtimer stops the audio and exits (a moment on a
    /// working device, up to half a second on a stalled one); the menu's title in the menu.
    private func exitedTitle(_ snapshot: TimerSnapshot, _ screen: ScreenExtras) -> String {
        guard screen.exited else { return EggTitles.menu }
        switch snapshot.state {
        case .done: return "Alarm stopped."
        case .cancelled: return "Cancelled."
        case .missed: return "Missed: nobody stopped the alarm."
        default: return "Goodbye."
        }
    }

    /// Whether the egg menu shows: in the menu, while an egg boils, and for a time typed in it.
    private func showsMenu(_ snapshot: TimerSnapshot, _ screen: ScreenExtras) -> Bool {
        if screen.menu != nil { return true }
        guard Self.showsRun(snapshot, screen) else { return false }
        if screen.egg != nil { return true }
        return screen.fromMenu && snapshot.kind == .plain
    }

    /// The presets, "Other time" (or the time being typed), and the typing error line.
    private func menuRows(_ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant) -> [Row] {
        let presets = screen.presets
        let menu = screen.menu
        let nameWidth = presets.map(\.name.count).max() ?? 0
        let timeWidth = presets.map(\.duration.clockText.count).max() ?? 0
        var rows: [Row] = []
        for (index, preset) in presets.enumerated() {
            let time = preset.duration.clockText
            let text =
                "   \(index + 1)  " + preset.name.padding(nameWidth) + "  "
                + String(repeating: " ", count: timeWidth - time.count) + time
            rows.append((text, tone(forEntry: index, screen, at: now)))
        }
        let otherText = menu?.entry.map { "   t  Time: \($0)_" } ?? "   t  Other time..."
        rows.append((otherText, tone(forEntry: presets.count, screen, at: now)))
        let error = menu?.error
        rows.append((error.map { "  " + $0 } ?? "", error == nil ? .plain : .error))
        return rows
    }

    private func tone(forEntry index: Int, _ screen: ScreenExtras, at now: ContinuousClock.Instant) -> Tone {
        if let flashing = flashingEntry(screen, at: now), flashing.entry == index {
            return flashing.on ? .selected : .plain
        }
        if let menu = screen.menu { return menu.selection == index ? .selected : .plain }
        if screen.egg == index { return .title }
        return .plain
    }

    /// The title for the countdown on screen: the egg, pomodoro, alarm and plain timer texts.
    func title(_ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant) -> String {
        let ringing = snapshot.state.isRinging
        if snapshot.deadline == nil, !ringing { return EggTitles.paused }
        if snapshot.state == .snoozed { return "Snoozed." }
        switch snapshot.kind {
        case .egg(let name)?:
            return ringing ? EggTitles.done : EggTitles.counting(name)
        case .alarm?:
            let left = Self.remaining(snapshot, at: now).clockText
            let (time, when) = (screen.alarmTime ?? "", screen.alarmWhen ?? "")
            return ringing ? "Alarm! \(time)" : "Rings \(when), in \(left)."
        case .plain?, nil:
            return ringing ? "Time's up!" : "Counting down \(snapshot.total.clockText)."
        case .pomodoro(let phase)?:
            let work = phase == Pomodoro.Phase.work.rawValue
            if ringing, snapshot.pomodoro?.isLast == true { return "Session complete!" }
            if ringing { return work ? "Pomodoro done! Take a break." : "Ready to work!" }
            switch Pomodoro.Phase(rawValue: phase) {
            case .work?, nil: return "Pomodoro!"
            case .shortBreak?: return "Short break."
            case .longBreak?: return "Long break."
            }
        }
    }

    /// The spinner glyph for `left`, the time left: turns with it, so it stands still while paused.
    func spinner(_ left: Duration) -> String {
        let frames: [String] =
            style.unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        let step = Int((left / Self.spinnerStep).rounded(.up))
        return frames[(frames.count - step % frames.count) % frames.count]
    }

    /// The keys that work now, worded for the state, as many whole entries as fit in `columns`.
    func legend(_ snapshot: TimerSnapshot, _ screen: ScreenExtras, columns: Int = .max) -> String {
        let dot = style.unicode ? " · " : " | "
        var fitted = ""
        for entry in legendEntries(snapshot, screen) {
            let next = fitted.isEmpty ? entry : fitted + dot + entry
            if next.displayWidth > columns { break }
            fitted = next
        }
        return fitted
    }

    /// The legend's entries, most important first.
    private func legendEntries(_ snapshot: TimerSnapshot, _ screen: ScreenExtras) -> [String] {
        let ringing = Self.showsRun(snapshot, screen) && snapshot.state.isRinging
        if !hasKeyboard {
            if ringing { return ["no keyboard: kill -USR1 \(processID) stops the alarm"] }
            return ["no keyboard: Ctrl-C quits"]
        }
        if let menu = screen.menu {
            if menu.entry != nil { return ["Enter start", "Esc back", "Backspace erase"] }
            let updown = style.unicode ? "↑↓ Enter pick" : "arrows+Enter pick"
            return ["1-3 egg", "q quit", updown, "t type a time"]
        }
        guard Self.showsRun(snapshot, screen) else { return [] }
        if ringing { return ["any key: stop the alarm", "z snooze"] }
        if snapshot.schedule != nil, snapshot.state != .snoozed {
            // An alarm at a time cannot be paused, restarted or moved (``Controller/isAlarmKeyIgnored``).
            return [screen.fromMenu ? "c menu" : "c cancel", "q quit"]
        }
        var keys = [snapshot.deadline == nil ? "space resume" : "space pause", "r restart"]
        if screen.canAdd { keys.append("+ minute") }
        if screen.canTake { keys.append("- minute") }
        if snapshot.pomodoro != nil { keys.append("n skip") }
        keys.append(screen.fromMenu ? "c menu" : "c cancel")
        keys.append("q quit")
        return keys
    }
}

extension String {
    /// Left-aligned in `width` columns (never truncates).
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }

    /// With the SGR codes for `tone`.
    fileprivate func styled(_ tone: View.Tone, _ style: View.Style) -> String {
        let code: String
        switch tone {
        case .plain: return self
        case .title: code = style.color ? "1;33" : "1"
        case .flash: code = style.color ? "1;7;33" : "1;7"
        case .selected: code = "7"
        case .bar: code = style.color ? "32" : ""
        case .error: code = style.color ? "31" : ""
        case .notice: code = style.color ? "33" : ""
        case .dim: code = style.color ? "2" : ""
        }
        return code.isEmpty || isEmpty ? self : "\u{1B}[\(code)m\(self)\u{1B}[0m"
    }
}

/// `text` cut to `columns` terminal columns, measured by display width (a CJK character or an
/// emoji takes two), never splitting a character.
private func fit(_ text: String, _ columns: Int) -> String {
    let escaped = text.escapingControlCharacters
    return escaped.displayWidth <= columns ? escaped : String(escaped.prefix(displayWidth: max(0, columns)))
}

/// `text` in lines of at most `columns` display columns, broken at spaces where it can be (a word longer
/// than a line is cut); lines after the first start with `continuation`.
package func wrap(_ text: String, columns: Int, continuation: String) -> [String] {
    let width = max(8, columns)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = line.isEmpty ? String(word) : line + " " + word
        if candidate.displayWidth <= width || line.isEmpty || line == continuation {
            line = candidate
        } else {
            lines.append(line)
            line = continuation + word
        }
    }
    lines.append(line)
    return lines
}
