import Glibc

/// How eggtimer ends: one status for each outcome, with the sysexits(3) names where one fits.
///
/// The status is about the timer and its alarm: standard output failing (a closed descriptor, a
/// reader that quit) only stops the log, so there is no EX_IOERR and no SIGPIPE status.
/// Used everywhere a status is decided; `--help` prints ``table`` from it, so the documented list
/// and the real codes cannot drift apart. Shells see `code` (0–255).
package struct ExitStatus: Error, Hashable, Sendable {
    /// The process's exit code.
    package let code: Int32

    /// The timer was done: its alarm was acknowledged or its `--loops` played (also quitting the
    /// menu without an alarm failure).
    ///
    /// EX_OK.
    package static let done = ExitStatus(code: 0)
    /// Cancelled, or quit before the timer completed.
    package static let cancelled = ExitStatus(code: 1)
    /// The alarm stopped ringing unacknowledged (`--ring-for` ran out).
    package static let missed = ExitStatus(code: 2)
    /// `eggtimer ack|cancel|snooze|pause|resume|add` acted on no timer: none runs, none has the
    /// label given, it did not answer, or it refused (`ack` with no alarm ringing, `add` taking
    /// off more time than is left).
    ///
    /// Not a status of its own for a refusal: either way nothing was done, and sysexits(3) has no
    /// word for "the timer said no".
    package static let noTimer = ExitStatus(code: 3)
    /// A bad command line.
    ///
    /// EX_USAGE.
    package static let usage = ExitStatus(code: 64)
    /// The sound file holds no MPEG audio.
    ///
    /// EX_DATAERR.
    package static let dataError = ExitStatus(code: 65)
    /// The sound file is missing or not a regular file, or the `--mqtt-cafile` or
    /// `--mqtt-password-file` cannot be read or is not a regular file.
    ///
    /// EX_NOINPUT.
    package static let noInput = ExitStatus(code: 66)
    /// A service it needs is unavailable: the alarm reached no audio device; the MQTT broker could
    /// not be reached (or libmosquitto is missing); `kitchen --http` cannot listen on its address
    /// (not this machine's, or in use); a started timer or the kitchen did not answer in time.
    ///
    /// EX_UNAVAILABLE: sysexits(3)'s "a service is unavailable", which an address to listen on is.
    package static let unavailable = ExitStatus(code: 69)
    /// An internal error: a started timer that crashed before it ran, or a timer or the kitchen
    /// that answered outside the control protocol (nothing eggtimer itself says).
    ///
    /// EX_SOFTWARE.
    package static let software = ExitStatus(code: 70)
    /// Try again later: the kitchen runs as many timers as it may (`start`), or another kitchen of
    /// this user runs (`kitchen`).
    ///
    /// EX_TEMPFAIL: the command line is fine and may work once the other one ends.
    package static let temporaryFailure = ExitStatus(code: 75)
    /// The system refused something eggtimer needs: signal handling, a descriptor, a process, an
    /// unsafe runtime folder, or a kept record that cannot be removed (a read-only state folder).
    ///
    /// EX_OSERR.
    package static let osError = ExitStatus(code: 71)
    /// A bad configuration file, or a runtime folder too deep for a socket path.
    ///
    /// EX_CONFIG.
    package static let configuration = ExitStatus(code: 78)

    /// Ended by signal `number`, as shells report it: 128 + the signal number.
    /// - Parameter number: The signal, 1–64.
    /// - Returns: The status with code 128 + `number`.
    package static func signal(_ number: Int32) -> ExitStatus { ExitStatus(code: 128 + number) }

    /// The name of the signal that ends a timer this way (`SIGTERM`): one of the four that end it
    /// in order (SIGHUP, SIGINT, SIGQUIT, SIGTERM); nil for any other status.
    package var signalName: String? {
        switch code - 128 {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGTERM: "SIGTERM"
        default: nil
        }
    }

    /// Every status with its meaning, in order, for `--help`, the man page, docs/DESIGN.md and tests.
    package static let table: [(status: ExitStatus, meaning: String)] = [
        (.done, "done: the alarm was acknowledged or its --loops played"),
        (.cancelled, "cancelled, or quit before the timer was done"),
        (.missed, "missed: the alarm stopped ringing unacknowledged"),
        (.noTimer, "ack, cancel, snooze, pause, resume, add: no timer acted, or it refused"),
        (.usage, "bad command line"),
        (.dataError, "sound file is not MP3 audio"),
        (.noInput, "sound file, --mqtt-cafile or password file missing or unreadable"),
        (.unavailable, "a service it needs is unavailable: audio device, broker, address, timer"),
        (.software, "internal error (or an answer outside the control protocol)"),
        (.osError, "the system refused what it needs: a descriptor, a process, a folder"),
        (.temporaryFailure, "try again later: start over --max-timers, or a kitchen runs already"),
        (.configuration, "bad configuration file (or a runtime folder too deep for a socket)"),
        (.signal(1), "hangup (SIGHUP) in the menu; a running timer detaches instead"),
        (.signal(2), "interrupted (Ctrl-C, SIGINT)"),
        (.signal(3), "quit (Ctrl-\\, SIGQUIT)"),
        (.signal(15), "terminated (SIGTERM)"),
    ]
}
