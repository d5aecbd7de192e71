import AlarmAudio
import ControlChannel
import Glibc
import HouseBus

/// Something that happened, as the event loop hands it to the controller.
///
/// Each ``LoopSource`` says what its readiness means as these: the ``Keyboard``, the signalfd
/// (``SignalSet``), the alarm player, the control socket (``ControlInbox``), the broker, the
/// `--on-done` command and `recover`'s child (``ChildWatch``), a watched folder
/// (``FolderWatch``); the loop's own timers only wake it (`.tick`). A new source brings its cases.
enum Input: Equatable {
    /// A key typed on the terminal (or piped in).
    case key(Key)
    /// A signal read from the signalfd (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP,
    /// SIGCONT, SIGUSR1).
    case signal(Int32)
    /// A report from the alarm player.
    case audio(AlarmPlayer.Event)
    /// Time passed: the timer the loop armed for ``Controller/nextWake(at:)`` fired, or any wake.
    case tick
    /// A request on the control socket (`eggtimer status|ack|cancel|snooze` from another shell);
    /// `connection` names the connection to answer on.
    case control(ControlRequest, connection: Int)
    /// The `--on-done` command ended: its exit status, or the signal that ended it.
    case doneCommandEnded(status: Int32?, signal: Int32?)
    /// What the MQTT broker connection reported (``BusLink`` turns this timer's commands into
    /// ``busCommand(_:)`` and says the connection's troubles).
    case bus(BusEvent)
    /// A command on this timer's MQTT command topic (`ack`, `pause`, `add 60`, …).
    case busCommand(BusCommand)
    /// A child process another front waits for ended (`recover`'s started timer): its pid and
    /// how it ended (``ChildWatch``).
    case childExited(pid: Int32, ChildWatch.Exit)
    /// A file in a watched folder was written and closed, or renamed into it (``FolderWatch``):
    /// its name; nil when the kernel's queue overflowed and any file may have changed.
    case fileWritten(name: String?)
}

extension Input {
    /// Whether a person sent this (a key, or SIGUSR1 to stop the alarm without a keyboard), as
    /// opposed to a report from the system or the clock.
    var isUserAction: Bool {
        switch self {
        case .key: true
        case .signal(let number): number == SIGUSR1
        case .audio, .tick, .control, .doneCommandEnded, .bus, .busCommand, .childExited, .fileWritten: false
        }
    }
}
