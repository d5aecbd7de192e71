import Glibc
import TestSupport
import Testing

/// Wall-clock times in the log, as the binary writes them.
@Suite struct LogTimeEndToEndTests {
    /// CLOCK_REALTIME now, in whole seconds.
    private func unixSeconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }

    /// `text` between `"key":` and the next `,` or `}` (quotes dropped).
    private func field(_ key: String, in line: Substring) -> String? {
        guard let start = line.firstRange(of: "\"\(key)\":") else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "," && $0 != "}" }.filter { $0 != "\"" })
    }

    /// Each second from `first` to `last`, formatted with `gmtime_r` and `format` after adding
    /// `shift`, and the second it stands for.
    private func window(_ first: Int, _ last: Int, shift: Int = 0, format: String) -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: (first...last).map { second in
                var value = time_t(second + shift)
                var parts = tm()
                gmtime_r(&value, &parts)
                var buffer = [CChar](repeating: 0, count: 64)
                let count = strftime(&buffer, buffer.count, format, &parts)
                return (String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self), second)
            })
    }

    @Test func jsonEventsCarryUTCTimeMatchingTheirMonotonicInstants() throws {
        let before = unixSeconds()
        let result = runEggtimer(["1", "--json", "-D", "null", "--loops", "1"])
        let after = unixSeconds()
        #expect(result.termination == .exited(0))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count >= 3)
        let seconds = window(before, after, format: "%Y-%m-%dT%H:%M:%S")
        var offsets: [Int64] = []
        for line in lines {
            let time = try #require(field("time", in: line))
            #expect(
                line.contains(#","time":""#)
                    && line.contains(#""t_mono_ns":"# + (field("t_mono_ns", in: line) ?? "") + #","time":"#))
            #expect(time.count == 24 && time.hasSuffix("Z"), "\(time)")
            let whole = try #require(seconds[String(time.prefix(19))], "\(time) not within \(before)...\(after)")
            // Milliseconds since the epoch minus the boot-clock milliseconds: the same for every event.
            let millis = try #require(Int64(time.dropFirst(20).prefix(3)))
            let mono = try #require(field("t_mono_ns", in: line).flatMap { Int64($0) })
            offsets.append(Int64(whole) * 1000 + millis - mono / 1_000_000)
        }
        #expect((offsets.max() ?? 0) - (offsets.min() ?? 0) <= 2, "\(offsets)")
    }

    @Test func plainLinesLeadWithTheLocalTimeInTZ() {
        let before = unixSeconds()
        // A POSIX TZ string: 5 h 30 min east of UTC, no zone files needed.
        // The minute line comes 1 s in; then end it.
        let minute = Eggtimer.Trigger(stdoutContains: "1:00 left\n") { pid in kill(pid, SIGTERM) }
        let result = runEggtimer(["1:01", "-D", "null"], environment: ["TZ": "XST-5:30"], trigger: minute)
        let after = unixSeconds()
        #expect(result.termination == .exited(143))
        let times = window(before, after, shift: 19_800, format: "%H:%M:%S")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count >= 2, "\(lines)")  // started, a minute left (and what SIGTERM logs)
        for line in lines {
            #expect(times[String(line.prefix(8))] != nil, "\(line)")
            #expect(line.dropFirst(8).hasPrefix(" 1:01 timer: "), "\(line)")
        }
        #expect(lines.dropFirst().first?.hasSuffix("1:00 left") == true)
    }
}
