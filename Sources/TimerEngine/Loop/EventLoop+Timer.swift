package import EventLoop

/// The event loop of every runner (the timer's, the kitchen's): the EventLoop library's
/// `PollLoop` over this engine's `Input`, whose rounds end with `.tick`.
package typealias EventLoop = PollLoop<Input>

extension PollLoop where Event == Input {
    /// Creates the loop with no source but its own boot-clock timer.
    /// - Parameters:
    ///   - clock: The boot clock, and the mapping of its instants for the timer.
    ///   - now: Reads the boot clock; a seam for tests (the default reads `clock`).
    package init(clock: MonotonicClock, now: (() -> ContinuousClock.Instant)? = nil) {
        self.init(bootNanoseconds: clock.nanoseconds, now: now ?? { clock.now() }, tick: .tick)
    }

    /// One round of the loop (``PollLoop/round(until:)``): blocks until a source is ready, a
    /// source's next check passes or `wake` passes.
    /// - Parameter wake: When the caller must run again even if nothing happens; nil for never.
    /// - Returns: The round's inputs, then always a final `.tick`.
    /// - Throws: `ExitStatus.osError` if `ppoll` fails for a reason other than EINTR.
    package mutating func wait(until wake: ContinuousClock.Instant?) throws(ExitStatus) -> [Input] {
        do { return try round(until: wake) } catch { throw .osError }
    }

    /// Adds the signalfd: each handled signal becomes `.signal(number)`.
    package mutating func add(_ signals: SignalSet) { add(signals, as: Input.signal) }

    /// Adds a watched folder: each file written in it becomes `.fileWritten(name:)`, a full
    /// kernel queue `.fileWritten(name: nil)`.
    package mutating func add(_ watch: FolderWatch) { add(watch, as: Input.fileWritten) }

    /// Adds a control socket's keeper: each line it says becomes `.note`.
    package mutating func add(_ keeper: SocketKeeper) { add(keeper, as: Input.note) }

    /// Adds the timer's control socket: each whole command becomes `.command(_:from:connection:)`,
    /// from the front the peer named (protocol version 4), else `.control`.
    package mutating func add(_ control: ControlInbox) {
        add(control) { .command($0.command, from: $0.origin ?? .control, connection: $0.connection) }
    }
}
