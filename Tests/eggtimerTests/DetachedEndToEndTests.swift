import AlarmAudio
import Glibc
import TestSupport
import Testing

/// eggtimer detached from its terminal: under `nohup` or `trap ''` (signals ignored when it
/// starts stay ignored), with nohup's write-only standard input, and sleeping on the boot clock.
@Suite struct DetachedEndToEndTests {
    /// The events of a `--json` run, in order.
    static func events(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst(3).first.map(String.init)
        }
    }

    /// A signal ignored by the launcher reaches eggtimer, which still counts, rings once into the
    /// capture file and exits 0.
    ///
    /// Unhandled, SIGINT would end it with 130 (SIGHUP now detaches a running timer anyway).
    @Test(
        arguments: [
            (SIGHUP, [SystemTool.nohup.location]),
            (SIGINT, [SystemTool.sh.location, "-c", #"trap '' INT; exec "$0" "$@""#]),
        ] as [(Int32, [String])])
    func aSignalIgnoredAtStartStaysIgnored(signal: Int32, launcher: [String]) throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let capture = dir + "/capture.raw"
        let started = Eggtimer.Trigger(stdoutContains: #""event":"started""#) { pid in kill(pid, signal) }
        let result = runEggtimer(
            ["2", "--json", "-D", "file:'\(capture)',raw", "--loops", "1"], trigger: started, launcher: launcher)
        #expect(result.termination == .exited(0), "\(result.stderr)")
        let events = Self.events(result.stdout)
        #expect(events.first == "started" && events.contains("finished") && events.last == "acknowledged")
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        #expect(readFile(capture) == sound.samples.withUnsafeBytes { Array($0) })
    }

    @Test func theSameSignalNotIgnoredStillEndsIt() {
        // The other half: without the trap, SIGINT at the same point ends it with 130.
        let started = Eggtimer.Trigger(stdoutContains: #""event":"started""#) { pid in kill(pid, SIGINT) }
        let result = runEggtimer(["2", "--json", "-D", "null", "--loops", "1"], trigger: started)
        #expect(result.termination == .exited(130))
    }

    @Test func aHangUpWithoutNohupDetachesARunningTimerWhichStillRings() {
        // A hang-up no longer ends a running timer (HangUpEndToEndTests): it counts and rings on.
        let started = Eggtimer.Trigger(stdoutContains: #""event":"started""#) { pid in kill(pid, SIGHUP) }
        let result = runEggtimer(["2", "--json", "-D", "null", "--loops", "1"], trigger: started)
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(Self.events(result.stdout).contains("finished"))
    }

    @Test func nohupsWriteOnlyStandardInputNeitherSpinsNorCountsAsAKeyboard() {
        let result = runEggtimer(["2", "--json", "-D", "null", "--loops", "1"], stdin: .writeOnly)
        #expect(result.termination == .exited(0))
        #expect(result.cpu < .milliseconds(250), "cpu \(result.cpu)")
        let menu = runEggtimer(["-D", "null"], stdin: .writeOnly, timeout: .seconds(10))
        #expect(menu.termination == .exited(64))
        #expect(menu.stderr.contains("needs a keyboard"))
    }

    /// What `/proc/PID/fdinfo/N` says about a timerfd.
    struct TimerInfo {
        var clockID: Int
        var settimeFlags: String
        /// Time left until it fires, as the kernel reports it.
        var left: Duration
    }

    /// The timerfds of process `pid`, from its `/proc/PID/fd` links (`anon_inode:[timerfd]`).
    static func timers(of pid: pid_t) -> [TimerInfo] {
        guard let folder = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(folder) }
        var found: [TimerInfo] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            var target = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/\(pid)/fd/\(name)", &target, target.count - 1)
            guard length > 0,
                String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    == "anon_inode:[timerfd]",
                let info = readFile("/proc/\(pid)/fdinfo/\(name)")
            else { continue }
            found.append(parse(String(decoding: info, as: UTF8.self)))
        }
        return found
    }

    /// Parses `clockid: 7`, `settime flags: 01` and `it_value: (4, 987654321)`.
    static func parse(_ text: String) -> TimerInfo {
        var info = TimerInfo(clockID: -1, settimeFlags: "", left: .zero)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters() }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "clockid": info.clockID = Int(parts[1]) ?? -1
            case "settime flags": info.settimeFlags = parts[1]
            case "it_value":
                let numbers = parts[1].split { "(), ".contains($0) }.compactMap { Int64($0) }
                if numbers.count == 2 { info.left = .seconds(numbers[0]) + .nanoseconds(numbers[1]) }
            default: break
            }
        }
        return info
    }

    @Test func theLoopWaitsOnAnAbsoluteBootClockTimerArmedForTheDeadline() throws {
        let (pid, reader) = Eggtimer(["30", "--json", "-D", "null"]).intoPipe()
        defer {
            close(reader)
            kill(pid, SIGTERM)
            _ = waitForExit(pid)
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(reader, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { line.append(byte) }
        let started = String(decoding: line, as: UTF8.self)
        #expect(started.contains(#""event":"started""#))
        let startedAt = try #require(
            started.split(separator: #""t_mono_ns":"#).last?.prefix { $0.isNumber }.description
        ).flatMap { Int64($0) }
        let deadline = Duration.nanoseconds(try #require(startedAt)) + .seconds(30)
        // Arming follows the first event by microseconds, and the kernel makes no event of it:
        // look again every 5 ms until the loop's timer is armed.
        var armed: TimerInfo?
        var readAt = Duration.zero
        try eventually("the loop's timer is armed", deadline: .now + .seconds(10), every: .milliseconds(5)) {
            var now = timespec()
            clock_gettime(CLOCK_BOOTTIME, &now)
            readAt = .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
            armed = Self.timers(of: pid).first { $0.left > .zero }
            return armed != nil
        }
        let timer = try #require(armed)
        #expect(timer.clockID == Int(CLOCK_BOOTTIME))  // 7
        #expect(timer.settimeFlags == "01")  // TFD_TIMER_ABSTIME
        // It fires at the deadline or shortly before it (the device is opened ahead of the alarm).
        let firesAt = readAt + timer.left
        #expect(firesAt <= deadline + .milliseconds(5), "fires \(deadline - firesAt) before the deadline")
        #expect(firesAt >= deadline - .seconds(2), "fires \(deadline - firesAt) before the deadline")
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
