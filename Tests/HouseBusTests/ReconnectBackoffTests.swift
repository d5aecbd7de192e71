import SystemKit
import Testing

@testable import HouseBus

@Suite struct ReconnectBackoffTests {
    @Test func waitsDoubleFromOneSecondToThirtyWithJitterAndResetOnSuccess() {
        var backoff = Backoff.reconnect
        for base in [1, 2, 4, 8, 16, 30, 30, 30] {
            let wait = backoff.next()
            #expect(wait >= .seconds(base) * 0.8 && wait <= .seconds(base) * 1.2, "base \(base) s: \(wait)")
        }
        backoff.reset()
        let first = backoff.next()
        #expect(first >= .milliseconds(800) && first <= .milliseconds(1200))
    }

    @Test func jitterSpreadsTheWaits() {
        let waits = (0..<20).map { _ in
            var backoff = Backoff.reconnect
            return backoff.next()
        }
        #expect(Set(waits).count > 1)
    }
}
