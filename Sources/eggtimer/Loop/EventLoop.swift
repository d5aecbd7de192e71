import AlarmAudio
import CSystem
import Glibc
import HouseBus
import TimerText

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
    /// Whether standard input is read: the terminal while it is this job's keyboard, or a pipe (or
    /// file) of keys.
    ///
    /// A pipe is dropped for good at EOF or error, since a descriptor at EOF polls readable forever
    /// (a loop that kept it would spin).
    private(set) var readsKeys: Bool
    /// Whether standard input is a terminal: then it is read only while it is the keyboard
    /// (in the foreground), since reading it from the background raises SIGTTIN.
    private let stdinIsTerminal: Bool
    /// The control socket and its connections, when the timer listens on one.
    var control: ControlInbox?
    /// The running `--on-done` command, watched through its pidfd.
    var doneCommand: DoneCommand?
    /// The wall-clock timer of an alarm at a time (CLOCK_REALTIME, cancelled when the clock is set).
    private var wallTimer = WallTimer()
    /// When the alarm at a time rings on the wall clock (``Controller/wallDeadline``); nil for none.
    ///
    /// The wall clock being set wakes the wait too (the timer's read fails with ECANCELED): the
    /// caller reads the wall clock after each wait and sees the step.
    var wallDeadline: WallInstant?
    /// The MQTT broker connection (`--mqtt`); nil without one, and then nothing of it is polled.
    var bus: BusClient?

    /// Creates the loop over descriptors that the caller opened and will close.
    /// - Parameters:
    ///   - signals: The signalfd of the handled signals.
    ///   - player: The alarm player, whose descriptor and hang deadlines are watched.
    ///   - keyboard: Whether standard input is a terminal that is this job's keyboard now
    ///     (``OutputRouting/keyboard``). Standard input that is not a terminal is read whenever
    ///     it can be read at all (not under `nohup`, which opens it write-only).
    ///   - clock: The boot clock.
    init(signals: SignalSet, player: AlarmPlayer, keyboard: Bool, clock: MonotonicClock) {
        self.signals = signals
        self.player = player
        stdinIsTerminal = isatty(STDIN_FILENO) == 1
        readsKeys = stdinIsTerminal ? keyboard : Self.standardInputIsReadable()
        self.clock = clock
        timer = BootTimer(clock: clock)
    }

    /// Starts or stops reading the terminal on standard input as the keyboard, as the job moves
    /// to the foreground or the background; no effect when standard input is not a terminal.
    /// - Parameter keyboard: Whether the terminal is this job's keyboard now.
    mutating func follow(keyboard: Bool) {
        if stdinIsTerminal { readsKeys = keyboard }
    }

    /// Whether standard input is open for reading: not closed, not opened write-only (`nohup`
    /// replaces a terminal on standard input with `/dev/null` opened write-only).
    ///
    /// C: `fcntl(F_GETFL)`.
    static func standardInputIsReadable() -> Bool {
        let flags = fcntl(STDIN_FILENO, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE != O_WRONLY
    }

    /// Releases the timer descriptor.
    func close() {
        timer?.close()
        wallTimer?.close()
    }

    /// Blocks until something happens or `wake` (boot clock) passes, whichever is first.
    /// - Parameter wake: When the caller must run again even if nothing happens; nil for never.
    /// - Returns: The inputs in the order they should be handled: signals, audio reports, keys,
    ///   then always a final `.tick`.
    /// - Throws: `ExitStatus.osError` if `ppoll` fails for a reason other than EINTR.
    mutating func wait(until wake: ContinuousClock.Instant?) throws(ExitStatus) -> [Input] {
        let deadline = [wake, player.nextCheck, control?.nextCheck, bus?.nextCheck].compactMap { $0 }.min()
        var fds = [
            pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: timer?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: readsKeys ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: doneCommand?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        let controlSet = control?.pollSet ?? []
        fds += controlSet.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let wallSlot = fds.count
        wallTimer?.arm(at: wallDeadline)
        fds.append(
            pollfd(fd: wallDeadline == nil ? -1 : wallTimer?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
        let busIndex = fds.count
        if let request = bus?.pollRequest {
            fds.append(pollfd(fd: request.descriptor, events: request.events, revents: 0))
        }
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
        if fds[wallSlot].revents != 0 { _ = wallTimer?.read() }

        var inputs: [Input] = []
        if fds[0].revents != 0 { inputs += signals.drain().map(Input.signal) }
        let now = clock.now()
        if fds[1].revents != 0 || player.nextCheck.map({ now >= $0 }) == true {
            inputs += player.events(at: now).map(Input.audio)
        }
        if readsKeys, fds[3].revents != 0 {
            inputs += readKeys().map(Input.key)
            // A terminal in cbreak mode reads end of file or EIO only once hung up: the same as
            // the SIGHUP that comes with it (which may come later, or never to a job in a shell).
            if !readsKeys, stdinIsTerminal, !inputs.contains(.signal(SIGHUP)) { inputs.append(.signal(SIGHUP)) }
        }
        if fds[4].revents != 0, let ended = doneCommand?.reap() {
            doneCommand = nil
            switch ended {
            case .exited(let status): inputs.append(.doneCommandEnded(status: status, signal: nil))
            case .signaled(let signal): inputs.append(.doneCommandEnded(status: nil, signal: signal))
            }
        }
        if let control {
            for (index, entry) in controlSet.enumerated() where fds[5 + index].revents != 0 {
                inputs += control.ready(entry.connection, revents: fds[5 + index].revents, at: now)
            }
            control.expire(at: now)
        }
        if let bus {
            let revents = busIndex < fds.count ? fds[busIndex].revents : 0
            if revents != 0 || bus.nextCheck.map({ now >= $0 }) == true {
                inputs += bus.service(revents: revents, at: now).map(Input.bus)
            }
        }
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
