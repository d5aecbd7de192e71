import Glibc

/// Where eggtimer's output goes and whether it reads keys, decided once from what the standard
/// descriptors are: the full-screen UI on a terminal, one JSON object per event, or plain log
/// lines.
///
/// A pure function of ``Facts`` (tested as a table); ``Facts/current(json:)`` reads them.
package struct OutputRouting: Equatable {
    /// What is written to standard output besides the UI.
    package enum Log: Equatable {
        /// One JSON object per event (`--json`).
        case json
        /// Short plain lines: events and one line per minute left.
        case plain
        /// Nothing: the UI is on standard output.
        case none
    }

    /// The descriptor the full-screen UI draws on (1 or 2), or nil for no UI.
    package var ui: Int32?
    /// What standard output carries.
    package var log: Log
    /// Whether keys are read from standard input as a keyboard (cbreak mode).
    package var keyboard: Bool

    /// What the routing depends on.
    package struct Facts: Equatable {
        var stdinIsTerminal: Bool
        var stdoutIsTerminal: Bool
        var stderrIsTerminal: Bool
        /// Whether this process is in the terminal's foreground process group.
        package var foreground: Bool
        /// `TERM`, nil if unset.
        var term: String?
        /// `--json` was given.
        var json: Bool
        /// Whether the terminfo database has an entry for `TERM` (a terminal eggtimer cannot look
        /// up may not understand the escape codes: plain lines then).
        var termHasEntry = true

        /// Reads the facts for this process.
        ///
        /// C: `isatty`, `tcgetpgrp`, `getpgrp`, `getenv`.
        package static func current(json: Bool) -> Facts {
            let terminal = [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].first { isatty($0) == 1 }
            return Facts(
                stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
                stderrIsTerminal: isatty(STDERR_FILENO) == 1,
                foreground: terminal.map { tcgetpgrp($0) == getpgrp() } ?? false,
                term: termName, json: json, termHasEntry: termHasEntry)
        }

        /// `TERM`, read once: the environment does not change while eggtimer runs.
        private static let termName = getenv("TERM").map { String(cString: $0) }
        /// Whether `TERM` has a terminfo entry, looked up once.
        private static let termHasEntry = termName.map(Terminfo.hasEntry) ?? false
    }

    /// Decides the routing.
    ///
    /// - `--json`: JSON on standard output and no UI anywhere (the JSON may be piped to `jq` while
    ///   typed at a terminal); keys still work.
    /// - The UI needs a terminal that understands escape codes (`TERM` set, not `dumb`, with a
    ///   terminfo entry) and the
    ///   foreground: on standard output if it is that terminal, else on standard error when keys
    ///   come from the terminal too (`eggtimer 10m > log`).
    /// - Otherwise plain lines on standard output.
    package static func decide(_ facts: Facts) -> OutputRouting {
        let keyboard = facts.stdinIsTerminal && facts.foreground
        let capable = facts.foreground && !(facts.term ?? "").isEmpty && facts.term != "dumb" && facts.termHasEntry
        if facts.json { return OutputRouting(ui: nil, log: .json, keyboard: keyboard) }
        if facts.stdoutIsTerminal {
            return capable
                ? OutputRouting(ui: STDOUT_FILENO, log: .none, keyboard: keyboard)
                : OutputRouting(ui: nil, log: .plain, keyboard: keyboard)
        }
        let ui: Int32? = capable && keyboard && facts.stderrIsTerminal ? STDERR_FILENO : nil
        return OutputRouting(ui: ui, log: .plain, keyboard: keyboard)
    }
}
