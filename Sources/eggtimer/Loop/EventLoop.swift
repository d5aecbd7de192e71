import AlarmAudio
import CSystem
import Glibc

/// Waits in one `ppoll` on every descriptor eggtimer owns and turns what happened into
/// ``Input``s: the keyboard (standard input), the signalfd, the alarm player's event queue, and a
/// boot-clock timer for the next deadline.
///
/// Nothing here blocks except that one `ppoll`, which the timer bounds. Owned by the main
/// thread; not thread-safe.
struct EventLoop {
    private let signals: SignalSet
    private let player: AlarmPlayer
    private let timer: BootTimer?
    private let clock: MonotonicClock
    private let decoder = KeyDecoder()
    /// Whether standard input is read: a keyboard, or a pipe of keys. Dropped at EOF or error,
    /// since a descriptor at EOF polls readable forever (a loop that kept it would spin).
    private(set) var readsKeys: Bool

    /// Creates the loop over descriptors that the caller opened and will close.
    /// - Parameters:
    ///   - signals: The signalfd of the handled signals.
    ///   - player: The alarm player, whose descriptor and hang deadlines are watched.
    ///   - readsKeys: Whether to read keys from standard input.
    ///   - clock: The boot clock.
    init(signals: SignalSet, player: AlarmPlayer, readsKeys: Bool, clock: MonotonicClock) {
        self.signals = signals
        self.player = player
        self.readsKeys = readsKeys
        self.clock = clock
        timer = BootTimer(clock: clock)
    }

    /// Releases the timer descriptor.
    func close() { timer?.close() }

    /// Blocks until something happens or `wake` (boot clock) passes, whichever is first.
    /// - Parameter wake: When the caller must run again even if nothing happens; nil for never.
    /// - Returns: The inputs in the order they should be handled: signals, audio reports, keys,
    ///   then always a final `.tick`.
    /// - Throws: `ExitStatus.osError` if `ppoll` fails for a reason other than EINTR.
    mutating func wait(until wake: ContinuousClock.Instant?) throws(ExitStatus) -> [Input] {
        let deadline = [wake, player.nextCheck].compactMap { $0 }.min()
        var fds = [
            pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: timer?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        if readsKeys { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        let ready: Int32
        if let timer {
            timer.arm(at: deadline)
            ready = ppoll(&fds, nfds_t(fds.count), nil, nil)
        } else {
            var timeout = Self.timespec(until: deadline, from: clock.now())
            ready = withOptionalPointer(&timeout) { ppoll(&fds, nfds_t(fds.count), $0, nil) }
        }
        if ready < 0 && errno != EINTR { throw .osError }
        if fds[2].revents != 0 { timer?.acknowledge() }

        var inputs: [Input] = []
        if fds[0].revents != 0 { inputs += signals.drain().map(Input.signal) }
        let now = clock.now()
        if fds[1].revents != 0 || player.nextCheck.map({ now >= $0 }) == true {
            inputs += player.events(at: now).map(Input.audio)
        }
        if readsKeys, fds[3].revents != 0 { inputs += readKeys().map(Input.key) }
        inputs.append(.tick)
        return inputs
    }

    /// Reads what standard input has; stops reading it at EOF or on an error.
    private mutating func readKeys() -> [Key] {
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &bytes, bytes.count)
        if count > 0 { return decoder.decode(bytes[0..<count]) }
        if count == 0 || (errno != EAGAIN && errno != EINTR) { readsKeys = false }
        return []
    }

    /// The relative timeout from `now` to `deadline`, for the fallback without a timerfd.
    private static func timespec(until deadline: ContinuousClock.Instant?, from now: ContinuousClock.Instant)
        -> Glibc.timespec?
    {
        guard let deadline else { return nil }
        let (seconds, attoseconds) = max(.zero, now.duration(to: deadline)).components
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
}

/// Calls `body` with a pointer to `value`'s payload, or nil when it is nil.
private func withOptionalPointer<T, R>(_ value: inout T?, _ body: (UnsafePointer<T>?) -> R) -> R {
    guard var payload = value else { return body(nil) }
    return withUnsafePointer(to: &payload) { body($0) }
}
