import Glibc
import Speech
import SystemKit
import Testing

/// A synthesiser that blocks until released (or 30 s pass): the seam for a slow synthesis.
final class StuckSynthesizer: SpeechSynthesizing {
    private let release = WakePipe()
    let calls = Locked(0)

    func render(_ text: String, voice: String, format: SpeechFormat) throws(SpeechError) -> SpokenAudio {
        calls.withLock { $0 += 1 }
        var entry = pollfd(fd: release.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 30_000)
        return SpokenAudio(samples: [1, 1], format: format)
    }

    /// Lets every render, current and later, return at once.
    func letGo() { release.ring() }
}

/// A synthesiser that fails with a given error.
struct FailingSynthesizer: SpeechSynthesizing {
    let error: SpeechError
    func render(_ text: String, voice: String, format: SpeechFormat) throws(SpeechError) -> SpokenAudio {
        throw error
    }
}

/// Polls the preparer's descriptor until it has outcomes or `limit` passes, as an event loop does
/// (waking at `nextCheck`); returns them and when they came.
func awaitOutcomes(
    _ preparer: SpeechPreparer, limit: Duration = .seconds(30)
) -> (outcomes: [(ticket: SpeechPreparer.Ticket, outcome: SpeechPreparer.Outcome)], at: ContinuousClock.Instant) {
    let end = ContinuousClock.now + limit
    while true {
        let now = ContinuousClock.now
        let outcomes = preparer.results(at: now)
        if !outcomes.isEmpty || now >= end { return (outcomes, now) }
        let wake = min(preparer.nextCheck ?? end, end)
        let milliseconds = Int32(min(30_000, max(1, (now.duration(to: wake) / .milliseconds(1)).rounded(.up))))
        var entry = pollfd(fd: preparer.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, milliseconds)
    }
}

@Suite struct SpeechPreparerTests {
    let format = SpeechFormat(sampleRate: 48_000, channels: 2)!

    @Test func aLineIsPreparedOffTheLoopInTheAlarmsFormat() throws {
        let preparer = SpeechPreparer()
        let asked = ContinuousClock.now
        let ticket = preparer.prepare("Pasta is ready", voice: "en-gb", format: format, now: asked)
        #expect(preparer.isWaiting)
        #expect(preparer.nextCheck == asked + SpeechPreparer.defaultLimit)
        let (outcomes, _) = awaitOutcomes(preparer)
        try #require(outcomes.count == 1)
        #expect(outcomes[0].ticket == ticket)
        guard case .ready(let audio) = outcomes[0].outcome else {
            Issue.record("not ready: \(outcomes[0].outcome)")
            return
        }
        #expect(audio.format == format)
        #expect(audio.duration > .milliseconds(600) && audio.duration < .milliseconds(1_400), "\(audio.duration)")
        #expect(!preparer.isWaiting && preparer.nextCheck == nil)
    }

    /// The bound, on the real clock: a synthesis that never finishes gives `.failed` at the limit
    /// (plus a margin for a loaded machine), never later; its result, when it comes, is dropped.
    @Test func aStuckSynthesisFailsWithinTheLimit() throws {
        let stuck = StuckSynthesizer()
        defer { stuck.letGo() }
        let limit = Duration.milliseconds(300)
        let preparer = SpeechPreparer(synthesizer: stuck, limit: limit)
        let asked = ContinuousClock.now
        let ticket = preparer.prepare("Soft eggs are ready", voice: "en-gb", format: format, now: asked)
        let (outcomes, at) = awaitOutcomes(preparer)
        try #require(outcomes.count == 1)
        #expect(outcomes[0].ticket == ticket)
        #expect(outcomes[0].outcome == .failed(.tooSlow(limit: limit)))
        #expect(at >= asked + limit)
        #expect(at < asked + limit + .seconds(1), "\(asked.duration(to: at))")
        #expect(
            SpeechError.tooSlow(limit: limit).message
                == "speech synthesis took longer than 300 ms and was abandoned")
        stuck.letGo()
        // The abandoned result is dropped; a new line is served after it.
        let next = preparer.prepare("Pasta is ready", voice: "en-gb", format: format, now: ContinuousClock.now)
        let (later, _) = awaitOutcomes(preparer)
        #expect(later.map(\.ticket) == [next])
    }

    /// The bound on injected instants: the preparer reads no clock, so the failure comes exactly at
    /// `now + limit` as the caller tells time, and not a moment before.
    @Test func theBoundFollowsTheCallersClock() {
        let stuck = StuckSynthesizer()
        defer { stuck.letGo() }
        let preparer = SpeechPreparer(synthesizer: stuck, limit: .seconds(2))
        let t0 = ContinuousClock.now - .seconds(3_600)  // any instant will do; nothing sleeps
        let ticket = preparer.prepare("Pasta is ready", voice: "de", format: format, now: t0)
        #expect(preparer.results(at: t0 + .milliseconds(1_999)).isEmpty)
        #expect(preparer.nextCheck == t0 + .seconds(2))
        let outcomes = preparer.results(at: t0 + .seconds(2))
        #expect(outcomes.map(\.ticket) == [ticket])
        #expect(outcomes.map(\.outcome) == [.failed(.tooSlow(limit: .seconds(2)))])
        #expect(preparer.nextCheck == nil)
    }

    @Test(arguments: [
        SpeechError.libraryMissing("libespeak-ng.so.1: cannot open shared object file"), .unknownVoice("xx"),
    ])
    func aFailedSynthesisIsItsTypedError(error: SpeechError) throws {
        let preparer = SpeechPreparer(synthesizer: FailingSynthesizer(error: error))
        _ = preparer.prepare("Pasta is ready", voice: "xx", format: format, now: ContinuousClock.now)
        let (outcomes, _) = awaitOutcomes(preparer)
        #expect(outcomes.map(\.outcome) == [.failed(error)])
    }

    @Test func aMissingLibraryReachesTheCallerAsLibraryMissing() {
        let hidden = SpeechSynthesizer(
            espeakFileName: "libespeak-ng-hidden.so.1", samplerateFileName: "libsamplerate.so.0")
        let preparer = SpeechPreparer(synthesizer: hidden)
        _ = preparer.prepare("Pasta is ready", voice: "en-gb", format: format, now: ContinuousClock.now)
        let (outcomes, _) = awaitOutcomes(preparer)
        guard case .failed(.libraryMissing) = outcomes.first?.outcome else {
            Issue.record("\(outcomes)")
            return
        }
    }

    /// A cancelled line gets no outcome; one queued behind a stuck one is skipped, not synthesised.
    @Test func aCancelledLineHasNoOutcomeAndIsNotSynthesised() {
        let stuck = StuckSynthesizer()
        let preparer = SpeechPreparer(synthesizer: stuck, limit: .seconds(20))
        let t0 = ContinuousClock.now
        _ = preparer.prepare("one", voice: "en", format: format, now: t0)
        let second = preparer.prepare("two", voice: "en", format: format, now: t0)
        preparer.cancel(second)
        stuck.letGo()
        let (outcomes, _) = awaitOutcomes(preparer)
        #expect(outcomes.count == 1 && outcomes[0].ticket != second)
        #expect(stuck.calls.withLock { $0 } == 1)
        #expect(preparer.results(at: ContinuousClock.now).isEmpty && !preparer.isWaiting)
    }
}
