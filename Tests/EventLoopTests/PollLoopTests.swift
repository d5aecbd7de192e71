import EventLoop
import Glibc
import SystemKit
import TestSupport
import Testing

/// The tests' events: a source's byte by its name, a child's end, a file written, a source's
/// line, and the round's tick.
enum LoopInput: Equatable {
    case key(Character)
    case childExited(pid: Int32, ChildExit)
    case file(String?)
    case note(String)
    case tick
}

/// A loop over ``LoopInput`` on the real boot clock, or one whose clock always reads `now`.
func testLoop(now: ContinuousClock.Instant? = nil) -> PollLoop<LoopInput> {
    PollLoop(bootNanoseconds: bootNanoseconds, now: now.map { at in { at } } ?? { .now }, tick: .tick)
}

/// `instant` as CLOCK_BOOTTIME nanoseconds, mapped through a fresh reading of both clocks (the
/// timer's mapping is the engine's `MonotonicClock`, read once per process).
func bootNanoseconds(_ instant: ContinuousClock.Instant) -> Int64 {
    let now = ContinuousClock.now
    var spec = timespec()
    clock_gettime(CLOCK_BOOTTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec) + now.duration(to: instant).nanoseconds
}

/// A source for the tests: a pipe whose every byte read becomes `.key(name)`, and an optional
/// next check that yields `.key(name)` once without any descriptor.
private final class FakeSource: LoopSource {
    let name: Character
    let pipe: (read: Int32, write: Int32)?
    var nextCheck: ContinuousClock.Instant?
    var finishes = false
    private(set) var isFinished = false
    private(set) var services: [[PollReady]] = []

    init(_ name: Character, pipe: Bool = true, nextCheck: ContinuousClock.Instant? = nil) {
        self.name = name
        self.pipe = pipe ? makePipe() : nil
        self.nextCheck = nextCheck
    }

    deinit {
        if let pipe {
            close(pipe.read)
            close(pipe.write)
        }
    }

    /// Writes `count` bytes into the pipe.
    func send(_ count: Int = 1) {
        guard let pipe else { return }
        let bytes = [UInt8](repeating: 0x61, count: count)
        _ = bytes.withUnsafeBytes { write(pipe.write, $0.baseAddress, $0.count) }
    }

    var pollRequests: [PollRequest] {
        pipe.map { [PollRequest(descriptor: $0.read, events: Int16(POLLIN))] } ?? []
    }

    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [LoopInput]) {
        services.append(ready)
        if let pipe, !ready.isEmpty {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(pipe.read, &bytes, bytes.count)
            inputs += (0..<max(0, count)).map { _ in .key(name) }
        } else if let due = nextCheck, now >= due {
            nextCheck = nil
            inputs.append(.key(name))
        }
        if finishes { isFinished = true }
    }
}

@Suite struct PollLoopTests {
    private let t0 = ContinuousClock.now

    /// A loop whose clock always reads `t0 + offset`.
    private func loop(at offset: Duration = .zero) -> PollLoop<LoopInput> {
        testLoop(now: t0 + offset)
    }

    @Test func aReadySourceSaysWhatItsReadinessMeansThenTheRoundTicks() throws {
        var loop = loop()
        defer { loop.close() }
        let source = FakeSource("a")
        loop.add(source)
        source.send(2)
        #expect(try loop.round(until: nil) == [.key("a"), .key("a"), .tick])
        #expect(source.services.count == 1)
        #expect(source.services.first?.first?.descriptor == source.pipe?.read)
        #expect(source.services.first?.first.map { $0.revents & Int16(POLLIN) != 0 } == true)
    }

    @Test func aSourceNotReadyIsNotServicedAndAPassedWakeDoesNotBlock() throws {
        var loop = loop(at: .seconds(10))
        defer { loop.close() }
        let source = FakeSource("a")
        loop.add(source)
        // The wake-up is already past on the loop's clock: it returns at once, with only the tick.
        #expect(try loop.round(until: t0) == [.tick])
        #expect(source.services.isEmpty)
    }

    @Test func aNextCheckWakesTheLoopWithoutAnyDescriptor() throws {
        var loop = loop(at: .seconds(5))
        defer { loop.close() }
        let due = FakeSource("d", pipe: false, nextCheck: t0 + .seconds(1))
        let later = FakeSource("l", pipe: false, nextCheck: t0 + .seconds(3600))
        loop.add(later)
        loop.add(due)
        #expect(try loop.round(until: nil) == [.key("d"), .tick])
        #expect(due.services == [[]])
        #expect(later.services.isEmpty)
    }

    @Test func aNextCheckOnTheBootClockWakesTheRealLoop() throws {
        var loop = testLoop()
        defer { loop.close() }
        let start = ContinuousClock.now
        let source = FakeSource("n", pipe: false, nextCheck: start + .milliseconds(30))
        loop.add(source)
        var inputs: [LoopInput] = []
        // Each wait ends at the loop's timer (armed at the next check) or earlier on EINTR.
        while !inputs.contains(.key("n")), ContinuousClock.now < start + .seconds(10) {
            inputs += try loop.round(until: nil)
        }
        #expect(inputs.contains(.key("n")))
        #expect(ContinuousClock.now >= start + .milliseconds(30))
    }

    @Test func aSourceAddedAndRemovedAtRunTime() throws {
        var loop = loop()
        defer { loop.close() }
        let kept = FakeSource("k")
        let passing = FakeSource("p")
        loop.add(kept)
        loop.add(passing)
        #expect(loop.first(FakeSource.self) === kept)
        passing.send()
        #expect(try loop.round(until: nil) == [.key("p"), .tick])
        loop.remove(passing)
        #expect(!loop.sources.contains { $0 === passing })
        passing.send()
        // Removed: its descriptor is not polled any more, though it is readable.
        #expect(try loop.round(until: t0) == [.tick])
        #expect(passing.services.count == 1)
    }

    @Test func aFinishedSourceIsDroppedAfterItsRound() throws {
        var loop = loop()
        defer { loop.close() }
        let once = FakeSource("o")
        once.finishes = true
        loop.add(once)
        once.send()
        #expect(try loop.round(until: nil) == [.key("o"), .tick])
        #expect(!loop.sources.contains { $0 === once })
        once.send()
        #expect(try loop.round(until: t0) == [.tick])
    }

    @Test func theRoundsInputsComeInTheOrderTheSourcesWereAdded() throws {
        var loop = loop()
        defer { loop.close() }
        let sources = [FakeSource("c"), FakeSource("a"), FakeSource("b")]
        for source in sources { loop.add(source) }
        for source in sources.reversed() { source.send() }
        #expect(
            try loop.round(until: nil) == [.key("c"), .key("a"), .key("b"), .tick])
    }
}

/// A child's end through its pidfd: `--on-done`'s command and `recover`'s started timer.
@Suite struct ChildWatchTests {
    @Test(arguments: [("exit 3", ChildExit.exited(3)), ("kill -TERM $$", .signaled(SIGTERM))])
    func aChildsEndIsOneInputAndTheWatchIsDropped(script: String, exit: ChildExit) throws {
        let pid = try ChildProcess.start(SystemTool.sh.path, ["sh", "-c", script], detachment: .processGroup)
        var loop = testLoop()
        defer { loop.close() }
        let watch = ChildWatch(pid: pid) { LoopInput.childExited(pid: pid, $0) }
        loop.add(watch)
        let giveUp = ContinuousClock.now + .seconds(30)
        var inputs: [LoopInput] = []
        while !watch.isFinished, ContinuousClock.now < giveUp { inputs += try loop.round(until: giveUp) }
        #expect(inputs.filter { $0 != .tick } == [.childExited(pid: pid, exit)])
        #expect(watch.exit == exit)
        #expect(!loop.sources.contains { $0 === watch })
    }
}
