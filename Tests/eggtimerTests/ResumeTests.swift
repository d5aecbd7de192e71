import AlarmAudio
import TestSupport
import Testing
import TimerText

@testable import TimerEngine
@testable import eggtimer

/// The executable's side of a record (issue 12): `recover` and the hidden `--resume-record` on
/// the command line, a record resumed by `Resume`, and how late it is said (the record format's
/// own tests are TimerEngineTests' `TimerRecordTests`).
@Suite struct ResumeTests {
    private static let record = TimerRecord(
        label: "1h 30m", kind: .egg("Soft"), total: .nanoseconds(300_000_000_001), state: .counting,
        deadlineBootNanoseconds: 12_345_678_901_234, deadlineUnixNanoseconds: 1_796_000_000_123_456_789, remaining: nil,
        bootID: "707ed7c7-4f1c-4f38-9c13-ece405ac5c28", pid: 4242,
        alarm: .init(device: "null", loops: 3, ringFor: .seconds(120), volume: 40, ramp: .milliseconds(1500)))

    /// Issue 37: an older record below the floor is resumed at it.
    ///
    /// A record an older eggtimer wrote with a volume below 10 or a ramp over a minute still
    /// reads, and is resumed at the floor (10) and with a 60 s ramp: raised, not refused, since a
    /// refused record is an alarm that does not ring. What is within the rule is resumed as written.
    @Test(arguments: [
        (0, Duration.seconds(600), 10, Duration.seconds(60)), (9, .nanoseconds(60_000_000_001), 10, .seconds(60)),
        (10, .seconds(60), 10, .seconds(60)), (40, .milliseconds(1500), 40, .milliseconds(1500)),
    ])
    func anOlderRecordBelowTheFloorIsResumedAtIt(volume: Int, ramp: Duration, resumedVolume: Int, resumedRamp: Duration)
        throws
    {
        let directory = makePrivateDirectory()
        defer { removeDirectory(directory) }
        var old = Self.record
        (old.alarm.volume, old.alarm.ramp) = (volume, ramp)
        #expect(try TimerRecord(parsing: Array(old.text.utf8)) == old, "it reads as written")
        let path = directory + "/tea.record"
        writeFile(path, Array(old.text.utf8), mode: 0o600)
        let (options, _, _) = try Resume.load(path: path, base: Options(), clockSynchronised: { true })
        #expect(options.volume == resumedVolume && options.ramp == resumedRamp)
    }

    @Test func recoverIsASubcommandAndTheResumeOptionIsHidden() throws {
        #expect(try Options.parse(["recover"]).command == .control(.recover(bootOnly: false)))
        #expect(try Options.parse(["recover", "--boot"]).command == .control(.recover(bootOnly: true)))
        #expect(
            try Options.parse(["recover", "--quiet", "--boot"]).command
                == .control(.recover(bootOnly: true, quiet: true)))
        #expect(try Options.parse(["recover", "tea"]).command == .control(.recover(bootOnly: false, label: "tea")))
        #expect(throws: UsageError.self) { try Options.parse(["status", "--boot"]) }
        // The words are one label (issue 41).
        #expect(
            try Options.parse(["recover", "tea", "pasta"]).command
                == .control(.recover(bootOnly: false, label: "tea pasta")))
        #expect(throws: UsageError.self) { try Options.parse(["recover", "tea/pasta"]) }
        #expect(throws: UsageError.self) { try Options.parse(["recover", "-D", "null"]) }
        let resume = try Options.parse(["--resume-record", "/s/tea.timer", "--json"])
        #expect(resume.resumeRecord == "/s/tea.timer" && resume.json && resume.command == .menu)
        #expect(Options.help.contains("eggtimer recover"))
        #expect(!Options.help.contains("resume-record"))
    }
}
