import Glibc
import TestSupport

@testable import AlarmAudio

/// The shipped alarm sound, decoded, as the bytes the monitor records (S16LE, interleaved).
let shippedSound: (bytes: [UInt8], frames: Int) = {
    guard let sound = try? AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3") else {
        preconditionFailure("cannot decode Sounds/alarm_sound.mp3")
    }
    precondition(sound.sampleRate == PulseServer.sampleRate && sound.channels == 2, "the sink matches the sound")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sound.samples.count * 2)
    for sample in sound.samples {
        let bits = UInt16(bitPattern: sample)
        bytes.append(UInt8(bits & 0xFF))
        bytes.append(UInt8(bits >> 8))
    }
    return (bytes, sound.frames)
}()

/// The real eggtimer binary running with `--json` against the test server.
final class EggtimerRun {
    let output: StampedOutput

    /// Starts `eggtimer arguments --json` with the server's child environment.
    init(_ arguments: [String], server: PulseServer) {
        let run = Eggtimer(arguments + ["--json"], wholeEnvironment: server.environment(for: "eggtimer"))
        output = StampedOutput { run.child(stdout: $0, stderrPath: server.directory + "/eggtimer.log") }
    }

    /// Waits until the `occurrence`th JSON line of `event` (1: the first) has been printed;
    /// returns that line.
    func waitForEvent(_ event: String, occurrence: Int = 1, timeout: Duration) -> String? {
        var found: String?
        output.wait(timeout: timeout) { chunks in
            let text = String(decoding: chunks.flatMap(\.bytes), as: UTF8.self)
            let lines = text.split(separator: "\n").filter { $0.contains("\"event\":\"\(event)\"") }
            found = lines.count >= occurrence ? String(lines[occurrence - 1]) : nil
            return found != nil
        }
        return found
    }

    /// The integer value of `key` in a JSON line.
    static func integer(_ key: String, in line: String) -> Int64? {
        let parts = line.split(separator: "\"\(key)\":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Int64(parts[1].prefix { $0.isNumber || $0 == "-" })
    }

    /// Waits for the process to exit (SIGKILL after `timeout`).
    func wait(timeout: Duration) -> Termination {
        let status = output.child.wait(timeout: timeout)
        output.waitForEnd(timeout: .seconds(5))
        return status
    }
}

/// Two shell busy loops keeping both cores busy until ``stop()``.
struct BusyLoops {
    let children = (0..<2).map { _ in
        Child.spawn(SystemTool.sh.path, ["-c", "while :; do :; done"], environment: ["PATH": "/usr/bin:/bin"])
    }

    func stop() {
        for child in children {
            child.signal(SIGKILL)
            child.wait(timeout: .seconds(5))
        }
    }
}
