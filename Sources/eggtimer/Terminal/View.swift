import TimerCore

/// Lays out what the terminal shows for a controller state at an instant, fitted to a size.
///
/// Pure: the same state, instant and size always give the same lines, which the `Screen` compares
/// to decide whether to redraw. Lines hold ANSI SGR codes; their visible text never exceeds the
/// width, measured by display width.
struct View {
    /// Glyphs and colours for the terminal at hand.
    struct Style: Equatable {
        /// Use Unicode glyphs (braille spinner, block bar); else ASCII.
        var unicode = true
        /// Use colours (off under NO_COLOR); bold and reverse video stay.
        var color = true
    }

    var style = Style()
    /// Start-up warnings (a damaged install, a truncated sound), shown under the legend because the
    /// full screen hides what was printed before it.
    var messages: [String] = []
    /// Whether keys reach the program; without a keyboard the legend says what works instead.
    var hasKeyboard = true
    /// This process's id, for the "kill -USR1" hint shown without a keyboard.
    var processID: Int32 = 0
    /// Whether to warn that the wall clock, which an alarm at a time follows, is not synchronised.
    var clockWarning = false

    /// A line's look.
    enum Tone { case plain, title, flash, selected, bar, error, notice, dim }

    /// How often the spinner steps: with the time left, so it stands still while paused.
    ///
    /// Once a second, on the same instants as the clock text, so a running countdown with the UI
    /// wakes the process once a second (the floor was twice; BENCHMARKS.md measures it).
    static let spinnerStep: Duration = .seconds(1)

    /// The lines for `controller` at `now` in a `columns` × `rows` terminal.
    func lines(_ controller: Controller, at now: ContinuousClock.Instant, columns: Int, rows: Int) -> [String] {
        let rowsOut = layout(controller, at: now, columns: columns)
        if columns < 24 || rows < rowsOut.count {
            return [fit(compact(controller, at: now), columns).styled(.plain, style)]
        }
        return rowsOut.map { fit($0.text, columns).styled($0.tone, style) }
    }

    /// The one plain line for tiny panes: time left first (what must survive the cut), spinner, title.
    func compact(_ controller: Controller, at now: ContinuousClock.Instant) -> String {
        guard let run = controller.currentRun else {
            if case .menu(let menu) = controller.mode, let entry = menu.entry { return "Time: \(entry)_" }
            return "Eggs? 1 soft 2 medium 3 hard"
        }
        return
            "\(run.countdown.remaining(at: now).clockText) \(spinner(run, at: now)) \(title(controller, run, at: now))"
    }

    /// A row of the layout: its text and look.
    private typealias Row = (text: String, tone: Tone)

    private func layout(_ controller: Controller, at now: ContinuousClock.Instant, columns: Int) -> [Row] {
        var rows: [Row] = [("", .plain), titleRow(controller, at: now)]
        // How a computed egg time came about, under the title.
        let note = controller.currentRun.flatMap(controller.explanation) ?? controller.schedule?.occurrence.note
        rows.append((note.map { "  " + $0 } ?? "", .dim))
        if showsMenu(controller) { rows += menuRows(controller, at: now) }
        if let run = controller.currentRun {
            let time = run.countdown.remaining(at: now).clockText
            let spin = spinner(run, at: now)
            let barWidth = max(4, columns - 4 - spin.unicodeScalars.count - 2 - time.utf8.count - 2)
            let filled = Int((run.countdown.progress(at: now) * Double(barWidth)).rounded(.down))
            let bar =
                String(repeating: style.unicode ? "█" : "#", count: filled)
                + String(repeating: style.unicode ? "░" : "-", count: barWidth - filled)
            rows.append(("  \(spin) \(bar)  \(time)", .bar))
            rows.append(("", .plain))
        }
        rows.append(("  " + legend(controller, at: now, columns: columns - 2), .dim))
        // Problems wrap rather than lose their end (the device name, the hint).
        var problems: [String] = []
        if let notice = controller.audio.notice {
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
    private func titleRow(_ controller: Controller, at now: ContinuousClock.Instant) -> Row {
        let titleText = controller.currentRun.map { title(controller, $0, at: now) } ?? exitedTitle(controller)
        var titleTone: Tone = .title
        if case .ringing = controller.mode, flashOn(controller, at: now) { titleTone = .flash }
        var titleLine = "  " + titleText
        if let pomodoro = controller.pomodoro {
            var done = pomodoro.completedInSet
            // Ringing at the end of a work interval (--wait): that pomodoro is done already.
            if case .ringing = controller.mode, pomodoro.phase == .work { done += 1 }
            let total = pomodoro.plan.longBreakAfter
            let meter =
                String(repeating: style.unicode ? "●" : "*", count: min(done, total))
                + String(repeating: style.unicode ? "○" : ".", count: max(0, total - done))
            titleLine += "   " + meter
        }
        return (titleLine, titleTone)
    }

    /// The title after the timer ended, while eggtimer stops the audio and exits (a moment on a
    /// working device, up to half a second on a stalled one); the menu's title in the menu.
    private func exitedTitle(_ controller: Controller) -> String {
        guard case .exited = controller.mode else { return EggTitles.menu }
        switch controller.outcome {
        case .done?: return "Alarm stopped."
        case .cancelled?: return "Cancelled."
        case .missed?: return "Missed: nobody stopped the alarm."
        default: return "Goodbye."
        }
    }

    /// Whether the egg menu shows: in the menu, while an egg boils, and for a time typed in it.
    private func showsMenu(_ controller: Controller) -> Bool {
        switch controller.mode {
        case .menu: return true
        case .exited: return false
        case .counting, .ringing: break
        }
        if case .egg = controller.currentRun?.kind { return true }
        return controller.fromMenu && controller.currentRun?.kind == .plain
    }

    /// The presets, "Other time" (or the time being typed), and the typing error line.
    private func menuRows(_ controller: Controller, at now: ContinuousClock.Instant) -> [Row] {
        let presets = controller.configuration.presets
        var menu: Controller.Menu?
        if case .menu(let shown) = controller.mode { menu = shown }
        let nameWidth = presets.map(\.name.count).max() ?? 0
        let timeWidth = presets.map(\.duration.clockText.count).max() ?? 0
        var rows: [Row] = []
        for (index, preset) in presets.enumerated() {
            let time = preset.duration.clockText
            let text =
                "   \(index + 1)  " + preset.name.padding(nameWidth) + "  "
                + String(repeating: " ", count: timeWidth - time.count) + time
            rows.append((text, tone(forEntry: index, controller, menu: menu, at: now)))
        }
        let otherText = menu?.entry.map { "   t  Time: \($0)_" } ?? "   t  Other time..."
        rows.append((otherText, tone(forEntry: presets.count, controller, menu: menu, at: now)))
        let error = menu?.error
        rows.append((error.map { "  " + $0 } ?? "", error == nil ? .plain : .error))
        return rows
    }

    private func tone(
        forEntry index: Int, _ controller: Controller, menu: Controller.Menu?, at now: ContinuousClock.Instant
    ) -> Tone {
        if let flashing = flashingEntry(controller, at: now), flashing.entry == index {
            return flashing.on ? .selected : .plain
        }
        if let menu { return menu.selection == index ? .selected : .plain }
        if case .egg(let picked) = controller.currentRun?.kind, picked == index { return .title }
        return .plain
    }

    /// The title for `run`: the egg, pomodoro and plain timer texts.
    func title(_ controller: Controller, _ run: Run, at now: ContinuousClock.Instant) -> String {
        let ringing: Bool
        if case .ringing = controller.mode { ringing = true } else { ringing = false }
        if run.countdown.isPaused { return EggTitles.paused }
        if case .counting(let counting) = controller.mode, counting.snoozed { return "Snoozed." }
        switch run.kind {
        case .egg(let index):
            return ringing ? EggTitles.done : EggTitles.counting(controller.configuration.presets[index].name)
        case .plain:
            if let schedule = controller.schedule {
                let left = run.countdown.remaining(at: now).clockText
                return ringing ? "Alarm! \(schedule.occurrence.time)" : "Rings \(schedule.whenText), in \(left)."
            }
            return ringing ? "Time's up!" : "Counting down \(run.countdown.total.clockText)."
        case .pomodoro:
            let phase = controller.pomodoro?.phase ?? .work
            if ringing, controller.pomodoro?.isLastInterval == true { return "Session complete!" }
            if ringing { return phase == .work ? "Pomodoro done! Take a break." : "Ready to work!" }
            switch phase {
            case .work: return "Pomodoro!"
            case .shortBreak: return "Short break."
            case .longBreak: return "Long break."
            }
        }
    }

    /// The spinner glyph: turns with the time left, so it stands still while paused.
    func spinner(_ run: Run, at now: ContinuousClock.Instant) -> String {
        let frames: [String] =
            style.unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        let step = Int((run.countdown.remaining(at: now) / Self.spinnerStep).rounded(.up))
        return frames[(frames.count - step % frames.count) % frames.count]
    }

    /// The keys that work now, worded for the state, as many whole entries as fit in `columns`.
    func legend(_ controller: Controller, at now: ContinuousClock.Instant, columns: Int = .max) -> String {
        let dot = style.unicode ? " · " : " | "
        var fitted = ""
        for entry in legendEntries(controller, at: now) {
            let next = fitted.isEmpty ? entry : fitted + dot + entry
            if next.displayWidth > columns { break }
            fitted = next
        }
        return fitted
    }

    /// The legend's entries, most important first.
    private func legendEntries(_ controller: Controller, at now: ContinuousClock.Instant) -> [String] {
        if !hasKeyboard {
            if case .ringing = controller.mode { return ["no keyboard: kill -USR1 \(processID) stops the alarm"] }
            return ["no keyboard: Ctrl-C quits"]
        }
        switch controller.mode {
        case .menu(let menu):
            if menu.entry != nil { return ["Enter start", "Esc back", "Backspace erase"] }
            let updown = style.unicode ? "↑↓ Enter pick" : "arrows+Enter pick"
            return ["1-3 egg", "q quit", updown, "t type a time"]
        case .counting(let counting) where controller.schedule != nil && !counting.snoozed:
            // An alarm at a time cannot be paused, restarted or moved (``Controller/isAlarmKeyIgnored``).
            return [controller.fromMenu ? "c menu" : "c cancel", "q quit"]
        case .counting(let counting):
            var keys = [counting.run.countdown.isPaused ? "space resume" : "space pause", "r restart"]
            if controller.canAdjust(by: .seconds(60), at: now) { keys.append("+ minute") }
            if controller.canAdjust(by: .seconds(-60), at: now) { keys.append("- minute") }
            if controller.pomodoro != nil { keys.append("n skip") }
            keys.append(controller.fromMenu ? "c menu" : "c cancel")
            keys.append("q quit")
            return keys
        case .ringing:
            return ["any key: stop the alarm", "z snooze"]
        case .exited:
            return []
        }
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
func wrap(_ text: String, columns: Int, continuation: String) -> [String] {
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
