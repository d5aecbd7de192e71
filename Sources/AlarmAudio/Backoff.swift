/// Waits between attempts to (re)open a device: doubling from a first delay up to a limit.
struct Backoff {
    /// The first delay after a success or a reset.
    let first: Duration
    /// The longest delay.
    let limit: Duration
    private var upcoming: Duration

    /// Creates a backoff that starts at `first`.
    ///
    /// - Parameters:
    ///   - first: The first delay; positive.
    ///   - limit: The longest delay; at least `first`.
    /// - Precondition: `first > .zero` and `limit >= first`.
    init(first: Duration, limit: Duration) {
        precondition(first > .zero && limit >= first, "bad backoff range")
        self.first = first
        self.limit = limit
        upcoming = first
    }

    /// The delay before the next attempt; each call doubles the one after, up to `limit`.
    mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, limit) }
        return upcoming
    }

    /// Starts again from `first`, after an attempt succeeded.
    mutating func reset() { upcoming = first }
}
