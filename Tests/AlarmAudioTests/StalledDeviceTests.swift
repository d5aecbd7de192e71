import Glibc
import Testing

@testable import AlarmAudio

/// Real alsa-lib devices that stop answering: ALSA's `file` plugin writing into a FIFO.
///
/// Its `write(2)` blocks whatever the PCM's non-blocking flag says, so a FIFO with no reader blocks
/// the open (in `snd_pcm_set_params`), and one whose reader stops reading blocks the writes, the
/// drop or the close, just as a stalled sound server would.
@Suite struct StalledDeviceTests {
    init() { silenceAudioLibraryMessages() }

    @Test func probeOfADeviceWhoseOpenBlocksGivesUpAfterTheLimit() throws {
        let fifo = Fifo()
        let limit = Duration.milliseconds(200)
        let before = ContinuousClock.now

        let error = #expect(throws: AlarmError.self) {
            try AlarmPlayer.probe(device: fifo.deviceName, sound: AlarmSound.builtInTone(), limit: limit)
        }
        let waited = before.duration(to: .now)

        #expect(error == .deviceHung(device: fifo.deviceName, call: "snd_pcm_open"))
        #expect(waited >= limit)
        #expect(waited < limit + .seconds(2), "probe waited \(waited)")
        // A reader lets the abandoned open go on; the helper then closes the PCM, which ends the FIFO.
        fifo.openReader()
        #expect(fifo.drainToEndOfFile(timeout: .seconds(30)), "the abandoned probe thread never closed the device")
    }

    /// A ringing into a FIFO whose reader stops reading ends hung, and no player call blocks.
    ///
    /// The reader takes what arrives, then stops reading; once the pipe is full the playback
    /// thread blocks for good (in a write, or in the drop or close that flush the plugin's held-back
    /// buffer). A stop then returns at once, and the ringing ends `.hung` after the limit, while
    /// no call on the player ever blocks.
    @Test func ringingIntoAFifoNobodyReadsEndsHungWithoutBlockingTheOwner() throws {
        let fifo = Fifo()
        fifo.openReader()
        let capacity = fifo.shrink()
        try #require(capacity > 0, "cannot size the pipe")
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: fifo.deviceName)
        let driver = PlayerDriver(player, now: { .now })

        driver.start(at: .now, loops: nil)
        try #require(fifo.waitReadable(timeout: .seconds(30)), "nothing reached the FIFO")
        let firstRead = try #require(fifo.readWaiting(), "the writer closed the FIFO")
        #expect(firstRead > 0)
        // From here nobody reads: wait (in poll, taking the player's events) until the pipe is full.
        let giveUp = ContinuousClock.now + .seconds(30)
        while fifo.bytesWaiting() < capacity, !driver.events.contains(where: { $0.endsRinging }) {
            try #require(ContinuousClock.now < giveUp, "the pipe never filled: \(fifo.bytesWaiting()) bytes")
            var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 5)
            driver.poll()
        }
        // (On a machine too busy to look within the limit, the ringing may already be over: hung
        // in the write, with no stop asked. Then there is nothing to stop.)
        let stopCalled = ContinuousClock.now
        if !driver.events.contains(where: { $0.endsRinging }) {
            driver.stop()
            _ = driver.waitForEnd()
        }
        let ended = ContinuousClock.now
        let end = try #require(driver.events.last)

        guard case .hung(.deviceHung(let device, let call)) = end else {
            Issue.record("expected .hung, got \(end)")
            _ = fifo.drainToEndOfFile(timeout: .seconds(30))
            return
        }
        #expect(device == fifo.deviceName)
        #expect(["snd_pcm_writei", "snd_pcm_drop", "snd_pcm_close"].contains(call))
        #expect(stopCalled.duration(to: ended) <= AlarmPlayer.answerLimit + .seconds(2))
        #expect(driver.longestCall < .milliseconds(100), "a player call blocked for \(driver.longestCall)")
        #expect(!player.isRunning)
        // Reading again lets the abandoned thread finish its call; it must then close, not play on.
        #expect(fifo.drainToEndOfFile(timeout: .seconds(30)), "the abandoned thread never closed the device")
        #expect(driver.poll().isEmpty)
    }

    /// A FIFO whose reader stops reading and comes back, three times in one ringing.
    ///
    /// Each stall is reported (not an ending), the device is tried again while it lasts, and
    /// playback resumes each time the reader returns (issue 37). Real alsa-lib, real threads, the
    /// real clock; every wait is for an event (the player's, or the pipe's), never a sleep.
    @Test func aFifoWhoseReaderStallsAndReturnsIsPlayedAgainEachTime() throws {
        let fifo = Fifo()
        fifo.openReader()
        try #require(fifo.shrink() > 0, "cannot size the pipe")
        let player = AlarmPlayer(sound: AlarmSound.builtInTone(), device: fifo.deviceName)
        let driver = PlayerDriver(player, now: { .now })
        var reading = true
        /// Takes events (and, while `reading`, the pipe's bytes) until `predicate` holds for an event.
        func pump(until predicate: (AlarmPlayer.Event) -> Bool) -> Bool {
            let giveUp = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < giveUp {
                var ready = [
                    pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: reading ? fifo.reader : -1, events: Int16(POLLIN), revents: 0),
                ]
                let wake = player.nextCheck.map { ContinuousClock.now.duration(to: $0) } ?? .milliseconds(100)
                _ = poll(&ready, 2, Int32(max(1, min(wake, .milliseconds(100)) / .milliseconds(1))))
                if reading { _ = fifo.readWaiting() }
                if driver.poll().contains(where: predicate) { return true }
            }
            return false
        }
        func isStall(_ event: AlarmPlayer.Event) -> Bool { if case .stalled = event { true } else { false } }
        func isBack(_ event: AlarmPlayer.Event) -> Bool { if case .deviceRecovered = event { true } else { false } }
        func isFirst(_ event: AlarmPlayer.Event) -> Bool { if case .firstFrame = event { true } else { false } }

        driver.start(at: .now, loops: nil)
        try #require(pump(until: isFirst), "nothing reached the FIFO")
        for round in 1...3 {
            reading = false  // the speaker stalls: the pipe fills and the writer blocks
            try #require(pump(until: isStall), "round \(round): the stall was never reported")
            #expect(player.isRunning, "round \(round): a stall ended the ringing")
            reading = true  // it answers again
            try #require(pump(until: isBack), "round \(round): playback never resumed")
        }
        #expect(!driver.events.contains { $0.endsRinging })
        #expect(driver.events.filter(isStall).count == 3)
        #expect(driver.events.filter(isBack).count == 3)
        #expect(driver.longestCall < .milliseconds(100), "a player call blocked for \(driver.longestCall)")
        driver.stop()
        #expect(pump(until: \.endsRinging))
        if case .stopped? = driver.events.last {
        } else {
            Issue.record("ended \(String(describing: driver.events.last))")
        }
        #expect(fifo.drainToEndOfFile(timeout: .seconds(30)), "a playback thread never closed the device")
        // Every abandoned thread returns and posts its ending (just after its close).
        let giveUp = ContinuousClock.now + .seconds(30)
        while player.stuckThreads > 0, ContinuousClock.now < giveUp {
            var ready = pollfd(fd: player.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
            _ = player.events(at: .now)
        }
        #expect(player.stuckThreads == 0)
    }
}
