import Dispatch
import Glibc
import Synchronization
import TestSupport

/// CLOCK_BOOTTIME now, in nanoseconds: the clock of eggtimer's `t_mono_ns`.
func bootNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_BOOTTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// A child whose standard output is read on its own thread, each chunk stamped with
/// CLOCK_BOOTTIME when `read` returned it.
final class StampedOutput: Sendable {
    /// One `read` of the child's output.
    struct Chunk {
        /// CLOCK_BOOTTIME nanoseconds when the read returned.
        let stamp: Int64
        let bytes: [UInt8]
    }

    private struct State {
        var chunks: [Chunk] = []
        var byteCount = 0
        var ended = false
    }

    let child: Child
    private let state = Mutex(State())
    /// Signalled after every chunk and at the end of the output.
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts a child through `start`, given the write end of its standard output; its output is
    /// read until end of file on a dispatch thread.
    init(start: (_ stdout: Int32) -> Child) {
        let ends = makePipe()
        child = start(ends.write)
        close(ends.write)
        let reader = ends.read
        DispatchQueue(label: "stamped-output").async { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = Chunk(stamp: bootNanoseconds(), bytes: Array(buffer[0..<count]))
                state.withLock {
                    $0.chunks.append(chunk)
                    $0.byteCount += count
                }
                arrived.signal()
            }
            close(reader)
            state.withLock { $0.ended = true }
            arrived.signal()
        }
    }

    /// The chunks read so far.
    var chunks: [Chunk] { state.withLock { $0.chunks } }

    /// Everything read so far, as text.
    var text: String { String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) }

    /// Waits (on the reader's signal, not by sleeping) until `condition` holds for the chunks read
    /// so far, the output ends, or `timeout` passes.
    /// - Returns: Whether `condition` held.
    @discardableResult
    func wait(timeout: Duration, until condition: ([Chunk]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (chunks, ended) = state.withLock { ($0.chunks, $0.ended) }
            if condition(chunks) { return true }
            if ended { return false }
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return false }
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
    }

    /// Waits until the output ends (the child closed it or exited).
    @discardableResult
    func waitForEnd(timeout: Duration) -> Bool {
        wait(timeout: timeout) { _ in false } || state.withLock { $0.ended }
    }
}
