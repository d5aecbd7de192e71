/// The wait before the next connection attempt: 1 s doubling to 30 s, each wait scaled by a
/// random factor in 0.8–1.2 (so nodes that lost the same broker do not return in step), back to
/// 1 s after a successful CONNACK.
struct ReconnectBackoff {
    /// The first wait, before jitter.
    static let first = Duration.seconds(1)
    /// The longest wait, before jitter.
    static let limit = Duration.seconds(30)
    private var upcoming = first

    /// The wait before the next attempt; doubles the one after, up to ``limit``.
    mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, Self.limit) }
        return upcoming * Double.random(in: 0.8...1.2)
    }

    /// Starts again from ``first``.
    mutating func reset() { upcoming = Self.first }
}
