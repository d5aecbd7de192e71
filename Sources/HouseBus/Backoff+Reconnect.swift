import SystemKit

extension Backoff {
    /// The wait before the next connection attempt to the broker: 1 s doubling to 30 s, each wait
    /// scaled by a random factor in 0.8–1.2 (so nodes that lost the same broker do not return in
    /// step); ``Backoff/reset()`` after a successful CONNACK.
    static var reconnect: Backoff { Backoff(first: .seconds(1), limit: .seconds(30), jitter: 0.8...1.2) }
}
