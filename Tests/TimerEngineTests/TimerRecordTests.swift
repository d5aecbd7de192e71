import AlarmAudio
import Glibc
import Testing
import TextCoding
import TimerCore
import TimerText

@testable import TimerEngine

/// The record format (issue 12): what a timer writes reads back the same; what is not a record
/// of this format is refused with the line and the reason.
@Suite struct TimerRecordTests {
    private let full = TimerRecord(
        label: "1h 30m", kind: .egg("Soft"), total: .nanoseconds(300_000_000_001), state: .counting,
        deadlineBootNanoseconds: 12_345_678_901_234, deadlineUnixNanoseconds: 1_796_000_000_123_456_789, remaining: nil,
        bootID: "707ed7c7-4f1c-4f38-9c13-ece405ac5c28", pid: 4242,
        alarm: .init(
            device: "file:'/tmp/a b',raw", fallbackDevice: "default",
            sound: SoundFilePath(bytes: Array("/R".utf8) + [0xE9] + Array("veil.mp3".utf8)),
            loops: 3, ringFor: .seconds(120), volume: 40, ramp: .milliseconds(1500), onDone: "echo done\nrm -f x"))

    @Test func aRecordReadsBackAsWritten() throws {
        let text = full.text
        #expect(text.hasPrefix("eggtimer-record 1\nlabel=1h 30m\nkind=egg\npreset=Soft\n"))
        #expect(text.contains("sound_hex=2f52e97665696c2e6d7033\n"), "bytes that are not UTF-8 survive")
        #expect(text.contains("\nfallback_device=default\n"), "the fallback device is kept for recover")
        for bad in ["fallback_device=" + String(repeating: "d", count: 256), "fallback_device_hex=610962"] {
            let corrupt = text.replacingOccurrences(of: "fallback_device=default", with: bad)
            #expect(throws: RecordError.self, "\(bad)") { try TimerRecord(parsing: Array(corrupt.utf8)) }
        }
        #expect(text.contains("on_done_hex="), "a command with a newline is written in hex")
        #expect(!text.contains("rm -f"))
        #expect(try TimerRecord(parsing: Array(text.utf8)) == full)

        var paused = full
        (paused.state, paused.deadlineBootNanoseconds, paused.deadlineUnixNanoseconds) = (.paused, nil, nil)
        paused.remaining = .seconds(42)
        paused.alarm = .init()
        paused.kind = .plain
        #expect(try TimerRecord(parsing: Array(paused.text.utf8)) == paused)

        var started = full
        started.pidStart = 1_234_567
        #expect(started.text.contains("\npid=4242\npid_start=1234567\n"))
        #expect(try TimerRecord(parsing: Array(started.text.utf8)) == started)
    }

    @Test func anAlarmAtATimeKeepsItsScheduleAndStaysAPlainCountdownForOlderReaders() throws {
        var alarm = full
        alarm.kind = .plain
        alarm.schedule = ScheduleRecord(
            occurrence: WallInstant(unixNanoseconds: 1_796_105_700_000_000_000),
            date: CivilDate(year: 2026, month: 12, day: 1), time: TimeOfDay(hour: 7, minute: 15)!, every: "mon,wed,fri")
        let text = alarm.text
        #expect(text.contains("kind=plain\n"))
        #expect(
            text.hasSuffix(
                "alarm_unix_ns=1796105700000000000\nalarm_date=2026-12-01\nalarm_time=07:15:00\nevery=mon,wed,fri\n"))
        #expect(try TimerRecord(parsing: Array(text.utf8)) == alarm)
        alarm.schedule?.date = nil  // a fixed instant
        #expect(try TimerRecord(parsing: Array(alarm.text.utf8)) == alarm)
        let broken = text.split(separator: "\n").map { $0.hasPrefix("every=") ? "every=fortnight" : String($0) }
        #expect(throws: RecordError.self) { try TimerRecord(parsing: Array(broken.joined(separator: "\n").utf8)) }
    }

    @Test func theBrokerOptionsReadBackAsWrittenAndOlderRecordsHaveNone() throws {
        var joined = full
        joined.bus = BusOptions(
            url: "mqtts://ann@hub.local:8883", caFile: "/etc/ssl/house ca.pem", passwordFile: "/home/ann/pw\n",
            node: "kitchen", prefix: "house/eggs", keepalive: .seconds(5))
        let text = joined.text
        #expect(
            text.hasSuffix(
                "mqtt=mqtts://ann@hub.local:8883\nmqtt_node=kitchen\nmqtt_prefix=house/eggs\n"
                    + "mqtt_keepalive_ns=5000000000\nmqtt_cafile=/etc/ssl/house ca.pem\n"
                    + "mqtt_password_file_hex=2f686f6d652f616e6e2f70770a\n"))
        #expect(try TimerRecord(parsing: Array(text.utf8)) == joined)
        // Only the URL is needed; the rest takes the defaults (host name, eggtimer, 30 s).
        joined.bus = BusOptions(url: "mqtt://127.0.0.1")
        #expect(try TimerRecord(parsing: Array(joined.text.utf8)).bus == BusOptions(url: "mqtt://127.0.0.1"))
        let minimal = full.text + "mqtt=mqtt://hub\n"
        #expect(try TimerRecord(parsing: Array(minimal.utf8)).bus == BusOptions(url: "mqtt://hub"))
        // A record of this version written before the keys existed: no broker.
        #expect(!full.text.contains("mqtt"))
        #expect(try TimerRecord(parsing: Array(full.text.utf8)).bus == nil)
        // Without mqtt= the other keys alone mean nothing.
        #expect(try TimerRecord(parsing: Array((full.text + "mqtt_node=kitchen\n").utf8)).bus == nil)
    }

    @Test(arguments: [
        ("mqtt=mqtt://ann:secret@hub", "'mqtt' "), ("mqtt=http://hub", "'mqtt' "),
        ("mqtt=mqtt://hub\nmqtt_node=a/b", "'mqtt_node' is not a node name"),
        ("mqtt=mqtt://hub\nmqtt_prefix=a//b", "'mqtt_prefix' is not a topic prefix"),
        ("mqtt=mqtt://hub\nmqtt_keepalive_ns=1000", "'mqtt_keepalive_ns' is not a number"),
    ])
    func aBadBrokerKeyMakesTheRecordCorrupt(lines: String, expected: String) {
        let text = full.text + lines + "\n"
        #expect {
            _ = try TimerRecord(parsing: Array(text.utf8))
        } throws: { error in
            "\(error)".contains(expected) && !"\(error)".contains("secret")
        }
    }

    @Test func theRecordedBrokerHasTheNodeInUseAndAbsoluteFiles() throws {
        #expect(RecordKeeper.recordedBus(BusOptions()) == nil)
        let given = BusOptions(url: "mqtt://hub", caFile: "ca.pem", passwordFile: "/etc/pw", prefix: "p")
        let recorded = try #require(RecordKeeper.recordedBus(given))
        #expect(recorded.node == given.nodeName && recorded.node?.isEmpty == false)
        #expect(recorded.caFile?.hasPrefix("/") == true && recorded.caFile?.hasSuffix("/ca.pem") == true)
        #expect(recorded.passwordFile == "/etc/pw" && recorded.url == "mqtt://hub" && recorded.prefix == "p")
    }

    /// `recover` starts the timer in its own working folder: a relative `--sound` is recorded
    /// absolute, its bytes (not UTF-8) kept.
    @Test func theRecordedSoundIsAbsoluteAndKeepsItsBytes() throws {
        let folder = try #require(getcwd(nil, 0))
        defer { free(folder) }
        let base = Array(String(cString: folder).utf8)
        let relative: [UInt8] = [UInt8(ascii: "R"), 0xE9, UInt8(ascii: "v"), UInt8(ascii: "."), 0x6D, 0x70, 0x33]
        let recorded = RecordKeeper.absoluteSound(SoundFilePath(bytes: relative))
        #expect(recorded.bytes == base + (base == [UInt8(ascii: "/")] ? [] : [UInt8(ascii: "/")]) + relative)
        let absolute = SoundFilePath("/usr/share/sounds/bell.mp3")
        #expect(RecordKeeper.absoluteSound(absolute) == absolute)
    }

    @Test func commentsBlankLinesAndUnknownKeysAreIgnored() throws {
        let text = full.text + "\n# a note\nfuture_key=1\n"
        #expect(try TimerRecord(parsing: Array(text.utf8)) == full)
    }

    @Test(arguments: [
        ("hello\n", "not a record this eggtimer knows (it begins 'hello'"),
        ("eggtimer-record 2\nlabel=x\n", "it begins 'eggtimer-record 2'"),
        ("eggtimer-record 1\nlabel=x\n", "corrupt record: no 'kind'"),
        ("eggtimer-record 1\nlabel=x\nlabel=y\n", "corrupt record: line 3: 'label' given twice"),
        ("eggtimer-record 1\nlabel x\n", "corrupt record: line 2: no '='"),
    ])
    func whatIsNotARecordIsRefusedWithItsReason(text: String, expected: String) {
        #expect {
            _ = try TimerRecord(parsing: Array(text.utf8))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test(arguments: [
        ("total_ns=300000000001", "total_ns=0", "line 5: 'total_ns' is not a number"),
        ("state=counting", "state=boiling", "line 6: unknown state 'boiling'"),
        ("volume=40", "volume=140", "'volume' is not a number from 0 to 100"),
        ("sound_hex=2f52e97665696c2e6d7033", "sound_hex=2f5", "'sound_hex' is not hex"),
        ("deadline_boot_ns=12345678901234\n", "", "counting without 'deadline_boot_ns'"),
        ("pid=4242", "pid=-1", "'pid' is not a number from 1"),
        ("label=1h 30m", "label=../../etc", "'label' is not a timer's label"),
        ("label=1h 30m", "label=..", "'label' is not a timer's label"),
    ])
    func aBadValueNamesItsLine(field: String, replacement: String, expected: String) {
        let text = full.text.replacingOccurrences(of: field, with: replacement)
        #expect(text != full.text)
        #expect {
            _ = try TimerRecord(parsing: Array(text.utf8))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// The boundary numbers tried in each time of a record.
    ///
    /// 0, ±1, the 32- and 64-bit limits, huge exponents, NaN, -0. Beyond the record's ranges the
    /// record is corrupt, naming the line: a deadline of Int64.max once made the resumed timer trap
    /// (exit 132).
    static let boundaryNumbers = [
        "-1", "-2147483648", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
        "4000000000000000001", "1e999", "-1e999", "1e18", "NaN", "inf", "-inf", "0x10", "1.5", "", "+-1",
    ]

    @Test(arguments: [
        ("total_ns", "300000000001", 5), ("deadline_boot_ns", "12345678901234", 7),
        ("deadline_unix_ns", "1796000000123456789", 8), ("ring_for_ns", "120000000000", 15),
        ("ramp_ns", "1500000000", 17),
    ])
    func outOfRangeTimesMakeTheRecordCorruptNamingTheLine(key: String, value: String, line: Int) {
        for number in Self.boundaryNumbers + ["3599999000000001", "0"]
        where !(number == "0" && key.hasPrefix("deadline")) {
            let isDuration = ["ring_for_ns", "ramp_ns"].contains(key)
            if number == "4000000000000000001" && isDuration { continue }  // covered by 3599999000000001
            if number == "3599999000000001" && !isDuration { continue }  // a deadline or total may be longer
            let text = full.text.replacingOccurrences(of: "\(key)=\(value)\n", with: "\(key)=\(number)\n")
            #expect {
                _ = try TimerRecord(parsing: Array(text.utf8))
            } throws: { error in
                "\(error)".contains("line \(line): '\(key)' is not a number from ")
            }
        }
    }

    @Test(arguments: [
        ("total_ns=300000000001", "total_ns=4000000000000000000"), ("total_ns=300000000001", "total_ns=1"),
        ("deadline_boot_ns=12345678901234", "deadline_boot_ns=0"),
        ("deadline_boot_ns=12345678901234", "deadline_boot_ns=4000000000000000000"),
        ("deadline_unix_ns=1796000000123456789", "deadline_unix_ns=0"),
        ("deadline_unix_ns=1796000000123456789", "deadline_unix_ns=-0"),
        ("ring_for_ns=120000000000", "ring_for_ns=3599999000000000"), ("ramp_ns=1500000000", "ramp_ns=1"),
    ])
    func boundaryTimesInRangeAreRead(field: String, replacement: String) throws {
        let text = full.text.replacingOccurrences(of: field, with: replacement)
        #expect(text != full.text)
        _ = try TimerRecord(parsing: Array(text.utf8))
    }

    /// A paused record's time left is at most the longest duration; an alarm's occurrence and
    /// date lie within the record's times (the zone is asked about the days around the date).
    @Test func pausedAndAlarmBoundariesMakeTheRecordCorrupt() throws {
        var paused = full
        (paused.state, paused.deadlineBootNanoseconds, paused.deadlineUnixNanoseconds) = (.paused, nil, nil)
        paused.remaining = .nanoseconds(3_599_999_000_000_000)
        #expect(try TimerRecord(parsing: Array(paused.text.utf8)) == paused)
        for number in Self.boundaryNumbers + ["3599999000000001"] {
            let text = paused.text.replacingOccurrences(
                of: "remaining_ns=3599999000000000", with: "remaining_ns=\(number)")
            #expect(throws: RecordError.self, "\(number)") { try TimerRecord(parsing: Array(text.utf8)) }
        }
        var alarm = full
        alarm.schedule = ScheduleRecord(
            occurrence: WallInstant(unixNanoseconds: 1_796_105_700_000_000_000),
            date: CivilDate(year: 2026, month: 12, day: 1), time: TimeOfDay(hour: 7, minute: 15)!, every: nil)
        #expect(try TimerRecord(parsing: Array(alarm.text.utf8)) == alarm)
        for number in Self.boundaryNumbers {
            let text = alarm.text.replacingOccurrences(
                of: "alarm_unix_ns=1796105700000000000", with: "alarm_unix_ns=\(number)")
            #expect(throws: RecordError.self, "\(number)") { try TimerRecord(parsing: Array(text.utf8)) }
        }
        for date in ["0001-01-01", "1970-01-01", "9999-12-31", "2096-10-02", "2262-04-12", "-001-01-01", "2026-12-1e3"]
        {
            let text = alarm.text.replacingOccurrences(of: "alarm_date=2026-12-01", with: "alarm_date=\(date)")
            #expect {
                _ = try TimerRecord(parsing: Array(text.utf8))
            } throws: { error in
                "\(error)".contains("'alarm_date' is not")
            }
        }
        for date in ["1970-01-02", "\(TimerRecord.latestDate)"] {
            let text = alarm.text.replacingOccurrences(of: "alarm_date=2026-12-01", with: "alarm_date=\(date)")
            #expect(try TimerRecord(parsing: Array(text.utf8)).schedule?.date?.description == date)
        }
    }

    /// 20,000 seeded mutations of a full record are each refused or read with every time in range.
    ///
    /// Records have no libFuzzer target: bytes flipped,
    /// inserted, dropped, and boundary numbers put in place of digits stand in for one.
    @Test func mutatedRecordsAreRefusedOrInRange() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var alarm = full
        alarm.schedule = ScheduleRecord(
            occurrence: WallInstant(unixNanoseconds: 1_796_105_700_000_000_000),
            date: CivilDate(year: 2026, month: 12, day: 1), time: TimeOfDay(hour: 7, minute: 15)!, every: "day")
        let seeds = [Array(full.text.utf8), Array(alarm.text.utf8)]
        let numbers = Self.boundaryNumbers.map { Array($0.utf8) }
        for _ in 0..<20_000 {
            var bytes = seeds[next(2)]
            for _ in 0...next(4) {
                let at = next(bytes.count)
                switch next(4) {
                case 0: bytes[at] ^= UInt8(1 << next(8))
                case 1: bytes.insert(UInt8(next(256)), at: at)
                case 2: bytes.remove(at: at)
                default:
                    var end = at
                    while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
                    bytes.replaceSubrange(at..<end, with: numbers[next(numbers.count)])
                }
                if bytes.isEmpty { bytes = [0x0A] }
            }
            guard let record = try? TimerRecord(parsing: bytes) else { continue }
            let limit = Duration.nanoseconds(TimerRecord.nanosecondsLimit)
            #expect(record.total > .zero && record.total <= limit)
            #expect((record.remaining ?? .zero) <= DurationParser.maximum)
            for time in [record.deadlineBootNanoseconds, record.deadlineUnixNanoseconds] {
                #expect((0...TimerRecord.nanosecondsLimit).contains(time ?? 0))
            }
            #expect((0...TimerRecord.nanosecondsLimit).contains(record.schedule?.occurrence.unixNanoseconds ?? 0))
        }
    }

    @Test func theStateFolderFollowsXDG() {
        #expect(RecordStore.path(stateHome: "/s", home: "/h") == "/s/eggtimer")
        #expect(RecordStore.path(stateHome: "relative", home: "/h") == "/h/.local/state/eggtimer")
        #expect(RecordStore.path(stateHome: nil, home: "/") == "/.local/state/eggtimer")
        #expect(RecordStore.path(stateHome: nil, home: nil) == nil)
        #expect(RecordStore.fileName(label: "1:30") == "1:30.timer")
        #expect(RecordStore.fileName(label: "Roast Beef") == "roast beef.timer", "the label's key")
    }
}

extension String {
    /// The text with every `target` replaced by `replacement` (no Foundation here).
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
