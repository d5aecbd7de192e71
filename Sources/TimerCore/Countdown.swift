/// A pausable countdown driven by instants the caller passes in; it never reads a clock.
///
/// While running it stores the deadline (the instant the countdown reaches zero), never a count of
/// ticks, so a late or missed wake-up cannot make it drift: `remaining(at:)` is always
/// `deadline - now`, clamped at zero. While paused it stores the time left, so paused time is not
/// counted, to the resolution of the instants passed in.
///
/// A value type: copy it freely; it is `Sendable` when its `Instant` is.
public struct Countdown<Instant: InstantProtocol & Sendable>: Sendable, Equatable
where Instant.Duration == Duration {
    /// Where the countdown is.
    public enum Phase: Sendable, Equatable {
        /// Not started; `remaining` is `total`.
        case idle
        /// Counting down; reaches zero at `deadline`.
        case running(deadline: Instant)
        /// Stopped with `left` still to run.
        case paused(left: Duration)
    }

    /// The full length of the countdown, including any adjustments.
    public private(set) var total: Duration
    /// The current phase.
    public private(set) var phase = Phase.idle

    /// Creates an idle countdown.
    /// - Parameter total: The length to count down.
    /// - Precondition: `total > .zero`.
    public init(total: Duration) {
        precondition(total > .zero, "a countdown needs a positive duration")
        self.total = total
    }

    /// Starts counting from `now`; does nothing if already running or paused, so a second start
    /// never starts a second countdown or moves the deadline.
    /// - Returns: `true` if the countdown started.
    @discardableResult
    public mutating func start(at now: Instant) -> Bool {
        guard case .idle = phase else { return false }
        phase = .running(deadline: now.advanced(by: total))
        return true
    }

    /// Pauses a running countdown, keeping the time left at `now`.
    /// - Returns: `true` if it was running and is now paused.
    @discardableResult
    public mutating func pause(at now: Instant) -> Bool {
        guard case .running(let deadline) = phase else { return false }
        phase = .paused(left: max(.zero, now.duration(to: deadline)))
        return true
    }

    /// Resumes a paused countdown; the new deadline is `now` plus the time that was left.
    /// - Returns: `true` if it was paused and is now running.
    @discardableResult
    public mutating func resume(at now: Instant) -> Bool {
        guard case .paused(let left) = phase else { return false }
        phase = .running(deadline: now.advanced(by: left))
        return true
    }

    /// Restarts from the full `total`, running, whatever the phase.
    public mutating func restart(at now: Instant) {
        phase = .running(deadline: now.advanced(by: total))
    }

    /// Whether `adjust(by:at:)` would accept `delta` at `now`: the time left must stay above zero.
    public func canAdjust(by delta: Duration, at now: Instant) -> Bool {
        remaining(at: now) + delta > .zero && total + delta > .zero
    }

    /// Adds `delta` (negative to take time away) to both the time left and the total.
    /// - Returns: `false`, changing nothing, when the time left would not stay above zero.
    @discardableResult
    public mutating func adjust(by delta: Duration, at now: Instant) -> Bool {
        guard canAdjust(by: delta, at: now) else { return false }
        total += delta
        switch phase {
        case .idle: break
        case .running(let deadline): phase = .running(deadline: deadline.advanced(by: delta))
        case .paused(let left): phase = .paused(left: left + delta)
        }
        return true
    }

    /// Whether the countdown is running (not idle, not paused); true also past the deadline.
    public var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// Whether the countdown is paused.
    public var isPaused: Bool {
        if case .paused = phase { return true }
        return false
    }

    /// The instant the countdown reaches zero, or `nil` unless running.
    public var deadline: Instant? {
        if case .running(let deadline) = phase { return deadline }
        return nil
    }

    /// Time left at `now`, clamped at zero.
    public func remaining(at now: Instant) -> Duration {
        switch phase {
        case .idle: total
        case .paused(let left): left
        case .running(let deadline): max(.zero, now.duration(to: deadline))
        }
    }

    /// Counted time at `now`: `total - remaining`, between zero and `total`.
    public func elapsed(at now: Instant) -> Duration { total - remaining(at: now) }

    /// Fraction done at `now`, from 0 (just started) to 1 (finished).
    public func progress(at now: Instant) -> Double {
        min(1, max(0, elapsed(at: now) / total))
    }

    /// Whether a running countdown has reached its deadline at `now`.
    public func isFinished(at now: Instant) -> Bool {
        if case .running(let deadline) = phase { return now >= deadline }
        return false
    }

    /// The next instant at which a display of the remaining time, rounded up to whole seconds, changes.
    ///
    /// The last such change is the deadline itself. `nil` unless running, and once finished.
    ///
    /// A display of `k` seconds covers remaining times in `(k-1 s, k s]`, so the next change is
    /// when `k - 1` seconds remain: `deadline - (k - 1) s`.
    public func nextDisplayChange(at now: Instant) -> Instant? {
        guard case .running(let deadline) = phase, now < deadline else { return nil }
        let shown = remaining(at: now).roundedUpToWholeSeconds
        return deadline.advanced(by: .seconds(1) - shown)
    }
}
