package import AlarmAudio
package import ControlChannel
import Glibc
package import HouseBus
package import SystemKit
package import TimerModel

/// Something that happened, as the event loop hands it to the controller.
///
/// Each ``LoopSource`` says what its readiness means as these: the ``Keyboard``, the signalfd
/// (``SignalSet``), the alarm player, the control socket (``ControlInbox``), the broker, the
/// `--on-done` command and `recover`'s child (``ChildWatch``), a watched folder
/// (``FolderWatch``); the loop's own timers only wake it (`.tick`). A new source brings its cases.
/// What a person asks arrives as a ``Command`` (``command(_:from:connection:)``), or as a key or
/// signal the controller reads into one.
package enum Input: Equatable {
    /// A key typed on the terminal (or piped in).
    case key(Key)
    /// A signal read from the signalfd (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP,
    /// SIGCONT, SIGUSR1).
    case signal(Int32)
    /// A report from the alarm player.
    case audio(AlarmPlayer.Event)
    /// Time passed: the timer the loop armed for ``Controller/nextWake(at:)`` fired, or any wake.
    case tick
    /// A ``Command`` parsed by its front: a control socket line (`eggtimer ack` from another
    /// shell; `connection` names the connection to answer on) or an MQTT payload on this timer's
    /// command topic (no connection: nobody waits for an answer).
    ///
    /// Keys and signals arrive as ``key(_:)`` and ``signal(_:)``: what they mean depends on the
    /// controller's mode, which parses them (``Controller/command(forKey:)``).
    case command(Command, from: Origin, connection: Int? = nil)
    /// The `--on-done` command ended: its exit status, or the signal that ended it.
    case doneCommandEnded(status: Int32?, signal: Int32?)
    /// What the MQTT broker connection reported (the session hands it to ``BusLink``, whose
    /// commands for this timer take its place as ``command(_:from:connection:)``).
    case bus(BusEvent)
    /// A child process another front waits for ended (`recover`'s started timer): its pid and
    /// how it ended (``ChildWatch``).
    case childExited(pid: Int32, ChildExit)
    /// A file in a watched folder was written and closed, or renamed into it (``FolderWatch``):
    /// its name; nil when the kernel's queue overflowed and any file may have changed.
    case fileWritten(name: String?)
    /// A file was removed from a watched folder (the kitchen's ``FolderWatch`` on the records,
    /// ``FolderWatch/removals``): its name; nil when the kernel's queue overflowed.
    case fileRemoved(name: String?)
    /// The kitchen's socket took a `start` request (``KitchenInbox``): its text, not parsed yet,
    /// its asker's id if it gave one, and the connection to answer on.
    case startRequest(text: String, id: RequestID?, connection: Int)
    /// The kitchen's socket took a `pair` request (`eggtimer kitchen --pair`, ``KitchenInbox``):
    /// the connection to answer on, at once.
    case pairRequest(connection: Int)
    /// The kitchen's socket took an `unpair` request (`eggtimer kitchen --unpair`): the
    /// connection to answer on, at once.
    case unpairRequest(connection: Int)
    /// A followed timer's watch sent its status (``TimerFollows``): its socket's name and the status.
    case timerStatus(socket: String, TimerStatus)
    /// A followed timer's watch ended (the timer exited, or dropped the watcher).
    case timerEnded(socket: String)
    /// A timer answered one of the kitchen's commands (the kitchen's `TimerExchanges`, by its
    /// number of the exchange): its reply line, or nil when it closed or failed without one.
    case timerReply(exchange: Int, reply: String?)
    /// A source's one line for the log (``TimerFollows``: a socket that does not answer;
    /// ``SocketKeeper``: the control socket bound again).
    case note(String)
    /// A keypad press as the key map read it, or its pending cancel come due (``KeypadSource``).
    case keyAction(KeyAction)
    /// An utterance the kitchen's listener recognised (``ListenerSource``, issue 46): its words,
    /// lowercased, and whether the recogniser was sure of them. Never the audio.
    case heard(words: [String], confident: Bool)
}

extension Input {
    /// Whether a person sent this (a key, or SIGUSR1 to stop the alarm without a keyboard), as
    /// opposed to a report from the system or the clock.
    package var isUserAction: Bool {
        switch self {
        case .key, .keyAction, .heard: true
        case .signal(let number): number == SIGUSR1
        case .audio, .tick, .command, .doneCommandEnded, .bus, .childExited, .fileWritten, .fileRemoved, .startRequest,
            .timerStatus, .timerEnded, .timerReply, .note, .pairRequest, .unpairRequest:
            false
        }
    }
}
