import TextCoding
import TimerCore
import TimerModel

extension WebPage {
    /// The page's titles (issue 30's words), the script's too (`TITLES`).
    enum Title {
        /// No egg on: the menu.
        static let menu = "How do you like your eggs?"
        /// The words around an egg's preset name while it is on: "So you like it " + "Soft" + " huh?".
        static let counting = ("So you like it ", " huh?")
        /// The egg is done (acknowledged).
        static let done = "Alright, don't choke on them!"
    }

    /// The actions a timer's row offers in `state` (the script's `ACTIONS` is made from this):
    /// the last words of `POST /api/timers/NODE/LABEL/ACTION`.
    /// - Parameter state: The timer's state.
    /// - Returns: The actions, in the row's order.
    static func actions(_ state: TimerState) -> [String] {
        switch state {
        case .menu: ["cancel"]
        case .counting: ["pause", "add", "cancel"]
        case .paused: ["resume", "add", "cancel"]
        case .ringing, .silent: ["ack", "snooze"]
        case .snoozed: ["ack", "cancel"]
        case .done, .cancelled, .missed: []
        }
    }

    /// Every action button of a row, in order, with its words: the template holds them all.
    static let actionButtons = [
        ("pause", "Pause"), ("resume", "Resume"), ("add", "+1 min"), ("ack", "Stop"), ("snooze", "Snooze"),
        ("cancel", "Cancel"),
    ]

    /// The title for `picture`: an egg on says its preset, a done one the end, else the menu's.
    /// - Parameter picture: The timers; nil when not known.
    /// - Returns: The title's text (not escaped).
    static func title(_ picture: WebPicture?) -> String {
        let eggs = (picture?.timers ?? []).filter { $0.kind?.preset != nil }
        if let egg = eggs.first(where: { !$0.state.isFinal }), let preset = egg.kind?.preset {
            return Title.counting.0 + preset + Title.counting.1
        }
        return eggs.contains { $0.state == .done } ? Title.done : Title.menu
    }

    /// Whole seconds as a clock shows a time left: `5:07`, `1:02:03`; negative as 0.
    /// - Parameter seconds: Whole seconds.
    /// - Returns: The text.
    static func clock(seconds: Int64) -> String {
        let total = max(0, seconds)
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// A node name or label as one path segment of `/api/timers/NODE/LABEL/ACTION`.
    ///
    /// As the MQTT topics escape it (`/`, `+`, `#`, `%` and control characters as `%XX`, upper-case hex), and
    /// whatever else a URL path cannot hold (space, `?`, quotes, non-ASCII) as its UTF-8 `%XX`
    /// too. A valid label comes out exactly as its topic level. The script's `segment` is the same.
    /// - Parameter name: A node name or a label.
    /// - Returns: The segment.
    static func pathSegment(_ name: String) -> String {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@!$&'()*,;=".utf8)
        var out: [UInt8] = []
        for byte in name.utf8 {
            if kept.contains(byte) {
                out.append(byte)
            } else {
                out += Array(("%" + Hex.text([byte], uppercase: true)).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The whole page for `view` (page/page.html).
    static func html(_ view: View) -> String {
        Template.page.filled([
            "REFRESH": view.paired ? Template.refresh.filled([:]) : "",
            "BODY_CLASS": view.paired ? "paired" : "unpaired",
            "SCREEN": view.paired ? kitchen(view) : pairing(view.message),
            "ROW": row(nil, csrf: ""),
        ])
    }

    /// The pairing screen (page/pairing.html): what to run on the box, the code field.
    private static func pairing(_ message: String?) -> String {
        Template.pairing.filled(["ICON": icon, "MESSAGE": messageLine(message, id: "pair-message")])
    }

    /// The kitchen (page/kitchen.html): the title, the eggs, the timers (in sight on a phone's
    /// first screen), the duration form; then the ringing screen.
    private static func kitchen(_ view: View) -> String {
        let csrf = view.csrf ?? ""
        let picture = view.picture
        let timers = picture?.timers ?? []
        var eggs = ""
        for (index, preset) in (picture?.presets ?? []).enumerated() {
            eggs += Template.egg.filled([
                "NAME": preset.name.htmlEscaped, "PICTURE": eggPictures[index % eggPictures.count],
                "TIME": clock(seconds: preset.seconds),
            ])
        }
        let kitchen = Template.kitchen.filled([
            "TITLE": title(picture).htmlEscaped, "MESSAGE": messageLine(view.message, id: "message"),
            "CSRF_FIELD": hiddenCSRF(csrf), "EGGS": eggs, "ROWS": timers.map { row($0, csrf: csrf) }.joined(),
            "START_ID": (view.startID ?? "").htmlEscaped,
            "NONE_HIDDEN": hidden(!timers.isEmpty), "NODE": (picture?.node ?? "").htmlEscaped,
        ])
        return kitchen + ringing(timers, csrf: csrf)
    }

    /// The ringing screen (page/ringing.html): which timers ring, a warning when one is silent,
    /// STOP and Snooze.
    ///
    /// Hidden while nothing rings. STOP acknowledges the one ringing timer, or every one.
    private static func ringing(_ timers: [WebTimer], csrf: String) -> String {
        let ringing = timers.filter { $0.state.isRinging }
        let stop = ringing.count == 1 ? actionPath(ringing[0], "ack") : "/api/ack-all"
        let snooze = ringing.first.map { actionPath($0, "snooze") } ?? "/api/ack-all"
        let silent = ringing.contains { $0.state == .silent || $0.deviceDown }
        return Template.ringing.filled([
            "HIDDEN": hidden(ringing.isEmpty), "BELL": bell,
            "NAMES": ringing.map(\.label).joined(separator: ", ").htmlEscaped, "VERB": ringing.count > 1 ? "are" : "is",
            "WARNING_HIDDEN": hidden(!silent), "STOP": stop.htmlEscaped, "CSRF_FIELD": hiddenCSRF(csrf),
            "SNOOZE": snooze.htmlEscaped,
        ])
    }

    /// `/api/timers/NODE/LABEL/ACTION` for `timer`.
    static func actionPath(_ timer: WebTimer, _ action: String) -> String {
        "/api/timers/\(pathSegment(timer.node))/\(pathSegment(timer.label))/\(action)"
    }

    /// One timer's row (page/row.html, its buttons page/button.html); `nil` makes the script's
    /// template (every part there, empty).
    ///
    /// A snoozed timer's time left reads "rings again in 9:58" (the words are the row file's,
    /// shown by the script too), never a bare time that could be a time of day.
    private static func row(_ timer: WebTimer?, csrf: String) -> String {
        let state = timer?.state
        let offered = state.map(actions) ?? []
        let seconds = timer.map { WholeSeconds.left($0.remaining) } ?? 0
        let total = timer?.total.map(WholeSeconds.left) ?? 0
        let phase = timer?.kind?.phase
        let pomodoro = phase != nil
        let warning: String? =
            switch (state, timer?.deviceDown ?? false) {
            case (.silent?, _): "Ringing with no sound: the alarm reaches no device."
            case (_, true): "The alarm's sound device is down."
            default: nil
            }
        var buttons = ""
        for (action, words) in actionButtons {
            buttons += Template.button.filled([
                "ACTION": action, "PATH": (timer.map { actionPath($0, action) } ?? "").htmlEscaped,
                "SECONDS": action == "add" ? " name=\"seconds\" value=\"60\"" : "",
                "HIDDEN": hidden(!offered.contains(action)), "WORDS": words,
            ])
        }
        func attribute(_ text: String?) -> String { (text ?? "").htmlEscaped }
        return Template.row.filled([
            "RINGING_CLASS": state?.isRinging == true ? " ringing" : "", "STATE": state?.rawValue ?? "",
            "KIND": attribute(timer?.kind?.word), "NODE": attribute(timer?.node), "LABEL": attribute(timer?.label),
            "SPIN_CLASS": pomodoro && state == .counting ? " spin" : "", "TOMATO_HIDDEN": hidden(!pomodoro),
            "TOMATO": tomato, "NODE_HIDDEN": hidden(timer?.isLocal != false),
            "WHEN_HIDDEN": hidden(state != .snoozed), "LEFT": timer == nil ? "" : clock(seconds: seconds),
            "PHASE_HIDDEN": hidden(phase == nil),
            "PHASE": attribute(phase), "MAX": total > 0 ? "\(total)" : "1",
            "VALUE": total > 0 ? "\(min(total, max(0, total - seconds)))" : "0",
            "WARNING_HIDDEN": hidden(warning == nil), "WARNING": attribute(warning),
            "CANCEL": timer.map { actionPath($0, "cancel") }?.htmlEscaped ?? "", "CSRF_FIELD": hiddenCSRF(csrf),
            "BUTTONS": buttons,
        ])
    }

    /// The form field that carries the CSRF token (page/csrf-field.html).
    private static func hiddenCSRF(_ csrf: String) -> String {
        Template.csrfField.filled(["CSRF": csrf.htmlEscaped])
    }

    /// The message line (an alert, page/message.html), hidden when there is none.
    private static func messageLine(_ message: String?, id: String) -> String {
        Template.message.filled(["ID": id, "HIDDEN": hidden(message == nil), "MESSAGE": (message ?? "").htmlEscaped])
    }

    /// The boolean attribute ` hidden` when `isHidden`, else nothing.
    private static func hidden(_ isHidden: Bool) -> String { isHidden ? " hidden" : "" }
}
