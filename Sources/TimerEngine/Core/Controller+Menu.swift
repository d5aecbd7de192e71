import TimerCore

extension Controller {
    /// The egg menu's state.
    package struct Menu: Equatable {
        /// The highlighted entry: a preset's index, or `presets.count` for "Other time".
        package var selection = 0
        /// The duration being typed after `t`, if any.
        package var entry: String?
        /// Why the typed duration was refused, shown under the menu.
        package var error: String?
    }

    /// Menu entries: the presets, then "Other time".
    package var menuCount: Int { configuration.presets.count + 1 }

    /// The longest duration that can be typed in the menu (the longest valid one is 12 characters).
    package static let entryLimit = 24

    /// What the menu says under its entries when it ignored a pick within the key guard.
    package static let pickIgnored = "Ignored: the alarm has just stopped. Pick again to start."

    /// Handles a key typed in the menu at `now`: the arrows move, a pick (a digit, an initial,
    /// `t`, Enter) starts an egg or the typing of a time, `q` quits.
    ///
    /// Within the key guard after an alarm (``menuGuard``) a pick is ignored, says so under the
    /// menu and makes the guard last ``Configuration/keyGuard`` from it: the keys typed to stop
    /// the alarm never silently start an egg. The arrows and `q` still work.
    package mutating func handleMenu(key: Key, _ menu: Menu, at now: Instant) {
        if let entry = menu.entry {
            handleEntry(key: key, entry: entry, selection: menu.selection, at: now)
            return
        }
        var pick: Int?
        switch key {
        case .up: mode = .menu(Menu(selection: (menu.selection + menuCount - 1) % menuCount))
        case .down: mode = .menu(Menu(selection: (menu.selection + 1) % menuCount))
        case .enter: pick = menu.selection
        case .character(let c): pick = pickedEntry(c, at: now)
        default: break
        }
        guard let pick else { return }
        if menuGuard.contains(now) {
            menuGuard.cover(now..<now.advanced(by: configuration.keyGuard), pressedAt: now)
            mode = .menu(Menu(selection: menu.selection, error: Self.pickIgnored))
            return
        }
        if pick == configuration.presets.count {
            mode = .menu(Menu(selection: pick, entry: ""))
        } else {
            let preset = configuration.presets[pick]
            begin(.egg(pick), duration: preset.duration, label: preset.name, at: now, picked: pick)
        }
    }

    /// The entry a character picks (`1`-`3`, a preset's initial, `t` or `o`), or nil; `q` quits.
    private mutating func pickedEntry(_ c: Character, at now: Instant) -> Int? {
        let lower = Character(c.lowercased())
        if let digit = c.wholeNumberValue, digit >= 1, digit <= configuration.presets.count { return digit - 1 }
        if let index = configuration.presets.firstIndex(where: { $0.name.lowercased().first == lower }) {
            return index
        }
        if lower == "t" || lower == "o" { return configuration.presets.count }
        if lower == "q" { exit(status(for: nil)) }
        return nil
    }

    private mutating func handleEntry(key: Key, entry: String, selection: Int, at now: Instant) {
        switch key {
        case .escape:
            mode = .menu(Menu(selection: selection))
        case .backspace:
            mode = .menu(Menu(selection: selection, entry: String(entry.dropLast())))
        case .eraseLine:
            mode = .menu(Menu(selection: selection, entry: ""))
        case .enter:
            do {
                let duration = try DurationParser.parse(entry)
                begin(.plain, duration: duration, label: entry, at: now, picked: selection)
            } catch {
                mode = .menu(Menu(selection: selection, entry: entry, error: error.description))
            }
        case .character(let c) where entry.count < Self.entryLimit:
            mode = .menu(Menu(selection: selection, entry: entry + String(c)))
        default:
            break
        }
    }
}
