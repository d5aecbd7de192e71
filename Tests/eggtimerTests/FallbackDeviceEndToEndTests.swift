import AlarmAudio
import Glibc
import SystemKit
import TestSupport
import Testing

/// `--fallback-device` run as a user would (issue 37): a device that cannot be opened gives way to
/// the fallback, which plays the alarm sample for sample; without one the alarm is unheard (69).
@Suite struct FallbackDeviceEndToEndTests {
    /// A private HOME whose `.asoundrc` defines `speaker` and `spare` as sound cards this machine
    /// does not have: defined (so not refused at start), but they can never be opened.
    static func home() -> String {
        let home = makePrivateDirectory()
        writeFile(home + "/.asoundrc", Array("pcm.speaker { type hw card 7 }\npcm.spare { type hw card 8 }\n".utf8))
        return home
    }

    @Test func anAlarmWhoseDeviceCannotBeOpenedPlaysOnTheFallbackDevice() throws {
        let folder = Self.home()
        defer { removeDirectory(folder) }
        let capture = folder + "/fallback.raw"
        let result = runEggtimer(
            ["1s", "-D", "speaker", "--fallback-device", "file:'\(capture)',raw", "--loops", "1", "--json"],
            stdin: .null, environment: ["HOME": folder], timeout: .seconds(20))
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stderr.contains("the alarm plays on the fallback device 'file:'\(capture)',raw'"))
        #expect(result.stdout.contains(#""event":"acknowledged""#))
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        let played = try #require(readFile(capture))
        #expect(played.count == sound.samples.count * 2, "one pass, every sample")
    }

    @Test func withoutAFallbackTheSameAlarmIsUnheardAndSaysSo() {
        let home = Self.home()
        defer { removeDirectory(home) }
        let result = runEggtimer(
            ["1s", "-D", "speaker", "--loops", "1"], stdin: .null, environment: ["HOME": home], timeout: .seconds(20))
        #expect(result.termination == .exited(69), "\(result.stderr)")
        #expect(result.stderr.contains("Pick a device with -D NAME"))
    }

    /// A fallback that cannot be opened either: both are tried, the alarm is unheard (69), and the
    /// start-up line names both.
    @Test func aFallbackThatFailsTooIsNamedAndTheAlarmIsUnheard() {
        let home = Self.home()
        defer { removeDirectory(home) }
        let result = runEggtimer(
            ["1s", "-D", "speaker", "--fallback-device", "spare", "--loops", "1"], stdin: .null,
            environment: ["HOME": home], timeout: .seconds(20))
        #expect(result.termination == .exited(69), "\(result.stderr)")
        #expect(result.stderr.contains("cannot open audio device 'speaker'"), "\(result.stderr)")
        #expect(result.stderr.contains("the fallback device fails too: cannot open audio device 'spare'"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    /// A fallback that can never work (no ALSA device by that name) is said at start even while
    /// the device works, not only when the alarm would need it (found by a tester).
    @Test func anUndefinedFallbackIsSaidAtStart() {
        let result = runEggtimer(
            ["1s", "-D", "null", "--fallback-device", "nosuchpcm", "--loops", "1"], stdin: .null,
            timeout: .seconds(20))
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("eggtimer: warning: fallback device: no ALSA device called 'nosuchpcm'"))
        #expect(result.stderr.contains("a ringing cannot move to it"))
    }
}
