/// Waits between attempts (to reopen a device, to reconnect to a broker): doubling from a first
/// delay up to a limit, each wait optionally scaled by a random factor, back to the first delay
/// after a ``reset()``.
///
/// A value type with no clock: the caller sleeps or arms a timer for what ``next()`` returns.
public struct Backoff: Sendable {
    /// The first delay after a success or a reset, before jitter.
    public let first: Duration
    /// The longest delay, before jitter.
    public let limit: Duration
    /// The range each wait is scaled by (drawn uniformly), or nil for exact waits.
    public let jitter: ClosedRange<Double>?
    private var upcoming: Duration

    /// Creates a backoff that starts at `first`.
    ///
    /// - Parameters:
    ///   - first: The first delay; positive.
    ///   - limit: The longest delay; at least `first`.
    ///   - jitter: Factors to scale each wait by (for example `0.8...1.2`, so nodes that lost the
    ///     same server do not return in step); positive; nil for none.
    /// - Precondition: `first > .zero`, `limit >= first`, and a jitter range above zero.
    public init(first: Duration, limit: Duration, jitter: ClosedRange<Double>? = nil) {
        precondition(first > .zero && limit >= first, "bad backoff range")
        precondition(jitter.map { $0.lowerBound > 0 && $0.upperBound.isFinite } ?? true, "bad backoff jitter")
        self.first = first
        self.limit = limit
        self.jitter = jitter
        upcoming = first
    }

    /// The delay before the next attempt; each call doubles the one after, up to ``limit``.
    ///
    /// Uses the system's random numbers for the jitter.
    public mutating func next() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return next(using: &generator)
    }

    /// The delay before the next attempt, the jitter drawn from `generator`.
    /// - Parameter generator: The source of the jitter factor (a seeded one in tests).
    /// - Returns: The delay: between `jitter.lowerBound` and `jitter.upperBound` times the base.
    public mutating func next(using generator: inout some RandomNumberGenerator) -> Duration {
        defer { upcoming = min(upcoming * 2, limit) }
        guard let jitter else { return upcoming }
        return upcoming * Double.random(in: jitter, using: &generator)
    }

    /// Starts again from ``first``, after an attempt succeeded.
    public mutating func reset() { upcoming = first }
}
