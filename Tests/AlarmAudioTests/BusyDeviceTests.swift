import Glibc
import SystemKit
import Testing

@testable import AlarmAudio

/// A device another process holds is waited for, and played from the start once got.
///
/// The open answers `EBUSY`, as a `hw:` device does while another timer rings on it: it is asked
/// again every ``AlarmPlayer/busyRetry`` without backoff and reported once. Fake device, fake
/// clock: no waiting.
@Suite struct BusyDeviceTests {
    /// 1000 stereo frames whose samples are all different, so any lost or repeated frame shows.
    static let sound = AlarmSound(samples: (0..<2000).map { Int16($0 - 1000) }, sampleRate: 1000, channels: 2)

    /// Plays one pass on a device whose opens go as `opens` says; waits for `.finished`.
    /// - Returns: The fake device, the sleeps the loop took, and every event, `.finished` included.
    private func playOnePass(opens: [Int32?]) throws -> (FakeDevice, [Duration], [AlarmPlayer.Event]) {
        let timer = FakeTimer()
        var script = FakeDevice.State()
        script.opens = opens
        let device = FakeDevice(channels: 2, timer: timer, state: script)
        let player = AlarmPlayer(sound: Self.sound, device: "fake", timer: timer) { () throws(ALSAError) in
            try device.open()
        }
        let driver = PlayerDriver(player, now: timer.now)
        driver.start(at: timer.now(), loops: 1)
        let end = try #require(driver.waitForEnd())
        guard case .finished = end else { throw Failure("expected .finished, got \(end)") }
        return (device, timer.sleeps, driver.events)
    }

    @Test func aBusyDeviceIsAskedAgainEvery200msReportedOnceAndPlayedFromTheStart() throws {
        let (device, sleeps, events) = try playOnePass(opens: Array(repeating: EBUSY, count: 12))

        #expect(sleeps == Array(repeating: AlarmPlayer.busyRetry, count: 12), "no backoff: \(sleeps)")
        #expect(AlarmPlayer.busyRetry == .milliseconds(200))
        let busy = AlarmError.deviceBusy(device: "fake")
        #expect(events.filter { $0 == .deviceUnavailable(busy) }.count == 1, "\(events)")
        guard case .deviceUnavailable(busy) = events.first else {
            Issue.record("first event: \(String(describing: events.first))")
            return
        }
        #expect(events.contains(.deviceRecovered(device: "fake")))
        #expect(device.sessions == [Self.sound.samples], "the whole pass, from its first frame")
        #expect(device.calls.filter { $0 == .openFailed }.count == 12)
    }

    /// Busy attempts leave the failure backoff where it was, and each change of problem is news.
    @Test func busyAttemptsNeitherGrowNorResetTheBackoffOfAFailingDevice() throws {
        let (_, sleeps, events) = try playOnePass(opens: [ENOENT, ENOENT, EBUSY, EBUSY, ENOENT])

        // 100 and 200 ms for the failures, 200 ms for each busy attempt, then the failures' 400 ms.
        #expect(sleeps == [100, 200, 200, 200, 400].map { .milliseconds($0) })
        let missing = AlarmError.deviceUnavailable(device: "fake", reason: errorText(ENOENT))
        let busy = AlarmError.deviceBusy(device: "fake")
        let failures = events.compactMap { event -> AlarmError? in
            if case .deviceUnavailable(let error) = event { error } else { nil }
        }
        #expect(failures == [missing, missing, busy, missing])
    }

    @Test func theBusyErrorNamesTheDeviceAndSaysTheAlarmWaits() {
        #expect(
            "\(AlarmError.deviceBusy(device: "plughw:CARD=Headphones"))"
                == "audio device 'plughw:CARD=Headphones' is busy (another alarm or program has it open); waiting for it"
        )
    }
}
