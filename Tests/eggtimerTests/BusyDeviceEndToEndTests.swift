import AlarmAudio
import Glibc
import TestSupport
import Testing

/// One speaker, several players (issue 26): timers on one exclusive device (``BusyDevice``: the
/// `busy-pcm` preload shim over file PCMs, as a `hw:` device is: a second open answers `EBUSY`).
///
/// A timer whose device is busy at its deadline waits for it and then plays its loop from the
/// start; two alarms due together are both played, one after the other.
@Suite struct BusyDeviceEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(15) }

    /// The looped sound as raw bytes: what a `file:` PCM holds after `passes` passes.
    private static func loopedSound(passes: Int) throws -> [UInt8] {
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        let pass = sound.samples.withUnsafeBytes { Array($0) }
        return Array([[UInt8]](repeating: pass, count: passes).joined())
    }

    /// Whether `played` is the start of the looped sound, and not empty: it played from the start.
    private static func playedFromTheStart(_ played: [UInt8]?) throws -> Bool {
        guard let played, !played.isEmpty else { return false }
        let pass = try loopedSound(passes: 1).count
        let looped = try loopedSound(passes: played.count / pass + 1)
        return looped.starts(with: played)
    }

    /// The JSON event lines of `stdout` named `name`.
    private static func lines(_ name: String, in stdout: String) -> [Substring] {
        stdout.split(separator: "\n").filter { $0.contains(#""event":"\#(name)""#) }
    }

    /// The integer field `key` of the first `name` event in `stdout`.
    private static func number(_ key: String, of name: String, in stdout: String) -> Int64? {
        guard let line = lines(name, in: stdout).first else { return nil }
        let pieces = line.split(separator: #""\#(key)":"#, maxSplits: 1)
        return pieces.count == 2 ? Int64(pieces[1].prefix { $0.isNumber }) : nil
    }

    /// CLOCK_BOOTTIME now, in nanoseconds: the clock of the events' `t_mono_ns`.
    private static func bootNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    @Test func aTimerWhoseDeviceIsBusyAtItsDeadlineRetriesAndPlaysOnceItIsFree() throws {
        let device = BusyDevice()
        try device.hold()
        let timer = PipedChild(
            ["1", "--label", "pot", "--json", "-D", device.device("pot")], environment: try device.environment())
        // Busy at start is a warning, not a refusal: it counts and reaches its deadline.
        #expect(timer.expect(#""event":"finished""#, until: soon()), "\(timer.stdout)")
        #expect(timer.expect(#""event":"device_unavailable""#, until: soon()), "\(timer.stdout)")
        #expect(Self.lines("device_unavailable", in: timer.stdout).first?.contains("is busy") == true)
        #expect(!timer.stdout.contains(#""event":"sounding""#))
        #expect(device.playedBytes("pot") == 0, "nothing plays while the device is held")

        let released = Self.bootNanoseconds()
        device.release()
        #expect(timer.expect(#""event":"device_recovered""#, until: soon()), "\(timer.stdout)")
        let sounding = try #require(Self.number("t_mono_ns", of: "sounding", in: timer.stdout))
        #expect(sounding > released)
        // Retried every 200 ms, not after a backoff grown to seconds; generous for a loaded machine.
        #expect(sounding - released < 1_500_000_000, "first frame \(sounding - released) ns after the release")
        timer.type("x")
        #expect(timer.expect(#""event":"acknowledged""#, until: soon()))
        #expect(timer.finish() == .exited(0), "heard, so not 69")
        // One line when busy and one when it got the device, not one per retry.
        #expect(Self.lines("device_unavailable", in: timer.stdout).count == 1, "\(timer.stdout)")
        #expect(Self.lines("device_recovered", in: timer.stdout).count == 1)
        #expect(try Self.playedFromTheStart(readFile(device.playedPath("pot"))))
    }

    @Test func twoTimersDueTogetherOnOneBusyDeviceAreBothPlayedOneAfterTheOther() throws {
        let device = BusyDevice()
        let environment = try device.environment()
        let pots = ["tea", "eggs"].map { name in
            PipedChild(["3", "--label", name, "--json", "-D", device.device(name)], environment: environment)
        }
        for pot in pots { #expect(pot.expect(#""event":"finished""#, until: soon()), "\(pot.stdout)") }
        // Whichever got the device sounds; read both until one does.
        let deadline = soon()
        var winner: Int?
        while winner == nil, ContinuousClock.now < deadline {
            for index in pots.indices where winner == nil {
                if pots[index].expect(#""event":"sounding""#, until: .now + .milliseconds(20)) { winner = index }
            }
        }
        let first = try #require(winner.map { pots[$0] }, "neither timer sounded")
        let second = pots[1 - winner!]
        let secondName = winner == 0 ? "eggs" : "tea"
        // The other one is ringing on no device, waiting: busy, and nothing played.
        #expect(second.expect(#""event":"device_unavailable""#, until: soon()), "\(second.stdout)")
        #expect(Self.lines("device_unavailable", in: second.stdout).first?.contains("is busy") == true)
        #expect(!second.stdout.contains(#""event":"sounding""#))
        #expect(device.playedBytes(secondName) == 0)

        first.type("x")
        #expect(first.expect(#""event":"acknowledged""#, until: soon()))
        let released = try #require(Self.number("audio_stopped_t_mono_ns", of: "acknowledged", in: first.stdout))
        #expect(second.expect(#""event":"sounding""#, until: soon()), "\(second.stdout)")
        let sounding = try #require(Self.number("t_mono_ns", of: "sounding", in: second.stdout))
        #expect(sounding > released, "the second started after the first let the device go")
        #expect(second.expect(#""event":"device_recovered""#, until: soon()))
        second.type("x")
        #expect(second.expect(#""event":"acknowledged""#, until: soon()))
        #expect(first.finish() == .exited(0))
        #expect(second.finish() == .exited(0), "\(second.stdout)")
        for name in ["tea", "eggs"] {
            #expect(try Self.playedFromTheStart(readFile(device.playedPath(name))), "\(name) played nothing")
        }
    }
}
