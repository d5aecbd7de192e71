import TimerCore
import TimerModel

// The eggtimer(1) man page, generated from the tables `--help` and the parser read
// (Options+Table.swift, ExitStatus.table), so the installed page lists what the binary accepts.

extension Options {
    /// The eggtimer(1) man page for the eggs (``Preset/eggs``).
    static let manPage = manText(presets: Preset.eggs)

    /// The eggtimer(1) man page in troff (the `man` macros), ending in a newline.
    ///
    /// Every option but the hidden ones, every subcommand, key, state and exit status; MQTT topics,
    /// payloads and discovery; the reference sections of ``manDetails``; files and environment. `make install` writes it to `PREFIX/share/man/man1/eggtimer.1`.
    /// - Parameter presets: The eggs, whose names and times the synopsis, the description and the
    ///   keys show (a test passes others).
    /// - Returns: The page.
    static func manText(presets: [Preset]) -> String {
        [
            manHeader(presets), manOptions, manSubcommands, manKeys(presets), manStates, manMQTT, manMQTTDetails,
            manMQTTKitchen(presets), manHTTP, manDetails, manFilesAndEnvironment, manExitStatus, manExamples,
        ].joined(separator: "\n") + "\n"
    }

    /// `text` as troff text: backslashes as `\e`, hyphens as `\-` (so options copy as typed), and
    /// a leading `.` or `'` kept from reading as a request.
    static func roff(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            default: escaped.append(character)
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A usage string (`[LABEL] [--for D]`) in troff: options bold, placeholders italic.
    static func roffUsage(_ usage: String) -> String {
        usage.split(separator: " ").map { token in
            let opening = token.prefix { $0 == "[" }
            let closing = token.reversed().prefix { $0 == "]" }.count
            let core = String(token.dropFirst(opening.count).dropLast(closing))
            let font = core.hasPrefix("-") ? "\\fB" : (core.allSatisfy { $0.isUppercase } ? "\\fI" : "")
            let end = font.isEmpty ? "" : "\\fR"
            return String(opening) + font + roff(core) + end + String(repeating: "]", count: closing)
        }.joined(separator: " ")
    }

    /// A help fragment as a man-page sentence: capitalised, with a full stop.
    private static func sentence(_ help: String) -> String {
        let capital = help.prefix(1).uppercased() + help.dropFirst()
        return roff(capital.hasSuffix(".") ? capital : capital + ".")
    }

    /// `\fB\-D\fR, \fB\-\-device\fR \fINAME\fR`.
    private static func roffHead(_ spec: Spec) -> String {
        spec.names.map { "\\fB" + roff($0) + "\\fR" }.joined(separator: ", ")
            + (spec.argument.map { " \\fI" + roff($0) + "\\fR" } ?? "")
    }

    /// A prose section (Options+Prose.swift) as a paragraph: `\fIDURATION\fR: …`.
    private static func manProse(_ prose: Prose, _ qualifier: String = "") -> String {
        "\\fI\(prose.title)\\fR\(qualifier): " + roff(prose.text)
    }

    private static func manHeader(_ presets: [Preset]) -> String {
        #"""
        .TH EGGTIMER 1 "" "eggtimer \#(Version.current)" "User Commands"
        .nh
        .SH NAME
        eggtimer \- a kitchen timer whose alarm loops through ALSA until you press a key
        .SH SYNOPSIS
        .B eggtimer
        [\fIOPTION\fR]... [\#(presets.map { "\\fB\(roff($0.name.lowercased()))\\fR" }.joined(separator: "|"))\#
        |\fIDURATION\fR]
        .br
        .B eggtimer pomodoro
        [\fIOPTION\fR]...
        \#(modes.map { ".br\n.B eggtimer \($0.name)\n\\fI\($0.usage)\\fR [\\fIOPTION\\fR]..." }.joined(separator: "\n"))
        \#(Subcommand.table.map { ".br\n.B eggtimer \($0.name)" + ($0.usage.isEmpty ? "" : "\n" + roffUsage($0.usage)) }.joined(separator: "\n"))
        .SH DESCRIPTION
        .B eggtimer
        counts down an egg time, a \fIDURATION\fR or pomodoro intervals, then loops an alarm sound \#
        through ALSA until somebody acknowledges it: a key in the terminal, \fBeggtimer ack\fR from \#
        another shell, or SIGUSR1.
        A pomodoro's intervals are named alike on screen and in the log: "Pomodoro!" (\fBwork\fR), \#
        "Short break." (\fBshort break\fR) and "Long break." (\fBlong break\fR).
        Without an argument it opens the egg menu: \#(roff(menuText(presets))).
        .PP
        Times in whole seconds follow one rule everywhere (the screen, the log's lines, \#
        \fBstatus\fR, \fBstatus \-\-mqtt\fR): a time of day is cut to its second, as clocks show it \#
        (an alarm due at 09:12:03.6 rings at \fB09:12:03\fR, the second the log says the time is up); \#
        a time left is rounded up, as countdowns show it, so \fB0:00\fR only once it rings.
        .PP
        In a terminal it draws the countdown on the alternate screen; otherwise it prints one plain \#
        line per event on standard output (one JSON object with \fB\-\-json\fR), so it runs \#
        unattended as a systemd user service.
        Each running timer has a label (\fB\-\-label\fR, else the egg, the duration as typed without its spaces (1h 30 is 1h30), or \#
        pomodoro) and a control socket, through which the subcommands reach it.
        The record of a running timer survives SIGTERM, \fBkill\ \-9\fR and a power cut; \#
        \fBeggtimer recover\fR starts it again, and \fBeggtimer status\fR lists it as kept \#
        (how it ended, the time left or how overdue) until then or until \#
        \fBeggtimer cancel\fR \fILABEL\fR forgets it. \fBeggtimer recover \-\-boot\fR, as the \#
        boot service runs it, recovers only what an earlier boot left (a power cut, a reboot: \#
        another boot id); a timer killed by hand in this boot comes back only with a plain \#
        \fBeggtimer recover\fR.
        .PP
        A hang\-up never silences an alarm. Under \fBnohup\fR SIGHUP stays ignored; without it, \#
        a timer counting or ringing when its terminal hangs up (an SSH session dropped, the \#
        window closed, SIGHUP) detaches: the screen and the keys are given up, nothing more is \#
        written to that terminal, and it counts and rings on headless, shown by \fBeggtimer \#
        status\fR as detached and acknowledged from another shell (\fBeggtimer ack\fR) or by \#
        SIGUSR1. A log redirected to a file (\fB\-\-json > log\fR) goes on. In the egg menu, \#
        with nothing counting, a hang\-up ends eggtimer with 129.
        .PP
        \#(manProse(durationProse))
        Only a countdown recovered after a reboot, whose boot clock is \#
        gone, follows its recorded UTC deadline on the wall clock until it rings (a wall clock \#
        earlier than the record's last write is taken as that write); while the kernel says the \#
        clock is not synchronised, one that looks more than an hour overdue is kept, not dropped, \#
        and decided once the clock is set.
        .PP
        \#(manProse(timeProse, " (\\fBeggtimer at\\fR)"))
        """#
    }

    private static let manOptions: String = {
        let groups: [(title: String, group: Spec.Group)] = [
            ("Timer options", .timer), ("General options", .general), ("Egg times", .presets),
            ("Pomodoro options", .pomodoro), ("Alarm options", .alarm), ("Subcommand options", .subcommand),
        ]
        let sections = groups.map { title, group in
            ".SS \(title + group.headingNote)\n"
                + optionSpecs.filter { $0.group == group }.map(manEntry).joined(separator: "\n")
        }
        return ".SH OPTIONS\n" + sections.joined(separator: "\n")
    }()

    /// One option's `.TP` entry; where it fits other than its section's heading says, it says so.
    private static func manEntry(_ spec: Spec) -> String {
        ".TP\n\(roffHead(spec))\n\(sentence(spec.help + fitNote(spec, heading: spec.group.scopes)))"
    }

    private static let manSubcommands: String =
        """
        .SH SUBCOMMANDS
        They act on this user's running timers. Without \\fILABEL\\fR: the only timer, else the only \
        ringing one; a label differing in case alone finds the only such timer.

        """.replacingNewlineBlank()
        + Subcommand.table.map { subcommand in
            let aliases = subcommand.names.dropFirst().map { "\\fB\(roff($0))\\fR" }.joined(separator: ", ")
            return ".TP\n\\fBeggtimer \(roff(subcommand.name))\\fR \(roffUsage(subcommand.usage))\n"
                + sentence(subcommand.help) + (aliases.isEmpty ? "" : "\nAlias: \(aliases).")
        }.joined(separator: "\n")

    private static func manKeys(_ presets: [Preset]) -> String {
        ".SH KEYS\n\(keysHeading):\n"
            + keyTable(presets).map { ".TP\n.B \(roff($0.keys).replacingSpaces())\n\(sentence($0.action))" }
            .joined(separator: "\n")
            + "\n.PP\n" + roff(keyboardlessText)
    }

    /// The state words (``TimerState/summary``), as `status`, the control socket and MQTT say them.
    private static let manStates: String =
        ".SH STATES\nWhat \\fBeggtimer status\\fR, the control socket and MQTT say a timer is:\n"
        + TimerState.allCases.map { ".TP\n.B \($0.rawValue)\n\(sentence($0.summary))" }.joined(separator: "\n")

    /// docs/DESIGN.md's list of states: one Markdown table row per ``TimerState``, from ``TimerState/summary``.
    static let statesTable: String =
        "| state | meaning |\n|---|---|\n"
        + TimerState.allCases.map { "| `\($0.rawValue)` | \($0.summary) |" }.joined(separator: "\n")

    private static let manExitStatus: String =
        ".SH EXIT STATUS\n"
        + ExitStatus.table.map { ".TP\n.B \($0.status.code)\n\(sentence($0.meaning))" }.joined(separator: "\n")

    private static let manFilesAndEnvironment = #"""
        .SH FILES
        .TP
        .I prefix/share/eggtimer/alarm_sound.mp3
        The alarm sound, where \fIprefix\fR is the folder above the binary's \#
        (/usr/local/bin/eggtimer finds /usr/local/share/eggtimer/alarm_sound.mp3); a binary in a \#
        clone finds \fISounds/alarm_sound.mp3\fR. Missing or broken, a built\-in tone rings instead.
        .TP
        .I $XDG_CONFIG_HOME/eggtimer/config
        The configuration file (\fI~/.config/eggtimer/config\fR when XDG_CONFIG_HOME is unset): \#
        \fIkey\fR = \fIvalue\fR lines for the kitchen's device, sound, volume, ramp, egg times and \#
        ring\-for; command\-line options win. A bad line exits 78 naming the file, line and key. \#
        A timer, the menu and the long\-running subcommands (\fBfollow\fR, \fBkitchen\fR) read it; \#
        \fB\-\-help\fR, \fB\-\-version\fR and the one\-shot subcommands (\fBstatus\fR, \fBack\fR, \fBcancel\fR, \fBsnooze\fR, \fBpause\fR, \fBresume\fR, \fBadd\fR, \fBrecover\fR, \fBstart\fR) never do.
        .TP
        .I $XDG_STATE_HOME/eggtimer/
        One record per running timer (\fI~/.local/state/eggtimer/\fR when XDG_STATE_HOME is \#
        unset), read by \fBeggtimer recover\fR; a timer that ends removes its record, also when \#
        an earlier write failed (a full disk), so an acknowledged alarm never comes back.
        .TP
        .I $XDG_STATE_HOME/eggtimer/kitchen/paired\-devices
        The kitchen's paired web devices: one SHA\-256 of a token a line (64 hex digits, never a \#
        token), mode 0600 in a 0700 folder, replaced atomically, read when the kitchen starts (a \#
        bad line is skipped with one line); \fBeggtimer kitchen \-\-unpair\fR empties it.
        .TP
        .I $XDG_RUNTIME_DIR/eggtimer/
        The running timers' control sockets, one per label (else \fI/run/user/UID/eggtimer\fR, \#
        else \fI/tmp/eggtimer\-UID\fR); mode 0700, refused when another user could use it \#
        or owns it, or when XDG_RUNTIME_DIR is not yours with mode 0700. The commands apply the \#
        same rules, and believe a socket only when its listener runs as you (one line says so). \#
        Each timer holds a lock on \fILABEL.lock\fR beside its socket while it runs; only the \#
        holder removes a socket (its own, or a stale one it replaces), never a command. \#
        The socket speaks a line protocol versioned by its first word: \fBeggtimer/1\fR TAB \#
        \fIverb\fR [TAB \fIseconds\fR], the verb one of \fBstatus\fR, \fBack\fR, \#
        \fBcancel\fR, \fBsnooze\fR [1 to 3596400] (one line, one reply, closed: \fBok\fR and \#
        the status, or \fBerror\fR and why the command does not fit), and \fBeggtimer/2\fR, \#
        which adds \fBpause\fR, \fBresume\fR, \fBadd\fR \-86400 to 86400 (answered the same \#
        way) and \fBwatch\fR: the timer sends its status line at \#
        once and again whenever anything but the time left changes, the final one last, and \#
        closes when it exits; at most 16 watchers, each dropped when 64 KiB of lines wait \#
        unread. A request names the lowest version that has its verb; a timer of version 1 \#
        answers the verbs of version 2 with an error line. The status line is \fBok\fR and TAB\-separated \#
        \fIkey\fR=\fIvalue\fR fields: \fBlabel\fR, \fBpid\fR, \fBstate\fR, \fBremaining_ns\fR, then when \#
        they apply \fBdeadline_ms\fR (Unix milliseconds), \fBat\fR, \fBevery\fR, \#
        \fBclock=unsynchronised\fR, \fBterminal=detached\fR, \fBtotal_ns\fR (the whole length), \#
        \fBkind\fR (\fBegg\fR, \fBplain\fR, \fBpomodoro\fR, \fBalarm\fR), \fBpreset\fR (an egg's), \#
        \fBphase\fR (a pomodoro's), \fBdevice=down\fR (the alarm reaches no device) and \#
        \fBsilent\fR (why, one line of at most 400 bytes; once the timer is over, why its alarm was \#
        never heard); a timer older \#
        than a field omits it, and a client ignores fields it does not know. \fBeggtimer/3\fR adds \fBstart\fR TAB \#
        \fItext\fR (at most 160 bytes, no control character), the kitchen's alone (a timer \#
        answers it with an error line): see \fIkitchen/kitchen.sock\fR below.
        .TP
        .I $XDG_RUNTIME_DIR/eggtimer/kitchen/kitchen.sock
        The kitchen's socket (\fBeggtimer kitchen\fR; mode 0600 in a 0700 folder, peers of other \#
        users refused, one kitchen per user by its lock). \fBeggtimer start\fR sends \#
        \fBeggtimer/3\fR TAB \fBstart\fR TAB \fItext\fR, the request as typed (\fBsoft\fR, \#
        \fB450s pasta\fR), which the kitchen parses again; the reply comes once the timer runs: \#
        its status line (\fBok\fR TAB \fBlabel=\fR... TAB \fBpid=\fR...), or \fBerror\fR TAB \#
        \fIkind\fR TAB \fIwhy\fR, the kind one of \fBbusy\fR (exit 75), \fBusage\fR (64), \#
        \fBunavailable\fR (69), \fBfailed\fR (70). \#
        \fBeggtimer kitchen \-\-pair\fR sends \fBeggtimer/3\fR TAB \fBpair\fR, answered at once \#
        \fBok\fR TAB \fBcode=\fR\fIdigits\fR TAB \fBseconds=600\fR TAB \fBtries=5\fR; \#
        \fB\-\-unpair\fR sends \fBunpair\fR, answered \fBok\fR TAB \fBunpaired=\fR\fIN\fR.
        .TP
        .I prefix/lib/systemd/user/eggtimer@.service
        A user service running one timer: \fBsystemctl \-\-user start eggtimer@soft\fR \#
        (the instance is the argument). Never restarted, not enabled at boot.
        .TP
        .I prefix/lib/systemd/user/eggtimer\-recover.service
        A user service running \fBeggtimer recover \-\-boot\fR once; enable it to recover the \#
        timers an earlier boot left at login, or at boot with \fBloginctl enable\-linger\fR.
        .TP
        .I prefix/lib/systemd/user/eggtimer\-kitchen.service
        A user service running \fBeggtimer kitchen\fR: \fBsystemctl \-\-user enable \-\-now \#
        eggtimer\-kitchen.service\fR (at boot with \fBloginctl enable\-linger\fR). Restarted on \#
        failure; \fBKillMode=process\fR, so stopping or restarting it never ends its timers.
        .SH ENVIRONMENT
        .TP
        .B EGGTIMER_CONFIG
        The configuration file to read instead of \fI$XDG_CONFIG_HOME/eggtimer/config\fR.
        .TP
        .BR XDG_CONFIG_HOME ", " XDG_STATE_HOME ", " XDG_RUNTIME_DIR
        Where the configuration file, the timers' records and the control sockets live (see FILES).
        .TP
        .B EGGTIMER_MQTT_PASSWORD
        The MQTT broker's password when \fB\-\-mqtt\-password\-file\fR is not given. It is never \#
        recorded: a recovered timer reads it from the environment of \fBeggtimer recover\fR, and \#
        the \fB\-\-on\-done\fR command does not get it.
        .TP
        .B PULSE_LOG_SYSLOG
        Set to 1 by eggtimer when there is no home folder at all (no \fBHOME\fR, no password \#
        entry), unless already set: libpulse, which ALSA's \fIpulse\fR device loads, then logs \#
        to syslog instead of printing "Failed to get home directory." on each device open.
        .TP
        .B EGGTIMER_CLOCK_SYNC
        \fIsynchronised\fR or \fIunsynchronised\fR: taken instead of what the kernel says \#
        (\fBadjtimex\fR) about the wall clock, for tests; a timer recovered after a reboot and an \#
        alarm at a time follow that clock.
        .TP
        .B NO_COLOR
        Set and not empty: no colours on the screen.
        .TP
        .B TERM
        The screen is drawn only on a terminal whose TERM is set, not \fIdumb\fR, and has a \#
        terminfo entry; otherwise plain lines.
        .TP
        .BR LC_ALL ", " LC_CTYPE ", " LANG
        A UTF\-8 locale draws with box and block characters, any other with ASCII.
        """#

    private static let manMQTT = #"""
        .SH MQTT
        With \fB\-\-mqtt\fR \fIURL\fR a timer joins the house's MQTT broker; without it \#
        libmosquitto is not loaded. Topics, with \fIP\fR the prefix (\fBeggtimer\fR), \#
        \fINODE\fR the node and \fILABEL\fR the label as \fBstatus\fR shows it; in a topic, \#
        \fB/\fR, \fB+\fR, \fB#\fR, \fB%\fR and control characters become \fB%\fR\fIXX\fR \#
        (their UTF\-8 bytes, upper\-case hex), all others stay (\fB1:30\fR), so no two labels \#
        share a topic:
        .TP
        .I P/NODE/LABEL/state
        Retained JSON: \fBstate\fR, \fBlabel\fR, \fBnode\fR, \fBduration_s\fR, \#
        \fBremaining_s\fR, \fBdeadline\fR (UTC ISO 8601, or null while paused), \#
        \fBinstance\fR (the process's random id, 16 hex digits), \fBpublished\fR (UTC ISO 8601, \#
        the timer's wall clock), \fBclock_synced\fR (whether that clock was synchronised), \#
        \fBinterval_s\fR (the longest it goes unpublished; null when final), and \fBsilent\fR only when \#
        the alarm reaches no device: why (\fBcannot open audio device 'hw:0': ...\fR; in the final \#
        state, why it rang unheard). Published on every change and \#
        at least once a minute; at the end the final state, then cleared if the broker's state \#
        is still its own. A timer that finds another live timer's state on its topic (two \#
        machines with one node name) warns once, counts and rings locally and stays off the \#
        topics until that timer is gone.
        .TP
        .I P/NODE/LABEL/command
        \fBstatus\fR (the state is published again at once), \fBack\fR, \fBcancel\fR, \#
        \fBsnooze\fR, \fBpause\fR, \fBresume\fR, \fBadd\fR \fIseconds\fR (\fBadd 60\fR, \#
        \fBadd \-60\fR; \-86400 to 86400). One that does not fit the state is ignored with the line a \#
        control socket would answer (\fIsoft is counting, not ringing\fR); others are ignored with a \#
        line on standard error. Commands are events: one the broker keeps retained \#
        (\fBmosquitto_pub \-r\fR) is ignored with one line by a timer that starts later (a timer \#
        already running when it is published gets it as a plain message and acts on it once).
        .TP
        .I P/NODE/LABEL/availability
        \fBonline\fR (retained) while the timer runs; at a clean end \fBoffline\fR, not \#
        retained, then cleared: an ended timer leaves nothing of its own retained. Its Last Will is a \#
        retained \fBoffline\fR.
        .TP
        .I homeassistant/sensor/NODE__LABEL/deadline/config
        Home Assistant discovery, retained while the timer runs, removed at its end: a timestamp \#
        sensor of the deadline (Home Assistant counts it down; nothing is published every second); \#
        \fIhomeassistant/sensor/NODE__LABEL/state/config\fR, an \fBenum\fR sensor of the state \#
        (\fBoptions\fR: the STATES a timer publishes, all but \fBmenu\fR); and the buttons \#
        \fIhomeassistant/button/NODE__LABEL/ack/config\fR, \fI.../snooze/config\fR and \#
        \fI.../cancel/config\fR, sending \fBack\fR, \fBsnooze\fR and \fBcancel\fR to the command \#
        topic. Each has the timer's availability topic, a \fBunique_id\fR \#
        \fBeggtimer_NODE__LABEL_\fR\fIentity\fR and the node's device (\fBeggtimer_NODE\fR). \#
        In the object id \fINODE__LABEL\fR (and \fBunique_id\fR) ASCII letters, digits and \#
        \fB\-\fR stay, every other UTF\-8 byte, \fB_\fR too, becomes \fB_\fR and two \#
        lower\-case hex digits (\fB1:30\fR: \fB1_3a30\fR).
        .TP
        .I P/NODE/ringing
        The node's own entities, pinnable although its timers come and go (two levels after \fIP\fR, \#
        so no label meets them): \fBON\fR (retained) while a timer of the node is \fBringing\fR \#
        or \fBsilent\fR and its availability is not \fBoffline\fR, else \fBOFF\fR. Every timer of \#
        the node reads the others' retained states (\fIP/NODE/+/state\fR) and publishes it only \#
        when what it computes differs from the retained one it last saw, so they agree without a \#
        leader; a timer ending cleanly publishes it without itself. \fIP/NODE/ack\-all\fR: \#
        \fBack\fR there acknowledges every timer of the node that is ringing, silent or snoozed \#
        (each gets the message and acknowledges itself; a retained one is ignored). \#
        \fIP/NODE/availability\fR: \fBonline\fR (retained) from every timer of the node; the \#
        last one to end cleanly (it sees no other timer of the node online) sets \fBoffline\fR \#
        (retained). A Last Will covers only a timer's own availability: a crashed last timer \#
        leaves the node \fBonline\fR (a press then reaches nobody), and its ringing state is \#
        set right by the next timer of the node (it leaves out timers whose availability is \#
        \fBoffline\fR). Two last timers ending at the same moment may both leave it \fBonline\fR. \#
        Their discovery configs, the same bytes from every timer and never removed: \#
        \fIhomeassistant/binary_sensor/NODE/ringing/config\fR (\fBstate_topic\fR \#
        \fIP/NODE/ringing\fR, \fBdevice_class\fR \fBsound\fR, \fBunique_id\fR \#
        \fBeggtimer_NODE_ringing\fR) and \fIhomeassistant/button/NODE/ack\-all/config\fR \#
        (\fBpayload_press\fR \fBack\fR, \fBunique_id\fR \fBeggtimer_NODE_ack\-all\fR), with \#
        the availability \fIP/NODE/availability\fR and the node's device; \fINODE\fR escaped as in \#
        the object ids above.
        .PP
        A broker that is down, goes away or refuses the password gets one warning line; the timer \#
        counts and rings as always and eggtimer reconnects. \fBeggtimer follow\fR rings while any \#
        timer's state is \fBringing\fR or \fBsilent\fR (ringing where no device works) and \#
        has its own \fIP/NODE/follow/availability\fR \#
        (so a timer's \fB\-\-label follow\fR is refused with \fB\-\-mqtt\fR). \fIP\fR cannot \#
        start with \fBhomeassistant\fR.
        .PP
        A state not published again within three of its \fBinterval_s\fR is stale (judged only \#
        while the reader's clock is synchronised, and never when \fBclock_synced\fR is false): \#
        \fBstatus \-\-mqtt\fR shows it \fBstale\fR, \fBack\fR, \fBcancel\fR and \#
        \fBsnooze \-\-mqtt\fR refuse it as an \fBoffline\fR one (exit 3), and \#
        \fBfollow\fR never rings for it. Where the broker speaks MQTT 5 the retained state \#
        carries a message expiry of three \fBinterval_s\fR (180 s), so the broker drops a state \#
        nobody refreshes (availability, discovery and the Last Will do not expire); a broker that \#
        refuses MQTT 5 is asked again with MQTT 3.1.1 (one line says so), which has no expiry.
        """#

    private static let manExamples = #"""
        .SH EXAMPLES
        .TP
        .B eggtimer soft
        Boil a soft egg; any key stops the alarm.
        .TP
        .B eggtimer 7m30s \-\-label pasta \-D sysdefault:CARD=Headphones
        Count down 7:30 as \fIpasta\fR, ringing on the headphone jack (see \fBaplay \-L\fR).
        .TP
        .B eggtimer ack pasta
        From another shell: stop pasta's alarm.
        .TP
        .B eggtimer ack \-\-all
        Stop every alarm ringing or snoozed, one line each (exit 3 when none is); \fBcancel \-\-all\fR
        ends every running timer.
        .TP
        .B systemctl \-\-user start eggtimer@soft
        Run a soft egg as a user service (it logs to the journal).
        .TP
        .B systemctl \-\-user enable eggtimer\-recover.service
        Start the recorded timers again at every login or boot (with \fBloginctl enable\-linger\fR).
        .TP
        .B eggtimer 7m \-\-label eggs \-\-mqtt mqtt://pi@homeassistant.local
        Publish the timer's state to the house's broker (password from \fBEGGTIMER_MQTT_PASSWORD\fR).
        .TP
        .B eggtimer follow \-\-mqtt mqtt://homeassistant.local
        In another room: ring whenever any timer in the house rings.
        .TP
        .B eggtimer 10m \-\-json | jq .
        One JSON object per event.
        .SH COPYRIGHT
        Copyright 2026 the eggtimer authors. Licensed under the Apache License, Version 2.0 \#
        (\fI/usr/share/doc/eggtimer/copyright\fR in the Debian package, \fILICENSE\fR in the source).
        .SH SEE ALSO
        .BR aplay (1),
        .BR systemctl (1),
        .BR loginctl (1),
        .BR systemd.exec (5)
        """#
}

extension String {
    /// Blank lines (which troff prints as space) dropped.
    fileprivate func replacingNewlineBlank() -> String {
        split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n") + "\n"
    }

    /// Spaces as unbreakable `\ `, for a one-argument request (`.B 1-3, s m h`).
    fileprivate func replacingSpaces() -> String {
        var result = ""
        for character in self { result += character == " " ? "\\ " : String(character) }
        return result
    }
}
