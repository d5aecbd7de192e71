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
        let eggs = (picture?.timers ?? []).filter { $0.preset != nil }
        if let egg = eggs.first(where: { !$0.state.isFinal }), let preset = egg.preset {
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

    /// The whole page for `view`.
    static func html(_ view: View) -> String {
        var body = ""
        if view.paired {
            body += kitchen(view)
        } else {
            body += pairing(view.message)
        }
        let refresh = view.paired ? "<noscript><meta http-equiv=\"refresh\" content=\"10\"></noscript>\n" : ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="theme-color" content="#8a4b00">
            <title>eggtimer</title>
            <link rel="stylesheet" href="/app.css">
            <link rel="manifest" href="/manifest.webmanifest">
            <link rel="icon" href="/icon.svg" type="image/svg+xml">
            <script src="/app.js" defer></script>
            \(refresh)</head>
            <body class="\(view.paired ? "paired" : "unpaired")">
            <main>
            \(body)</main>
            <template id="timer-row">\(row(nil, csrf: ""))</template>
            </body>
            </html>

            """
    }

    /// The pairing screen: what to run on the box, the code field.
    private static func pairing(_ message: String?) -> String {
        """
        <section id="pair" class="screen">
        <div class="picture">\(icon)</div>
        <h1>Pair this phone</h1>
        <p>On the kitchen's box run <code>eggtimer kitchen --pair</code> (or hold the keypad's Enter key) \
        and type the six digits it gives.</p>
        \(messageLine(message, id: "pair-message"))<form method="post" action="/api/pair" id="pair-form">
        <label for="code">Pairing code</label>
        <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" \
        autocomplete="one-time-code" required>
        <button type="submit" class="primary" id="pair-button">Pair</button>
        </form>
        </section>

        """
    }

    /// The kitchen: the title, the eggs, the timers (in sight on a phone's first screen), the
    /// duration form, the ringing screen.
    private static func kitchen(_ view: View) -> String {
        let csrf = view.csrf ?? ""
        let picture = view.picture
        let timers = picture?.timers ?? []
        var eggs = ""
        for (index, preset) in (picture?.presets ?? []).enumerated() {
            let seconds = "\(clock(seconds: preset.seconds))"
            eggs += """
                <button class="egg" name="start" value="\(preset.name.htmlEscaped)" data-preset="\(preset.name.htmlEscaped)">\
                <span class="egg-picture">\(eggPictures[index % eggPictures.count])</span>\
                <span class="egg-name">\(preset.name.htmlEscaped)</span>\
                <span class="egg-time">\(seconds)</span></button>

                """
        }
        let rows = timers.map { row($0, csrf: csrf) }.joined()
        let none = timers.isEmpty ? "" : " hidden"
        return """
            <section id="kitchen" class="screen">
            <h1 id="title">\(title(picture).htmlEscaped)</h1>
            \(messageLine(view.message, id: "message"))<form method="post" action="/api/timers" class="eggs" id="eggs">
            \(hiddenCSRF(csrf))\(eggs)</form>
            <h2>Timers</h2>
            <ul id="timers" class="timers">\(rows)</ul>
            <p id="none" class="none"\(none)>No timer runs.</p>
            <form method="post" action="/api/timers" class="custom" id="custom">
            \(hiddenCSRF(csrf))<label for="start">Duration</label>
            <input id="start" name="start" placeholder="7m30s" maxlength="40" autocomplete="off" required>
            <label for="label">Label</label>
            <input id="label" name="label" placeholder="pasta" maxlength="64" autocomplete="off">
            <button type="submit" class="primary" id="start-button">Start</button>
            </form>
            <footer><span id="node">\((picture?.node ?? "").htmlEscaped)</span>
            <form method="post" action="/api/unpair" id="unpair">\(hiddenCSRF(csrf))\
            <button type="submit" class="quiet">Unpair this phone</button></form></footer>
            </section>
            \(ringing(timers, csrf: csrf))
            """
    }

    /// The ringing screen: which timers ring, a warning when one is silent, STOP and Snooze.
    ///
    /// Hidden while nothing rings. STOP acknowledges the one ringing timer, or every one.
    private static func ringing(_ timers: [WebTimer], csrf: String) -> String {
        let ringing = timers.filter { $0.state.isRinging }
        let names = ringing.map(\.label).joined(separator: ", ")
        let stop = ringing.count == 1 ? actionPath(ringing[0], "ack") : "/api/ack-all"
        let snooze = ringing.first.map { actionPath($0, "snooze") } ?? "/api/ack-all"
        let silent = ringing.contains { $0.state == .silent || $0.deviceDown }
        return """
            <section id="ringing" class="ringing" role="alertdialog" aria-labelledby="ring-title"\
            \(ringing.isEmpty ? " hidden" : "")>
            <div class="bell">\(bell)</div>
            <h1 id="ring-title"><span id="ring-names">\(names.htmlEscaped)</span> \
            <span id="ring-verb">\(ringing.count > 1 ? "are" : "is") ringing</span></h1>
            <p id="ring-warning" class="warning"\(silent ? "" : " hidden")>No sound device: \
            the kitchen's alarm is silent, only this phone rings.</p>
            <form method="post" action="\(stop.htmlEscaped)" id="ring-form">\(hiddenCSRF(csrf))\
            <button type="submit" class="stop" id="stop">STOP</button>\
            <button type="submit" class="snooze" id="snooze" formaction="\(snooze.htmlEscaped)">Snooze</button>\
            </form>
            </section>

            """
    }

    /// `/api/timers/NODE/LABEL/ACTION` for `timer`.
    static func actionPath(_ timer: WebTimer, _ action: String) -> String {
        "/api/timers/\(pathSegment(timer.node))/\(pathSegment(timer.label))/\(action)"
    }

    /// One timer's row; `nil` makes the script's template (every part there, empty).
    private static func row(_ timer: WebTimer?, csrf: String) -> String {
        let state = timer?.state
        let offered = state.map(actions) ?? []
        let seconds = timer.map { WholeSeconds.left($0.remaining) } ?? 0
        let total = timer?.total.map(WholeSeconds.left) ?? 0
        let progress =
            total > 0 ? "max=\"\(total)\" value=\"\(min(total, max(0, total - seconds)))\"" : "max=\"1\" value=\"0\""
        let pomodoro = timer?.kind == "pomodoro"
        let spinning = pomodoro && state == .counting
        let warning: String? =
            switch (state, timer?.deviceDown ?? false) {
            case (.silent?, _): "Ringing with no sound: the alarm reaches no device."
            case (_, true): "The alarm's sound device is down."
            default: nil
            }
        var buttons = ""
        for (action, words) in actionButtons {
            let path = timer.map { actionPath($0, action) } ?? ""
            let value = action == "add" ? " name=\"seconds\" value=\"60\"" : ""
            let hidden = offered.contains(action) ? "" : " hidden"
            buttons +=
                "<button type=\"submit\" data-action=\"\(action)\" formaction=\"\(path.htmlEscaped)\"\(value)\(hidden)>"
                + "\(words)</button>"
        }
        func attribute(_ text: String?) -> String { (text ?? "").htmlEscaped }
        return """
            <li class="timer\(state?.isRinging == true ? " ringing" : "")" data-state="\(state?.rawValue ?? "")" \
            data-kind="\(attribute(timer?.kind))" data-node="\(attribute(timer?.node))" data-label="\(attribute(timer?.label))">
            <div class="head"><span class="tomato\(spinning ? " spin" : "")" data-field="tomato"\(pomodoro ? "" : " hidden")>\
            \(tomato)</span><span class="label" data-field="label">\(attribute(timer?.label))</span>\
            <span class="where" data-field="node"\(timer?.isLocal == false ? "" : " hidden")>\(attribute(timer?.node))</span>\
            <span class="state" data-field="state">\(state?.rawValue ?? "")</span></div>
            <div class="clock"><span class="left" data-field="left">\(timer == nil ? "" : clock(seconds: seconds))</span>\
            <span class="phase" data-field="phase"\(timer?.phase == nil ? " hidden" : "")>\(attribute(timer?.phase))</span></div>
            <progress data-field="progress" \(progress)></progress>
            <p class="warning" data-field="warning"\(warning == nil ? " hidden" : "")>\(attribute(warning))</p>
            <form method="post" class="actions" action="\(timer.map { actionPath($0, "cancel") }?.htmlEscaped ?? "")">\
            \(hiddenCSRF(csrf))\(buttons)</form>
            </li>

            """
    }

    /// The form field that carries the CSRF token.
    private static func hiddenCSRF(_ csrf: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf.htmlEscaped)\">"
    }

    /// The message line (an alert), hidden when there is none.
    private static func messageLine(_ message: String?, id: String) -> String {
        "<p id=\"\(id)\" class=\"message\" role=\"alert\"\(message == nil ? " hidden" : "")>"
            + "\((message ?? "").htmlEscaped)</p>\n"
    }
}
