import Glibc
import Testing

@testable import AlarmAudio

/// A device call that never returns must not freeze the player's owner.
///
/// Stop returns at once, the ringing is declared hung after `AlarmPlayer.answerLimit`, and the abandoned thread never plays
/// again. (A call that blocks while ringing, with no stop asked, is a stall: StallRetryTests.) Driven with fake devices that block until the test releases them, and a fake clock, so
/// every instant is exact.
@Suite struct HungDeviceTests {
    static let sound = AlarmSound(samples: (0..<2000).map { Int16($0 - 1000) }, sampleRate: 1000, channels: 2)
    static let limit = AlarmPlayer.answerLimit

    private func player(_ device: FakeDevice, timer: FakeTimer) -> AlarmPlayer {
        AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in try device.open() }
    }

    private static func isWrite(_ call: FakeDevice.Call) -> Bool {
        if case .write = call { true } else { false }
    }

    /// Where the device blocks, the call named in the error, and what the abandoned thread does to
    /// the device once released: it finishes the call in flight, then drops (if open) and closes.
    struct Case: Sendable, CustomTestStringConvertible {
        let point: FakeDevice.BlockPoint
        let call: String
        let loops: Int?
        let afterRelease: [FakeDevice.Call]
        var testDescription: String { call }
    }

    static let cases = [
        Case(point: .open, call: "snd_pcm_open", loops: nil, afterRelease: [.open, .drop, .close]),
        Case(point: .write, call: "snd_pcm_writei", loops: nil, afterRelease: [.write(frames: 256), .drop, .close]),
        Case(point: .drain, call: "snd_pcm_drain", loops: 1, afterRelease: [.drain, .close]),
    ]

    @Test(arguments: cases)
    func stopOfAThreadBlockedInADeviceCallReturnsAtOnceAndEndsHungAfterTheLimit(_ scenario: Case) throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.blockAt = scenario.point
        let device = FakeDevice(channels: 2, timer: timer, state: script) { $0 == .close }
        let player = player(device, timer: timer)
        let t0 = timer.now()

        player.start(at: t0, loops: scenario.loops, now: t0)
        try #require(device.blocked.wait())
        let callsWhenBlocked = device.calls.count
        let stopCalled = ContinuousClock.now
        player.stop(at: t0)
        #expect(stopCalled.duration(to: .now) < .milliseconds(100), "stop waited for the thread")

        #expect(player.nextCheck == t0 + Self.limit)
        #expect(!player.events(at: t0 + Self.limit - .milliseconds(1)).contains { $0.endsRinging })
        #expect(player.isRunning)
        let hung = AlarmError.deviceHung(device: "fake", call: scenario.call)
        #expect(player.events(at: t0 + Self.limit + .milliseconds(1)) == [.hung(hung)])
        #expect(!player.isRunning)
        #expect(player.nextCheck == nil)

        device.release()
        try #require(device.waitForSignals(), "the abandoned thread never closed the device")
        #expect(Array(device.calls.dropFirst(callsWhenBlocked)) == scenario.afterRelease)
        // Its ending (and anything else it posts) is dropped.
        var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1, "the abandoned thread never posted its ending")
        #expect(player.events(at: t0 + .seconds(1)).isEmpty)

        // The player still works: a new ringing on the (now unblocked) device plays and reports.
        let driver = PlayerDriver(player, now: timer.now)
        driver.start(at: timer.now(), loops: 1)
        let report = try #require(driver.waitForReport())
        #expect(report.passes == 1)
        #expect(driver.events == [.firstFrame(at: try #require(report.firstFrameAt)), .finished(report)])
        #expect(device.sessions.last == Self.sound.samples)
    }

    /// A new start while a thread is blocked does not wait for it: the old ringing ends silently
    /// (its events are dropped), the new one plays on its own thread.
    @Test func startWhileAThreadIsBlockedReplacesItWithoutWaiting() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.blockAt = .write
        let device = FakeDevice(channels: 2, timer: timer, state: script) { $0 == .close }
        let driver = PlayerDriver(player(device, timer: timer), now: timer.now)

        driver.start(at: timer.now(), loops: nil)
        try #require(device.blocked.wait())
        driver.start(at: timer.now(), loops: 1)
        let report = try #require(driver.waitForReport())
        try #require(device.waitForSignals())  // the new ringing closed its device

        #expect(driver.events == [.firstFrame(at: try #require(report.firstFrameAt)), .finished(report)])
        #expect(device.sessions == [[], Self.sound.samples])
        device.release()
        try #require(device.waitForSignals())  // the old thread finished its write, dropped and closed
        #expect(device.sessions[0].count == 2 * 256, "the old thread wrote only the frames in flight")
        var ready = pollfd(fd: driver.player.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1)
        #expect(driver.poll().isEmpty, "the replaced ringing's events are dropped")
        #expect(driver.longestCall < .milliseconds(100))
    }

    /// Waiting for the start instant (or in a backoff) is not a hang, however long it lasts.
    ///
    /// It is not a device call. Meanwhile the owner is asked to look every `answerLimit`.
    @Test func aLongWaitForTheStartInstantIsNotAHang() throws {
        let timer = FakeTimer(sleepsBeforeParking: 0)
        let device = FakeDevice(channels: 2, timer: timer)
        let driver = PlayerDriver(player(device, timer: timer), now: timer.now)
        let t0 = timer.now()

        driver.start(at: t0 + .seconds(60), loops: 1)
        try #require(timer.parked.wait())  // opened, now waiting for the start instant
        #expect(driver.player.events(at: t0 + .seconds(30)).isEmpty)
        #expect(driver.player.isRunning)
        #expect(driver.player.nextCheck == t0 + .seconds(30) + Self.limit)

        let report = try #require(driver.stopAndWait())
        #expect(report.framesWritten == 0)
        #expect(device.calls == [.open, .drop, .close])
    }

    @Test func descriptorIsCloseOnExecAndNonBlocking() {
        let player = AlarmPlayer(sound: Self.sound, device: "null")
        #expect(player.descriptor >= 0)
        #expect(fcntl(player.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(player.descriptor, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func hungErrorReadsAsOneLineNamingTheCall() {
        let error = AlarmError.deviceHung(device: "bluealsa", call: "snd_pcm_writei")
        #expect(
            error.description
                == "audio device 'bluealsa' did not answer within 500 ms (snd_pcm_writei); it looks stalled")
    }
}
