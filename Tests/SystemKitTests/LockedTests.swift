import Glibc
import Testing

@testable import SystemKit

@Suite struct LockedTests {
    @Test func incrementsFromManyThreadsAreNotLost() {
        let counter = Locked(0)
        let threads = 8
        let rounds = 10_000
        var ids: [pthread_t] = []
        final class Work: Sendable {
            let counter: Locked<Int>
            let rounds: Int
            init(_ counter: Locked<Int>, _ rounds: Int) { (self.counter, self.rounds) = (counter, rounds) }
        }
        for _ in 0..<threads {
            var id = pthread_t()
            let work = Unmanaged.passRetained(Work(counter, rounds)).toOpaque()
            let result = pthread_create(
                &id, nil,
                { context in
                    let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                    for _ in 0..<work.rounds { work.counter.withLock { $0 += 1 } }
                    return nil
                }, work)
            #expect(result == 0)
            ids.append(id)
        }
        for id in ids { pthread_join(id, nil) }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    @Test func withLockReturnsAndRethrows() {
        struct Refusal: Error {}
        let box = Locked([1, 2])
        #expect(
            box.withLock {
                $0.append(3)
                return $0.count
            } == 3)
        #expect(throws: Refusal.self) { try box.withLock { _ in throw Refusal() } }
        #expect(box.withLock { $0 } == [1, 2, 3])
    }
}
