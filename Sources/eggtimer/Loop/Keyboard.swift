import EventLoop
import Glibc
import TerminalUI
import TimerEngine

/// Standard input as a source of the event loop: the keys typed on the terminal (or piped in),
/// each as `.key(key)`.
///
/// A terminal is read only while it is this job's keyboard (in the foreground: reading it from
/// the background raises SIGTTIN); a pipe or file is read whenever it can be read at all (not under
/// `nohup`, which opens it write-only). A pipe is dropped for good at EOF or error, since a
/// descriptor at EOF polls readable forever (a loop that kept it would spin). Owned by the event
/// loop's thread; not thread-safe.
final class Keyboard: LoopSource {
    private let decoder = KeyDecoder()
    private let descriptor: Int32
    /// Whether the descriptor is read now.
    private(set) var readsKeys: Bool
    /// Whether the descriptor is a terminal: then it is read only while it is the keyboard.
    private let isTerminal: Bool

    /// Reads `descriptor` as the keyboard.
    /// - Parameters:
    ///   - keyboard: Whether standard input is a terminal that is this job's keyboard now
    ///     (``OutputRouting/keyboard``); ignored when it is not a terminal.
    ///   - descriptor: The descriptor to read, standard input unless a test gives another (not
    ///     owned: never closed here).
    init(keyboard: Bool, descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) == 1
        readsKeys = isTerminal ? keyboard : Self.isReadable(descriptor)
    }

    /// Starts or stops reading the terminal as the keyboard, as the job moves to the foreground
    /// or the background; no effect when standard input is not a terminal.
    /// - Parameter keyboard: Whether the terminal is this job's keyboard now.
    func follow(keyboard: Bool) {
        if isTerminal { readsKeys = keyboard }
    }

    /// Whether `descriptor` is open for reading: not closed, not opened write-only (`nohup`
    /// replaces a terminal on standard input with `/dev/null` opened write-only).
    ///
    /// C: `fcntl(F_GETFL)`.
    static func isReadable(_ descriptor: Int32 = STDIN_FILENO) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE != O_WRONLY
    }

    /// The descriptor while it is read.
    var pollRequests: [PollRequest] {
        readsKeys ? [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] : []
    }

    /// Reads the keys that arrived; a terminal that reads end of file or EIO has hung up, which
    /// is said as SIGHUP when the round has none yet.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        guard readsKeys, !ready.isEmpty else { return }
        inputs += readKeys().map(Input.key)
        // A terminal in cbreak mode reads end of file or EIO only once hung up: the same as
        // the SIGHUP that comes with it (which may come later, or never to a job in a shell).
        if !readsKeys, isTerminal, !inputs.contains(.signal(SIGHUP)) { inputs.append(.signal(SIGHUP)) }
    }

    /// Reads what the descriptor has; stops reading it at EOF or on an error.
    private func readKeys() -> [Key] {
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &bytes, bytes.count)
        if count > 0 { return decoder.decode(bytes[0..<count]) }
        if count == 0 || (errno != EAGAIN && errno != EINTR) { readsKeys = false }
        return []
    }
}
