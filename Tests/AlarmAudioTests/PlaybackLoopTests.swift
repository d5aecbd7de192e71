import Glibc
import Synchronization
import SystemKit
import Testing

@testable import AlarmAudio

/// The playback thread's loop, driven through `AlarmPlayer`'s test seam with a scripted fake device
/// and (mostly) a fake clock: stop, recovery, reopening and pacing without hardware or waiting.
@Suite struct PlaybackLoopTests {
    /// 1000 stereo frames whose samples are all different, so any lost or repeated frame shows.
    static let sound = AlarmSound(
        samples: (0..<2000).map { Int16($0 - 1000) }, sampleRate: 1000, channels: 2)

    private func player(_ device: FakeDevice, timer: some PlaybackTimer) -> AlarmPlayer {
        AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in try device.open() }
    }

    /// A player on `device` driven with the fake timer's clock.
    private func driver(_ device: FakeDevice, timer: FakeTimer) -> PlayerDriver {
        PlayerDriver(player(device, timer: timer), now: timer.now)
    }

    /// Plays `loops` passes on `device` from now and waits for `.finished`.
    /// - Returns: The ringing's report and every event, `.finished` included.
    /// - Throws: When `.finished` never came.
    private func playToEnd(
        _ device: FakeDevice, timer: FakeTimer, loops: Int
    ) throws -> (report: AlarmPlayer.Report, events: [AlarmPlayer.Event]) {
        let driver = driver(device, timer: timer)
        driver.start(at: timer.now(), loops: loops)
        let end = try #require(driver.waitForEnd())
        guard case .finished(let report) = end else { throw Failure("expected .finished, got \(end)") }
        return (report, driver.events)
    }

    /// Starts ringing until stopped, waits until the fake timer parks the thread, then stops it.
    /// - Returns: The `.stopped` report and the events before it.
    /// - Throws: When the thread never parked or never answered the stop.
    private func playUntilParkedThenStop(
        _ driver: PlayerDriver, timer: FakeTimer, loops: Int?, startAt: ContinuousClock.Instant? = nil
    ) throws -> (report: AlarmPlayer.Report, events: [AlarmPlayer.Event]) {
        driver.start(at: startAt ?? timer.now(), loops: loops)
        try #require(timer.parked.wait())
        driver.stop()
        let end = try #require(driver.waitForEnd())
        guard case .stopped(let report) = end else { throw Failure("expected .stopped, got \(end)") }
        return (report, driver.eventsBeforeEnd)
    }

    private func copies(_ count: Int) -> [Int16] {
        Array([[Int16]](repeating: Self.sound.samples, count: count).joined())
    }

    @Test func twoLoopsWriteExactlyTwoPassesThenDrainAndClose() throws {
        let timer = FakeTimer()
        let device = FakeDevice(channels: 2, timer: timer)
        let (report, events) = try playToEnd(device, timer: timer, loops: 2)

        #expect(device.sessions == [copies(2)])
        #expect(report.passes == 2)
        #expect(report.framesWritten == 2000)
        #expect(report.stoppedAt == nil)
        #expect(report.everPlayed)
        #expect(events == [.firstFrame(at: timer.now()), .finished(report)])
        #expect(device.calls.filter { $0 == .drain } == [.drain])
        #expect(device.calls.last == .close)
        #expect(!device.calls.contains(.drop))
        #expect(timer.sleeps.isEmpty, "a counted ringing is not paced")
    }

    /// Underruns, suspends and interrupted writes are repaired in place: the fake sees every
    /// sample exactly once, in order.
    @Test(arguments: [EPIPE, ESTRPIPE, EINTR])
    func recoverableErrorIsRepairedWithoutLosingPosition(code: Int32) throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 200), .fail(code), .accept(frames: 100), .fail(code)]
        script.suspendedRecoveries = 2  // ESTRPIPE only: "still suspended" twice before it resumes
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, _) = try playToEnd(device, timer: timer, loops: 2)

        #expect(device.sessions == [copies(2)])
        #expect(report.passes == 2)
        #expect(report.underruns == (code == EINTR ? 0 : 2))
        #expect(report.lastError == nil)
        #expect(device.calls.filter { $0 == .open } == [.open], "recovered without reopening")
        if code == ESTRPIPE {
            #expect(timer.sleeps == [.milliseconds(50), .milliseconds(50)])
        }
    }

    /// A device that fails again right after every successful recovery must not be retried in a
    /// tight loop (the thread may run at SCHED_FIFO): each retry waits longer, 1 ms doubling to
    /// 100 ms, and a write that goes through resets that.
    @Test(arguments: [EPIPE, ESTRPIPE, EINTR])
    func writeFailingAgainRightAfterRecoveryBacksOffInsteadOfSpinning(code: Int32) throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes =
            [.accept(frames: 200)] + Array(repeating: .fail(code), count: 10) + [.accept(frames: 100), .fail(code)]
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, _) = try playToEnd(device, timer: timer, loops: 1)

        // The first failure is repaired and retried at once; each that follows a repair waits.
        #expect(timer.sleeps == [1, 2, 4, 8, 16, 32, 64, 100, 100].map { .milliseconds($0) })
        #expect(device.calls.filter { $0 == .recover(code) }.count == 11)
        #expect(device.sessions == [copies(1)])
        #expect(report.underruns == (code == EINTR ? 0 : 11))
        #expect(report.lastError == nil)
    }

    /// -EPIPE, then -ENODEV, then two failed opens, then a working device.
    @Test func lostDeviceIsReopenedWithBackoffAndEventsComeInOrder() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 200), .fail(EPIPE), .accept(frames: 100), .fail(ENODEV)]
        script.opens = [nil, ENOENT, ENOENT]
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, events) = try playToEnd(device, timer: timer, loops: 1)

        let lost = AlarmError.deviceLost(device: "fake", reason: errorText(ENODEV))
        let unavailable = AlarmError.deviceUnavailable(device: "fake", reason: errorText(ENOENT))
        let firstFrameAt = try #require(report.firstFrameAt)
        #expect(
            events == [
                .firstFrame(at: firstFrameAt), .deviceUnavailable(lost), .deviceUnavailable(unavailable),
                .deviceUnavailable(unavailable), .deviceRecovered(device: "fake"), .finished(report),
            ])
        #expect(timer.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(
            device.calls.filter { [.open, .openFailed, .close].contains($0) } == [
                .open, .close, .openFailed, .openFailed, .open, .close,
            ])
        // The interrupted pass is replayed from its start on the new device.
        #expect(device.sessions.count == 2)
        #expect(device.sessions.first == Array(Self.sound.samples.prefix(600)))
        #expect(device.sessions.last == copies(1))
        #expect(report.passes == 1)
        #expect(report.underruns == 1)
        #expect(report.framesWritten == 300 + 1000)
        #expect(report.lastError == unavailable)
    }

    @Test func backoffDoublesUpToOneSecondWhileNoDeviceOpens() throws {
        let timer = FakeTimer(sleepsBeforeParking: 8)
        var script = FakeDevice.State()
        script.opens = Array(repeating: ENOENT, count: 9)
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, events) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: 3)

        #expect(timer.sleeps == [100, 200, 400, 800, 1000, 1000, 1000, 1000].map { .milliseconds($0) })
        let unavailable = AlarmError.deviceUnavailable(device: "fake", reason: errorText(ENOENT))
        #expect(events == Array(repeating: .deviceUnavailable(unavailable), count: 9))
        #expect(device.calls == Array(repeating: .openFailed, count: 9))
        #expect(report == AlarmPlayer.Report(stoppedAt: report.stoppedAt, lastError: unavailable))
        #expect(report.stoppedAt != nil)
    }

    /// A device that opens but fails every write (-EIO) is retried with growing backoff; it never
    /// played, so there is no first frame and no recovery.
    @Test func deviceThatOpensButFailsEveryWriteIsRetriedEverMoreSlowly() throws {
        let timer = FakeTimer(sleepsBeforeParking: 7)
        var script = FakeDevice.State()
        script.afterScript = .fail(EIO)
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, events) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: nil)

        let lost = AlarmError.deviceLost(device: "fake", reason: errorText(EIO))
        #expect(timer.sleeps == [100, 200, 400, 800, 1000, 1000, 1000].map { .milliseconds($0) })
        #expect(events == Array(repeating: .deviceUnavailable(lost), count: 8))
        #expect(
            device.calls == Array([[FakeDevice.Call]](repeating: [.open, .failed(EIO), .close], count: 8).joined()))
        #expect(report == AlarmPlayer.Report(stoppedAt: report.stoppedAt, lastError: lost))
    }

    /// A device that accepts one buffer per open and then fails never counts as recovered.
    ///
    /// Like alsa-lib's `file` plugin when it cannot write its file: every open accepts up to one
    /// buffer and the next write fails. Nothing proves the device plays, so there is no recovery
    /// event, and the backoff keeps growing to its cap instead of flapping at 10 Hz.
    @Test(
        arguments: [
            [.accept(frames: 256), .fail(EIO)],
            [.accept(frames: 100), .accept(frames: 100), .accept(frames: 56), .fail(EIO)],
        ] as [[FakeDevice.WriteStep]])
    func deviceThatTakesOneBufferThenFailsNeverCountsAsRecovered(session: [FakeDevice.WriteStep]) throws {
        let timer = FakeTimer(sleepsBeforeParking: 7)
        var script = FakeDevice.State()
        script.sessionWrites = Array(repeating: session, count: 8)
        let device = FakeDevice(channels: 2, bufferFrames: 256, timer: timer, state: script)
        let startAt = timer.now()
        let (report, events) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: nil)

        let lost = AlarmError.deviceLost(device: "fake", reason: errorText(EIO))
        #expect(timer.sleeps == [100, 200, 400, 800, 1000, 1000, 1000].map { .milliseconds($0) })
        #expect(events == [.firstFrame(at: startAt)] + Array(repeating: .deviceUnavailable(lost), count: 8))
        #expect(report.framesWritten == 8 * 256)
        #expect(device.sessions.count == 8)
        #expect(device.sessions.allSatisfy { $0 == Array(Self.sound.samples.prefix(2 * 256)) })
    }

    /// After a failure, `.deviceRecovered` waits until the new device has accepted more frames
    /// than its buffer holds (so some must have been played), not just its first write.
    @Test func reopenedDeviceCountsAsRecoveredOnlyOnceItHasTakenMoreThanItsBuffer() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.sessionWrites = [[.accept(frames: 256), .fail(EIO)], [.accept(frames: 256), .fail(EIO)]]
        let device = FakeDevice(channels: 2, bufferFrames: 256, timer: timer, state: script)
        let marks = FrameMarks()
        let player = AlarmPlayer(
            sound: Self.sound, device: "fake", timer: timer,
            onEvent: { event in
                if event == .deviceRecovered(device: "fake") {
                    marks.record(device.sessions.last.map { $0.count / 2 } ?? 0)
                }
            },
            open: { () throws(ALSAError) in try device.open() })
        let driver = PlayerDriver(player, now: timer.now)

        driver.start(at: timer.now(), loops: 1)
        let report = try #require(driver.waitForReport())

        let lost = AlarmError.deviceLost(device: "fake", reason: errorText(EIO))
        let firstFrameAt = try #require(report.firstFrameAt)
        #expect(
            driver.events == [
                .firstFrame(at: firstFrameAt), .deviceUnavailable(lost), .deviceUnavailable(lost),
                .deviceRecovered(device: "fake"),
                .finished(report),
            ])
        #expect(marks.all == [512], "recovered after the second write of 256 frames, not the first")
        #expect(timer.sleeps == [.milliseconds(100), .milliseconds(200)])
        #expect(device.sessions.last == copies(1))
    }

    /// The backoff starts again from 100 ms only after a device has played 1 s (the longest delay,
    /// `AlarmPlayer.retryLimit`) beyond its buffer; one that fails sooner, recovered or not, is
    /// retried more slowly each time.
    @Test func backoffResetsOnlyAfterADeviceHasPlayedOneSecondBeyondItsBuffer() throws {
        let timer = FakeTimer(sleepsBeforeParking: 5)
        var script = FakeDevice.State()
        script.opens = [ENOENT, ENOENT]
        script.sessionWrites = [
            Array(repeating: .accept(frames: 256), count: 5) + [.fail(EIO)],  // 1280 frames ≥ 256 + 1000
            [.accept(frames: 256), .accept(frames: 256), .fail(EIO)],  // recovered, but not for long
            [.fail(EIO)],
            [.fail(EIO)],
        ]
        let device = FakeDevice(channels: 2, bufferFrames: 256, timer: timer, state: script)
        let (report, events) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: 100)

        #expect(timer.sleeps == [100, 200, 100, 200, 400].map { .milliseconds($0) })
        let unavailable = AlarmError.deviceUnavailable(device: "fake", reason: errorText(ENOENT))
        let lost = AlarmError.deviceLost(device: "fake", reason: errorText(EIO))
        let firstFrameAt = try #require(report.firstFrameAt)
        #expect(
            events == [
                .deviceUnavailable(unavailable), .deviceUnavailable(unavailable), .firstFrame(at: firstFrameAt),
                .deviceRecovered(device: "fake"), .deviceUnavailable(lost), .deviceRecovered(device: "fake"),
                .deviceUnavailable(lost),
                .deviceUnavailable(lost), .deviceUnavailable(lost),
            ])
    }

    /// The real thing, with real alsa-lib and a fake clock.
    ///
    /// alsa-lib's `file` plugin opens a file it cannot create, accepts the first buffer and fails
    /// (-EIO) on the next write, on every open.
    @Test func realFileDeviceThatCannotWriteItsFileBacksOffWithoutEverRecovering() throws {
        silenceAudioLibraryMessages()
        let name = "file:'/nonexistent/eggtimer-test.raw',raw"
        let sound = AlarmSound.builtInTone()
        let timer = FakeTimer(sleepsBeforeParking: 6)
        let player = AlarmPlayer(sound: sound, device: name, timer: timer) { () throws(ALSAError) in
            try PCMPlayback(
                device: name, sampleRate: sound.sampleRate, channels: sound.channels, latency: .milliseconds(100))
        }
        let startAt = timer.now()

        let (report, events) = try playUntilParkedThenStop(
            PlayerDriver(player, now: timer.now), timer: timer, loops: nil, startAt: startAt)

        let lost = AlarmError.deviceLost(device: name, reason: errorText(EIO))
        #expect(timer.sleeps == [100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) })
        #expect(events == [.firstFrame(at: startAt)] + Array(repeating: .deviceUnavailable(lost), count: 7))
        #expect(!events.contains(.deviceRecovered(device: "fake")))
        #expect(report.lastError == lost)
        #expect(!TestFiles.exists("/nonexistent/eggtimer-test.raw"))
    }

    /// The device never has room; a stop must not wait for the poll to time out (500 ms).
    @Test func stopWhileBlockedOnAFullDeviceReturnsPromptlyAndDrops() throws {
        let device = FakeDevice(
            channels: 2,
            state: {
                var s = FakeDevice.State()
                s.afterScript = .wouldBlock
                return s
            }()
        ) {
            $0 == .wouldBlock
        }
        let driver = PlayerDriver(player(device, timer: SystemPlaybackTimer()), now: { .now })

        driver.start(at: .now, loops: nil)
        try #require(device.waitForSignals())
        let stopCalled = ContinuousClock.now
        let report = try #require(driver.stopAndWait())

        let stoppedAt = try #require(report.stoppedAt)
        #expect(stopCalled.duration(to: stoppedAt) < .milliseconds(250))
        #expect(!report.everPlayed)
        #expect(Array(device.calls.suffix(2)) == [.drop, .close])
    }

    @Test func stopDuringDrainDropsAndSendsNoFinishedEvent() throws {
        let timer = FakeTimer(sleepsBeforeParking: 3)
        var script = FakeDevice.State()
        script.pendingDrains = .max
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let (report, events) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: 1)

        #expect(report.passes == 1)
        #expect(report.stoppedAt != nil)
        #expect(timer.sleeps == [.milliseconds(20), .milliseconds(20), .milliseconds(20)])
        #expect(Array(device.calls.suffix(6)) == [.drain, .drain, .drain, .drain, .drop, .close])
        #expect(events == [.firstFrame(at: try #require(report.firstFrameAt))])
    }

    /// A device whose drain never ends (a server that stopped playing) keeps a finished ringing
    /// open only for its buffer time plus the margin; then the close cuts what is left.
    @Test func drainThatNeverEndsIsGivenUpAfterTheBufferTimeAndMargin() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.pendingDrains = .max
        let device = FakeDevice(channels: 2, bufferFrames: 256, timer: timer, state: script)
        let (report, _) = try playToEnd(device, timer: timer, loops: 1)

        let bufferTime = Duration.milliseconds(256)  // 256 frames at 1000 Hz
        let slept = timer.sleeps.reduce(Duration.zero, +)
        #expect(slept == bufferTime + PlaybackLoop<FakeTimer>.drainMargin)
        #expect(timer.sleeps.allSatisfy { $0 <= .milliseconds(50) }, "short sleeps, so a stop is seen at once")
        #expect(report.passes == 1)
        #expect(report.stoppedAt == nil)
        #expect(report.lastError == nil)
        #expect(Array(device.calls.suffix(2)) == [.drain, .close])
        #expect(!device.calls.contains(.drop))
    }

    @Test func opensAtOnceButWritesTheFirstFrameExactlyAtTheStartInstant() throws {
        let timer = FakeTimer()
        let device = FakeDevice(channels: 2, timer: timer)
        let driver = driver(device, timer: timer)
        let startAt = timer.now() + .seconds(5)

        driver.start(at: startAt, loops: 1)
        let report = try #require(driver.waitForReport())

        #expect(device.calls.first == .open)
        #expect(timer.sleeps == [.seconds(5)])
        #expect(report.firstFrameAt == startAt)
    }

    /// With no loop count on a device that never blocks (like `null`), the loop sleeps so that it is
    /// never more than two buffers ahead of real time.
    @Test func ringingUntilStoppedOnANonPacingDeviceStaysWithinTwoBuffersOfRealTime() throws {
        let timer = FakeTimer(sleepsBeforeParking: 40)
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer)
        let (report, _) = try playUntilParkedThenStop(driver(device, timer: timer), timer: timer, loops: nil)

        let times = device.state.withLock { $0.writeTimes }
        let first = try #require(times.first)
        #expect(first.totalFrames == 100)
        for write in times {
            // At 1000 Hz a frame is a millisecond: two buffers of 100 frames are 200 ms.
            let ahead = Duration.milliseconds(write.totalFrames) - first.at.duration(to: write.at)
            #expect(ahead <= .milliseconds(200 + 100), "wrote \(write.totalFrames) frames by \(write.at)")
        }
        // Two buffers go out at once, then one per 100 ms of (fake) time.
        #expect(timer.sleeps == Array(repeating: .milliseconds(100), count: 40))
        #expect(report.framesWritten == 100 * (2 + 40))
        #expect(report.passes == 4)
    }

    /// Releasing the player asks its thread to stop without waiting for it; the thread then drops
    /// and closes the device on its own.
    @Test func releasingARunningPlayerStopsItsThreadAndClosesTheDevice() throws {
        let timer = FakeTimer(sleepsBeforeParking: 2)
        let device = FakeDevice(channels: 2, timer: timer) { $0 == .close }
        do {
            let player = player(device, timer: timer)
            player.start(at: timer.now(), loops: nil, now: timer.now())
            try #require(timer.parked.wait())
            #expect(player.isRunning)
        }
        try #require(device.waitForSignals())
        #expect(Array(device.calls.suffix(2)) == [.drop, .close])
    }

    @Test func aStoppedPlayerCanBeStartedAgain() throws {
        let timer = FakeTimer()
        let device = FakeDevice(channels: 2, timer: timer)
        let driver = driver(device, timer: timer)

        for _ in 0..<2 {
            driver.start(at: timer.now(), loops: 1)
            #expect(driver.waitForReport()?.passes == 1)
            #expect(!driver.player.isRunning)
        }
        #expect(device.sessions == [copies(1), copies(1)])
    }
}

/// Numbers noted from the playback thread, read by the test after the ringing ended.
private final class FrameMarks: Sendable {
    private let marks = Mutex<[Int]>([])
    var all: [Int] { marks.withLock { $0 } }
    func record(_ frames: Int) { marks.withLock { $0.append(frames) } }
}
