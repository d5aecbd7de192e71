import AlarmAudio
import Glibc
import SystemKit
import TestSupport
import Testing

/// Issue 37, "No setting rings in silence", through the real binary and a `file:` PCM: the gain is
/// at least the floor (10 % of the sound's amplitude) from the first loop frame, whatever ramp was
/// asked for; settings below it are refused (64 on the command line, 78 in the config file); a
/// record written before the floor with `volume=0` is rung at the floor.
@Suite struct AudibleFloorEndToEndTests {
    /// The shipped sound as the binary decodes it.
    let sound: AlarmSound

    init() throws { sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3") }

    /// The samples in the capture file `path`.
    private func samples(_ path: String) throws -> [Int16] {
        try #require(readFile(path), "nothing captured at \(path)").withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
    }

    /// `sample` at the floor's gain (Q15 3276), rounded as the player rounds.
    private func atFloor(_ sample: Int16) -> Int { Int((Int64(sample) * 3276 + 16384) >> 15) }

    /// Expects `captured` (one pass) to be the sound at the floor's gain or louder, every sample,
    /// and its peak at least a tenth of the sound's.
    private func expectAtLeastTheFloor(_ captured: [Int16], _ what: String) {
        #expect(captured.count == sound.samples.count, "\(what): one pass, \(captured.count) samples")
        let quieter = zip(captured, sound.samples).enumerated().first { _, pair in
            let (heard, played) = pair
            let least = atFloor(played)
            return abs(Int(heard)) < abs(least) || (least != 0 && (Int(heard) < 0) != (least < 0))
        }
        #expect(quieter == nil, "\(what): below the floor: \(String(describing: quieter))")
        let peak = captured.map { abs(Int($0)) }.max() ?? 0
        let soundPeak = sound.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak >= soundPeak / 10, "\(what): peak \(peak) of the sound's \(soundPeak)")
    }

    /// The longest ramp rises from the floor, not from silence: the first pass (1.5 s of 60) is
    /// the sound at the floor's level or louder from its first frame, and quieter than the sound.
    @Test func theLongestRampStartsAtTheFloorFromTheFirstLoopFrame() throws {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let capture = directory + "/ramp.raw"
        let result = runEggtimer(
            ["1", "--loops", "1", "--ramp", "60s", "-D", "file:'\(capture)',raw"], environment: ["HOME": directory])
        #expect(result.termination == .exited(0), "\(result.stderr)")
        let captured = try samples(capture)
        expectAtLeastTheFloor(captured, "--ramp 60s")
        #expect(captured != sound.samples, "still ramping: quieter than the sound")
        #expect(atFloor(sound.samples[4410]) != 0 && Int(captured[4410]) != 0, "50 ms in: heard, not silence")
    }

    /// `--volume 0` and a ramp over a minute are one line and exit 64 on the command line, 78
    /// from the config file naming the file and line; nothing rings.
    @Test func settingsBelowTheFloorAreRefusedWith64Or78() {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        let capture = directory + "/never.raw"
        let device = "file:'\(capture)',raw"
        for (arguments, problem) in [
            (["--volume", "0"], "option '--volume' \(TimerOptionTests.belowFloor("0"))"),
            (["--ramp", "61s"], "option '--ramp' \(TimerOptionTests.rampTooLong("61s"))"),
        ] {
            let result = runEggtimer(["1", "--loops", "1", "-D", device] + arguments, environment: ["HOME": directory])
            #expect(result.termination == .exited(64), "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("eggtimer: \(problem)\n"), "\(result.stderr)")
        }
        for (text, problem) in [
            ("device = null\nvolume = 0\n", ":2: volume: \(TimerOptionTests.belowFloor("0"))"),
            ("ramp = 2m\n", ":1: ramp: \(TimerOptionTests.rampTooLong("2m"))"),
        ] {
            writeFile(directory + "/config", Array(text.utf8))
            let result = runEggtimer(
                ["1", "--loops", "1", "-D", device], environment: ["EGGTIMER_CONFIG": directory + "/config"])
            #expect(result.termination == .exited(78), "\(text): \(result.stderr)")
            #expect(result.stderr == "eggtimer: \(directory)/config\(problem)\n")
        }
        #expect(readFile(capture) == nil, "nothing rang")
    }

    /// A record written before the floor (an older eggtimer accepted `--volume 0` and any ramp) is
    /// recovered at the floor, not refused and not silent: `volume=0` rings the sound at 10 %.
    @Test func aRecordWithVolumeZeroFromAnOlderVersionRingsAtTheFloor() throws {
        let house = RecoverEndToEndTests.House()
        let capture = house.state + "/old.raw"
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let overdue = (Int64(now.tv_sec) - 180) * 1_000_000_000
        house.write(
            "tea",
            """
            eggtimer-record 1
            label=tea
            kind=plain
            total_ns=300000000000
            state=counting
            deadline_boot_ns=1000
            deadline_unix_ns=\(overdue)
            boot_id=00000000-0000-0000-0000-000000000000
            pid=999999
            device=file:'\(capture)',raw
            loops=1
            volume=0

            """)
        let recover = house.command(["recover"])
        #expect(recover.termination == .exited(0), "\(recover.stderr)")
        #expect(recover.stdout.hasPrefix("tea: overdue by 3 min, rang at once"), "\(recover.stdout)")
        let said = recover.stdout
        let pid = try #require(
            said.firstRange(of: "pid ").flatMap { pid_t(said[$0.upperBound...].prefix(while: \.isNumber)) })
        try #require(awaitEnd(of: pid), "the recovered timer \(pid) still runs")
        let captured = try samples(capture)
        #expect(captured == sound.samples.map { Int16(atFloor($0)) }, "the sound at the floor, sample for sample")
        expectAtLeastTheFloor(captured, "volume=0 recovered")
    }

}
