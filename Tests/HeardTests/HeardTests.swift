import Glibc
import TestSupport
import Testing

/// What a listener hears: eggtimer through ALSA's `pulse` plugin into a real PulseAudio server
/// with a null sink, whose monitor is recorded with `parec`.
///
/// Run by `make test-audio` (not `make test`: while a PulseAudio server runs, the pulseaudio
/// package redirects the system's ALSA `default` to it). Each test starts its own private server,
/// so a server left over by an earlier run changes nothing. Serialized: the tests measure real
/// time, and one of them keeps both cores busy on purpose.
@Suite(.serialized) struct HeardTests {
    private static let second: Int64 = 1_000_000_000
    private static let millisecond: Int64 = 1_000_000

    /// Issue 21: with no home folder (no `HOME`, a uid without a password-database entry, as in a
    /// container or a service), libpulse, loaded by ALSA's `pulse` plugin, printed "Failed to get
    /// home directory." and "Failed to load cookie file" on each device open; the alarm still played.
    @Test(.enabled(if: getuid() == 0, "switching to a uid without a passwd entry needs root"))
    func withoutAHomeFolderLibpulseSaysNothingOnStandardError() throws {
        let server = try PulseServer(anonymous: true)
        // The uid must reach the socket: the folders become traversable, not readable.
        chmod(server.directory, 0o711)
        chmod(server.runtimePath, 0o711)
        let uid = "47113"
        let own = server.directory + "/nobody-home"
        mkdir(own, 0o700)
        chown(own, 47113, 47113)
        let stderrPath = server.directory + "/nohome.stderr"
        let environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PULSE_SERVER": "unix:" + server.socketPath,
            "XDG_RUNTIME_DIR": own, "XDG_STATE_HOME": own,
        ]
        let run = Eggtimer(
            ["1", "-D", "pulse", "--loops", "1"], wholeEnvironment: environment,
            launcher: [SystemTool.setpriv.path, "--reuid", uid, "--regid", uid, "--clear-groups"]
        ).child(stderrPath: stderrPath)
        #expect(run.wait(timeout: .seconds(30)) == .exited(0), "\(readText(stderrPath))")
        let stderr = readText(stderrPath)
        #expect(!stderr.contains("home directory"), "\(stderr)")
        #expect(!stderr.contains("cookie"), "\(stderr)")
        #expect(!stderr.contains("cannot open audio device"), "it played through the server: \(stderr)")
    }

    @Test(arguments: [1, 3])
    func loopsArePlayedOutSampleExactlyBeforeTheExit(passes: Int) throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }

        let run = EggtimerRun(["1", "-D", "pulse", "--loops", "\(passes)"], server: server)
        #expect(run.wait(timeout: .seconds(30)) == .exited(0))
        monitor.waitPast(bootNanoseconds())

        let recording = monitor.recording
        let onset = try #require(recording.firstLoudFrame, "nothing was heard")
        let heard = Array(recording.bytes[(onset * Monitor.bytesPerFrame)...])
        let sound = shippedSound.bytes
        let wholePasses = (0..<passes).prefix { pass in
            heard.count >= (pass + 1) * sound.count
                && heard[(pass * sound.count)..<((pass + 1) * sound.count)].elementsEqual(sound)
        }.count
        let loudFrames = (recording.lastLoudFrame ?? onset) - onset + 1
        #expect(
            wholePasses == passes,
            "heard \(wholePasses) whole passes of \(passes) (\(loudFrames) frames from the first loud one to the last; a pass is \(shippedSound.frames))"
        )
        #expect(heard.dropFirst(passes * sound.count).allSatisfy { $0 == 0 }, "something was heard after the last pass")
    }

    @Test func nothingIsHeardBeforeTheDeadlineAndTheSoundStartsCleanly() throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }

        // The device is opened 1.5 s before the deadline: that open must not be heard.
        let run = EggtimerRun(["2", "-D", "pulse", "--loops", "1"], server: server)
        #expect(run.wait(timeout: .seconds(30)) == .exited(0))
        let sounding = try #require(run.waitForEvent("sounding", timeout: .seconds(1)))
        let deadline = try #require(EggtimerRun.integer("deadline_t_mono_ns", in: sounding))
        monitor.waitPast(bootNanoseconds())

        let recording = monitor.recording
        #expect(recording.time(ofFrame: 0) < deadline - 1_500 * Self.millisecond, "the recording began after the open")
        let onset = try #require(recording.firstLoudFrame, "nothing was heard")
        let heardOnset = recording.time(ofFrame: onset) - deadline
        // Silence until the sound's own first frame: no click, no early frame.
        let start = onset * Monitor.bytesPerFrame
        #expect(
            recording.bytes[start..<min(recording.bytes.count, start + shippedSound.bytes.count)].elementsEqual(
                shippedSound.bytes),
            "the first sound heard is not the alarm's first pass")
        #expect(heardOnset >= 0, "the first loud chunk arrived \(Double(-heardOnset) / 1e6) ms before the deadline")
        #expect(heardOnset <= 200 * Self.millisecond, "heard \(Double(heardOnset) / 1e6) ms after the deadline")
        print("heard onset: \(Double(heardOnset) / 1e6) ms after the deadline (first loud chunk's arrival)")
    }

    /// A spoken line (issue 28), `--say` or `--announce`, is heard first, from the deadline as the
    /// plain alarm is, and the alarm's pass after it is heard whole, sample for sample.
    @Test(arguments: [["--say", "Pasta is ready"], ["--announce", "--label", "Pasta"]])
    func aSpokenLineIsHeardAtTheDeadlineThenTheWholeLoop(line: [String]) throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }

        let run = EggtimerRun(["3", "-D", "pulse", "--loops", "1"] + line, server: server)
        #expect(run.wait(timeout: .seconds(30)) == .exited(0))
        let sounding = try #require(run.waitForEvent("sounding", timeout: .seconds(1)))
        let deadline = try #require(EggtimerRun.integer("deadline_t_mono_ns", in: sounding))
        monitor.waitPast(bootNanoseconds())

        let recording = monitor.recording
        let onset = try #require(recording.firstLoudFrame, "nothing was heard")
        let heardOnset = recording.time(ofFrame: onset) - deadline
        #expect(heardOnset >= 0, "the first loud chunk arrived \(Double(-heardOnset) / 1e6) ms before the deadline")
        // The line's leading silence is trimmed (Speech's render): its first sample is heard as
        // soon after the deadline as the plain alarm's (≤ 20 ms, issue 28; 200 ms of slack for the
        // first chunk's arrival, as above).
        #expect(heardOnset <= 200 * Self.millisecond, "heard \(Double(heardOnset) / 1e6) ms after the deadline")
        print("heard onset with \(line[0]): \(Double(heardOnset) / 1e6) ms after the deadline")
        let heard = Array(recording.bytes[(onset * Monitor.bytesPerFrame)...])
        let sound = shippedSound.bytes
        #expect(!heard.starts(with: sound.prefix(4096)), "the alarm came first, not the line")
        // The pass after the line: found by its first 64 bytes on a frame boundary, then whole.
        let signature = Array(sound.prefix(64))
        let start = stride(from: 0, to: max(0, heard.count - sound.count + 1), by: Monitor.bytesPerFrame).first {
            heard[$0] == signature[0] && heard[$0..<($0 + signature.count)].elementsEqual(signature)
        }
        let at = try #require(start, "the alarm's pass was not heard after the line")
        #expect(heard[at..<(at + sound.count)].elementsEqual(sound), "the pass after the line is not whole")
        #expect(at > 0, "a line before the pass")
    }

    @Test func aStopIsHeardWithinTheBuffer() throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }

        let run = EggtimerRun(["1", "-D", "pulse"], server: server)
        _ = try #require(run.waitForEvent("sounding", timeout: .seconds(20)))
        try #require(
            monitor.waitForSound(frames: PulseServer.sampleRate, timeout: .seconds(10)), "the alarm was not heard")
        // Stop as a group of beeps begins (after the sound's 250 ms pause): unstopped, it would go
        // on sounding for 250 ms, so a stop that is not heard at once shows.
        try #require(monitor.output.wait(timeout: .seconds(5), until: Self.beepGroupJustBegan), "no beep group began")
        let signalled = bootNanoseconds()
        run.output.child.signal(SIGUSR1)
        #expect(run.wait(timeout: .seconds(10)) == .exited(0))
        monitor.waitPast(signalled + 500 * Self.millisecond)

        let recording = monitor.recording
        let last = try #require(recording.lastLoudFrame)
        let stopHeard = recording.time(ofFrame: last) - signalled
        #expect(
            stopHeard <= 100 * Self.millisecond, "the monitor went silent \(Double(stopHeard) / 1e6) ms after SIGUSR1")
        print("stop heard: the last loud frame \(Double(stopHeard) / 1e6) ms after SIGUSR1")
    }

    /// Whether the last chunk holds sound and the 200 ms before it were silent.
    private static func beepGroupJustBegan(_ chunks: [StampedOutput.Chunk]) -> Bool {
        guard let last = chunks.last, last.bytes.contains(where: { $0 != 0 }) else { return false }
        var silentBytes = 0
        for chunk in chunks.dropLast().reversed() {
            guard chunk.bytes.allSatisfy({ $0 == 0 }) else { return false }
            silentBytes += chunk.bytes.count
            if silentBytes >= PulseServer.sampleRate / 5 * Monitor.bytesPerFrame { return true }
        }
        return false
    }

    @Test func ringingIsGaplessForTenSecondsWithBothCoresBusy() throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }
        let busy = BusyLoops()
        defer { busy.stop() }

        let run = EggtimerRun(["1", "-D", "pulse"], server: server)
        let sounding = try #require(run.waitForEvent("sounding", timeout: .seconds(20)))
        let deadline = try #require(EggtimerRun.integer("deadline_t_mono_ns", in: sounding))
        let underrunsBefore = server.underrunsLogged()
        try #require(monitor.waitPast(deadline + 10_500 * Self.millisecond, timeout: .seconds(20)))
        let underruns = server.underrunsLogged() - underrunsBefore
        run.output.child.signal(SIGUSR1)
        #expect(run.wait(timeout: .seconds(10)) == .exited(0))
        busy.stop()

        let recording = monitor.recording
        let onset = try #require(recording.firstLoudFrame, "nothing was heard")
        let frames = 10 * PulseServer.sampleRate
        try #require(recording.frameCount - onset >= frames, "less than 10 s recorded after the onset")
        let sound = shippedSound.bytes
        let width = Monitor.bytesPerFrame
        var mismatches = 0
        recording.bytes.withUnsafeBufferPointer { heard in
            sound.withUnsafeBufferPointer { expected in
                for frame in 0..<frames {
                    let h = (onset + frame) * width
                    let e = (frame % shippedSound.frames) * width
                    if heard[h] != expected[e] || heard[h + 1] != expected[e + 1] || heard[h + 2] != expected[e + 2]
                        || heard[h + 3] != expected[e + 3]
                    {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(underruns == 0, "the server saw the client underrun \(underruns) times")
        #expect(mismatches == 0, "\(mismatches) of \(frames) frames heard differ from the looped sound")
        print("10 s under load: \(underruns) client underruns (server log), \(mismatches) mismatched frames")
    }

    @Test func ringingIsHeardAgainWithinThreeSecondsOfAServerRestart() throws {
        let server = try PulseServer()
        let before = try Monitor(server)
        let run = EggtimerRun(["1", "-D", "pulse"], server: server)
        _ = try #require(run.waitForEvent("sounding", timeout: .seconds(20)))
        let heardBefore = before.waitForSound(frames: PulseServer.sampleRate / 2, timeout: .seconds(10))
        server.kill()
        before.stop()
        try #require(heardBefore, "the alarm was not heard before the kill")

        try server.start()
        let ready = bootNanoseconds()
        let after = try Monitor(server)
        defer { after.stop() }
        let heardAgain = after.output.wait(timeout: .seconds(4)) { Recording($0).firstLoudFrame != nil }
        let recording = after.recording
        let again = recording.firstLoudFrame.map { recording.time(ofFrame: $0) - ready }
        run.output.child.signal(SIGUSR1)
        #expect(run.wait(timeout: .seconds(10)) == .exited(0))

        #expect(heardAgain, "the alarm was not heard within 4 s of the restart")
        if let again {
            #expect(again <= 3 * Self.second, "heard again \(Double(again) / 1e6) ms after the restart")
            print("heard again \(Double(again) / 1e6) ms after the restarted server answered")
        }
    }

    /// The sound server stalls (SIGSTOP) and comes back (SIGCONT) twice in one ringing: each time
    /// the timer says it is silent, and the alarm is heard again once the server answers (issue 37:
    /// before, the first stall turned the alarm into the terminal bell for the rest of the ringing).
    @Test func ringingIsHeardAgainAfterEachStallOfTheServer() throws {
        let server = try PulseServer()
        let monitor = try Monitor(server)
        defer { monitor.stop() }
        let run = EggtimerRun(["1", "-D", "pulse"], server: server)
        defer { server.send(SIGCONT) }
        _ = try #require(run.waitForEvent("sounding", timeout: .seconds(20)))
        try #require(monitor.waitForSound(frames: PulseServer.sampleRate / 2, timeout: .seconds(10)), "not heard")

        for round in 1...2 {
            server.send(SIGSTOP)
            try #require(
                run.waitForEvent("device_unavailable", occurrence: round, timeout: .seconds(10)) != nil,
                "round \(round): the stalled server was not noticed")
            server.send(SIGCONT)
            let continued = bootNanoseconds()
            try #require(
                run.waitForEvent("device_recovered", occurrence: round, timeout: .seconds(10)) != nil,
                "round \(round): the alarm did not come back")
            let back = bootNanoseconds()
            // Heard again: a quarter of a second of sound (the sound's beeps) arrived after that.
            let heard = monitor.output.wait(timeout: .seconds(10)) {
                Recording($0).loudFrames(after: back) >= PulseServer.sampleRate / 4
            }
            #expect(heard, "round \(round): nothing heard after the device came back")
            print("round \(round): device_recovered \(Double(back - continued) / 1e6) ms after SIGCONT")
        }
        run.output.child.signal(SIGUSR1)
        #expect(run.wait(timeout: .seconds(10)) == .exited(0), "heard: exit 0")
    }
}
