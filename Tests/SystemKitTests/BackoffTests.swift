import Testing

@testable import SystemKit

/// A seeded generator (SplitMix64), so a jittered sequence can be replayed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct BackoffTests {
    @Test func delaysDoubleUpToTheLimitAndResetToTheFirst() {
        var backoff = Backoff(first: .milliseconds(100), limit: .seconds(2))
        let delays = (0..<8).map { _ in backoff.next() }
        #expect(delays == [100, 200, 400, 800, 1600, 2000, 2000, 2000].map { Duration.milliseconds($0) })
        backoff.reset()
        #expect(backoff.next() == .milliseconds(100))
        #expect(backoff.next() == .milliseconds(200))
    }

    @Test func aLimitEqualToTheFirstStaysThere() {
        var backoff = Backoff(first: .seconds(1), limit: .seconds(1))
        #expect((0..<3).map { _ in backoff.next() } == [.seconds(1), .seconds(1), .seconds(1)])
    }

    @Test func jitterScalesEachDelayWithinItsRange() {
        var backoff = Backoff(first: .seconds(1), limit: .seconds(30), jitter: 0.8...1.2)
        var generator = SeededGenerator(state: 42)
        var waits: [Duration] = []
        for base in [1, 2, 4, 8, 16, 30, 30, 30] {
            let wait = backoff.next(using: &generator)
            #expect(wait >= .seconds(base) * 0.8 && wait <= .seconds(base) * 1.2, "base \(base) s: \(wait)")
            waits.append(wait)
        }
        #expect(Set(waits.suffix(3)).count > 1, "the jitter varies the waits at the limit")
        var replay = Backoff(first: .seconds(1), limit: .seconds(30), jitter: 0.8...1.2)
        var same = SeededGenerator(state: 42)
        #expect((0..<8).map { _ in replay.next(using: &same) } == waits)
        for base in [1, 2] {
            backoff.reset()
            let wait = backoff.next()
            #expect(wait >= .seconds(1) * 0.8 && wait <= .seconds(1) * 1.2, "after reset \(base): \(wait)")
        }
    }
}
