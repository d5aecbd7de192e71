import Dispatch
import Glibc
import SystemKit
import Testing

@testable import AlarmAudio

/// A device that stalls while the alarm rings (no stop asked) is tried again for as long as it
/// rings, and played again when it answers (issue 37): with fake devices that block until the
/// test releases them, and instants the test passes in, so every deadline is exact.
@Suite struct StallRetryTests {
    static let sound = AlarmSound(samples: (0..<2000).map { Int16($0 - 1000) }, sampleRate: 1000, channels: 2)
    static let limit = AlarmPlayer.answerLimit

    /// A write that blocks mid-ring gives `.stalled` (not an ending) after the limit; a new try
    /// starts `stallRetry` later on a thread of its own, plays from the start of the sound, and
    /// says the device is back once it has played beyond its buffer; the ending's report keeps
    /// the ringing's first frame.
    @Test func aWriteThatStallsMidRingIsReportedAndTheDeviceIsPlayedAgain() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 100), .accept(frames: 100), .accept(frames: 100), .stall]
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script) { $0 == .close }
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let t0 = timer.now()

        player.start(at: t0, loops: 1, now: t0)
        try #require(device.blocked.wait())
        let blockedAt = timer.now()
        let firstEvents = player.events(at: blockedAt)
        let firstFrameAt = try #require(
            firstEvents.compactMap { if case .firstFrame(let at) = $0 { at } else { nil } }.first)

        let stallAt = blockedAt + Self.limit + .milliseconds(1)
        let stall = AlarmError.deviceHung(device: "fake", call: "snd_pcm_writei")
        #expect(player.events(at: stallAt) == [.stalled(stall)])
        #expect(player.isRunning, "a stall does not end the ringing")
        #expect(player.stuckThreads == 1)
        #expect(player.nextCheck == stallAt + AlarmPlayer.stallRetry)
        #expect(player.events(at: stallAt + AlarmPlayer.stallRetry - .milliseconds(1)).isEmpty)

        // The retry: a second thread opens the device and plays the one pass to its end.
        timer.advance(to: stallAt + AlarmPlayer.stallRetry)
        let driver = PlayerDriver(player, now: timer.now)
        driver.poll()
        let report = try #require(driver.waitForReport())
        #expect(driver.events == [.deviceRecovered(device: "fake"), .finished(report)])
        #expect(report.firstFrameAt == firstFrameAt, "the ringing's first frame, said once")
        #expect(report.lastError == stall)
        #expect(device.sessions.count == 2)
        #expect(device.sessions[1] == Self.sound.samples, "the retry plays the pass from its start")

        // The stuck thread, released, drops and closes without playing on; its place is freed.
        try #require(device.waitForSignals())  // the retry's close
        device.release()
        try #require(device.waitForSignals())  // the abandoned thread's close
        var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1)
        #expect(player.events(at: stallAt + .seconds(2)).isEmpty)
        #expect(player.stuckThreads == 0)
    }

    /// A try after a stall goes on at the loudness the fade-in had reached by then (real time
    /// since the ringing's first frame), not from the ramp's quiet start: a speaker that stalls
    /// more often than the ramp is long still reaches its volume (found by a tester).
    @Test func aTryAfterAStallGoesOnWithTheFadeInWhereItWas() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 100), .stall]
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script) { $0 == .close }
        let loudness = Loudness(volumePercent: 100, rampFrames: 2000)  // 2 s at 1000 Hz
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer, loudness: loudness) {
            () throws(ALSAError) in try device.open()
        }
        let t0 = timer.now()
        player.start(at: t0, loops: 1, now: t0)
        try #require(device.blocked.wait())
        _ = player.events(at: t0)  // its first frame, at t0
        #expect(
            player.events(at: t0 + Self.limit).contains(.stalled(.deviceHung(device: "fake", call: "snd_pcm_writei"))))
        let retryAt = t0 + Self.limit + AlarmPlayer.stallRetry  // 750 ms after the first frame
        timer.advance(to: retryAt)
        let driver = PlayerDriver(player, now: timer.now)
        _ = try #require(driver.waitForReport())
        let played = try #require(device.sessions.last)
        var expected = [Int16](repeating: 0, count: Self.sound.samples.count)
        Self.sound.samples.withUnsafeBufferPointer { samples in
            expected.withUnsafeMutableBufferPointer { output in
                loudness.apply(samples, channels: 2, firstFrame: 750, into: output)
            }
        }
        #expect(played == expected, "the retry's pass at the ramp's frame 750, not frame 0")
        device.release()
        #expect(device.waitForSignals(2))
    }

    /// A device whose every open blocks is tried every `answerLimit` + `stallRetry`.
    ///
    /// Until `stuckThreadLimit` threads are stuck; then no more threads are started until one
    /// returns, and the next try starts as soon as one does.
    @Test func triesOfADeviceThatStaysStalledAreBoundedAndResumeWhenItAnswers() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.blockEveryOpen = true
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script) { $0 == .close }
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let t0 = timer.now()
        let stall = AlarmError.deviceHung(device: "fake", call: "snd_pcm_open")

        player.start(at: t0, loops: 1, now: t0)
        var now = t0
        var tries: [ContinuousClock.Instant] = []
        for attempt in 1...AlarmPlayer.stuckThreadLimit {
            try #require(device.entered.wait(timeout: .now() + 30) == .success, "try \(attempt) never opened")
            tries.append(now)
            now = now + Self.limit  // stalled exactly at the limit, not before
            #expect(player.events(at: now - .milliseconds(1)).isEmpty, "try \(attempt)")
            #expect(player.events(at: now) == [.stalled(stall)], "try \(attempt)")
            #expect(player.stuckThreads == attempt)
            if attempt < AlarmPlayer.stuckThreadLimit {
                #expect(player.nextCheck == now + AlarmPlayer.stallRetry)
                now = now + AlarmPlayer.stallRetry
                timer.advance(to: now)
                #expect(player.events(at: now).isEmpty)  // starts the next try
            }
        }
        #expect(zip(tries, tries.dropFirst()).allSatisfy { $1 - $0 <= .seconds(1) }, "tries \(tries)")
        // At the bound: no further try, and nothing to wake for but a stuck thread's return.
        now = now + AlarmPlayer.stallRetry
        timer.advance(to: now)
        #expect(player.events(at: now).isEmpty)
        #expect(player.nextCheck == nil)
        #expect(player.stuckThreads == AlarmPlayer.stuckThreadLimit)
        #expect(player.isRunning)

        // The device answers: the stuck opens return, each thread closes, and a new try plays.
        device.state.withLock { $0.blockEveryOpen = false }
        for _ in 1...AlarmPlayer.stuckThreadLimit { device.release() }
        let driver = PlayerDriver(player, now: timer.now)
        let report = try #require(driver.waitForReport())
        #expect(
            driver.events == [
                .firstFrame(at: try #require(report.firstFrameAt)), .deviceRecovered(device: "fake"), .finished(report),
            ])
        // The stuck threads' opens returned too, but they played nothing: one session holds the pass.
        #expect(device.sessions.filter { !$0.isEmpty }.count == 1)
        #expect(device.sessions.contains(Self.sound.samples))
    }

    /// A device that stops making room for audio (a sound server stopped with SIGSTOP) stalls the
    /// alarm without any call blocking: after `answerLimit` with no frame taken it is a stall too,
    /// its thread (only waiting in poll) leaves at once, and a new try plays.
    @Test func aDeviceThatMakesNoRoomForAudioIsAStallToo() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.sessionWrites = [[.accept(frames: 100)] + Array(repeating: .wouldBlock, count: 10_000), []]
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script) { $0 == .wouldBlock }
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let t0 = timer.now()
        player.start(at: t0, loops: 1, now: t0)
        try #require(device.waitForSignals())  // the first write that found no room
        #expect(
            !player.events(at: t0 + Self.limit - .milliseconds(1)).contains {
                if case .stalled = $0 { true } else { false }
            })
        #expect(player.nextCheck == t0 + Self.limit)
        // The thread waits in poll (not a device call), so the stall is its starving; only on a
        // machine so loaded that this look lands inside one of its retried writes, which the fake
        // clock stamps at t0 too, is that write named instead.
        let stalls = ["snd_pcm_wait", "snd_pcm_writei"].map { AlarmError.deviceHung(device: "fake", call: $0) }
        let events = player.events(at: t0 + Self.limit)
        #expect(events.count == 1 && stalls.contains { events.first == .stalled($0) }, "\(events)")
        timer.advance(to: t0 + Self.limit + AlarmPlayer.stallRetry)
        let driver = PlayerDriver(player, now: timer.now)
        let report = try #require(driver.waitForReport())
        #expect(driver.events == [.deviceRecovered(device: "fake"), .finished(report)])
        #expect(device.sessions.last == Self.sound.samples)
        #expect(Self.waitUntilNoneIsStuck(player), "the waiting thread never left")
    }

    /// Takes the player's events until no abandoned thread is stuck; `false` after 30 s.
    static func waitUntilNoneIsStuck(_ player: AlarmPlayer) -> Bool {
        let giveUp = ContinuousClock.now + .seconds(30)
        while player.stuckThreads > 0, ContinuousClock.now < giveUp {
            var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
            _ = player.events(at: .now)
        }
        return player.stuckThreads == 0
    }

    /// With a fallback device, a stall moves the ringing to it at once; the next ringing starts on
    /// the first device again.
    @Test func aStallMovesTheRingingToTheFallbackDevice() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.writes = [.accept(frames: 100), .stall]
        let main = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script)
        let fallback = FakeDevice(channels: 2, bufferFrames: 100, timer: timer) { $0 == .close }
        let player = AlarmPlayer(sound: Self.sound, devices: ["main", "spare"], timer: timer) {
            (index: Int) throws(ALSAError) in try (index == 0 ? main : fallback).open()
        }
        let t0 = timer.now()

        player.start(at: t0, loops: 1, now: t0)
        try #require(main.blocked.wait())
        let stallAt = timer.now() + Self.limit
        #expect(player.events(at: stallAt).contains(.stalled(.deviceHung(device: "main", call: "snd_pcm_writei"))))
        timer.advance(to: stallAt + AlarmPlayer.stallRetry)
        let driver = PlayerDriver(player, now: timer.now)
        let report = try #require(driver.waitForReport())
        #expect(driver.events == [.deviceRecovered(device: "spare"), .finished(report)])
        #expect(fallback.sessions == [Self.sound.samples])
        main.release()

        // The next ringing tries the first device again (it answers now).
        driver.start(at: timer.now(), loops: 1)
        let again = try #require(driver.waitForReport())
        #expect(again.passes == 1)
        #expect(main.sessions.last == Self.sound.samples)
        #expect(fallback.sessions.count == 1)
    }

    /// With a fallback device, one that cannot be opened gives way to the fallback at once, with
    /// no backoff wait; the failure is still reported, naming the device.
    @Test func aDeviceThatCannotBeOpenedGivesWayToTheFallbackAtOnce() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.opens = [ENOENT]
        let main = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script)
        let fallback = FakeDevice(channels: 2, bufferFrames: 100, timer: timer)
        let player = AlarmPlayer(sound: Self.sound, devices: ["main", "spare"], timer: timer) {
            (index: Int) throws(ALSAError) in try (index == 0 ? main : fallback).open()
        }
        let driver = PlayerDriver(player, now: timer.now)
        driver.start(at: timer.now(), loops: 1)
        let report = try #require(driver.waitForReport())
        let missing = AlarmError.deviceUnavailable(device: "main", reason: errorText(ENOENT))
        #expect(
            driver.events == [
                .deviceUnavailable(missing), .firstFrame(at: try #require(report.firstFrameAt)),
                .deviceRecovered(device: "spare"), .finished(report),
            ])
        #expect(timer.sleeps.isEmpty, "no backoff before the fallback")
        #expect(fallback.sessions == [Self.sound.samples])
    }

    /// A stop while waiting to try a stalled device again ends the ringing at once.
    @Test func aStopBetweenTriesEndsTheRingingAtOnce() throws {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.blockAt = .write
        let device = FakeDevice(channels: 2, bufferFrames: 100, timer: timer, state: script) { $0 == .close }
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let t0 = timer.now()
        player.start(at: t0, loops: nil, now: t0)
        try #require(device.blocked.wait())
        let stallAt = timer.now() + Self.limit
        #expect(player.events(at: stallAt).contains { if case .stalled = $0 { true } else { false } })
        player.stop(at: stallAt + .milliseconds(10))
        let events = player.events(at: stallAt + .milliseconds(10))
        guard case .stopped(let report)? = events.last else {
            Issue.record("expected .stopped, got \(events)")
            return
        }
        #expect(report.stoppedAt == stallAt + .milliseconds(10))
        #expect(!player.isRunning)
        device.release()
        #expect(device.waitForSignals())
    }
}
