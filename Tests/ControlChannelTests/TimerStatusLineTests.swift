import ControlChannel
import SystemKit
import Testing
import TimerModel

/// The control socket's status line as an encoding of a ``TimerSnapshot`` (issue 22): the same
/// keys as ever, and back.
@Suite struct TimerStatusLineTests {
    /// Any instant will do: the boot deadline stays off the line.
    private static let boot = ContinuousClock.now

    private static let counting = TimerSnapshot(
        state: .counting, label: "Soft", kind: .egg("Soft"), total: .seconds(300), remaining: .milliseconds(61_500),
        deadline: boot + .seconds(61), deadlineUnixMilliseconds: 1_796_032_861_500, pid: 42)

    /// A snapshot changed by `change`.
    private static func counting(_ change: (inout TimerSnapshot) -> Void) -> TimerSnapshot {
        var snapshot = counting
        change(&snapshot)
        return snapshot
    }

    static let table: [(TimerSnapshot, String)] = [
        (
            counting,
            "ok\tlabel=Soft\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"
                + "\ttotal_ns=300000000000\tkind=egg\tpreset=Soft"
        ),
        (
            counting {
                ($0.state, $0.deadline, $0.deadlineUnixMilliseconds) = (.paused, nil, nil)
            },
            "ok\tlabel=Soft\tpid=42\tstate=paused\tremaining_ns=61500000000\ttotal_ns=300000000000\tkind=egg\tpreset=Soft"
        ),
        (
            counting {
                ($0.state, $0.remaining, $0.device) = (.silent, .zero, .silent("no such device"))
            },
            "ok\tlabel=Soft\tpid=42\tstate=silent\tremaining_ns=0\tdeadline_ms=1796032861500"
                + "\ttotal_ns=300000000000\tkind=egg\tpreset=Soft\tdevice=down\tsilent=no such device"
        ),
        (
            // Issue 37: once over, why the alarm rang unheard; a reason's tab or newline cannot split the line.
            counting {
                ($0.state, $0.remaining, $0.device) = (.done, .zero, .silent("cannot open\taudio device 'x':\nENOENT"))
            },
            "ok\tlabel=Soft\tpid=42\tstate=done\tremaining_ns=0\tdeadline_ms=1796032861500"
                + "\ttotal_ns=300000000000\tkind=egg\tpreset=Soft\tdevice=down\tsilent=cannot open audio device 'x': ENOENT"
        ),
        (
            counting {
                ($0.label, $0.kind, $0.schedule) = (
                    "at-7.00", .alarm, .init(at: "2026-12-01T07:00:00+01:00", every: "weekday")
                )
                ($0.clockUnsynchronised, $0.detached) = (true, true)
            },
            "ok\tlabel=at-7.00\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"
                + "\tat=2026-12-01T07:00:00+01:00\tevery=weekday\tclock=unsynchronised\tterminal=detached"
                + "\ttotal_ns=300000000000\tkind=alarm"
        ),
        (
            counting {
                ($0.label, $0.kind, $0.total) = ("pomodoro", .pomodoro(phase: "short break"), .seconds(300))
            },
            "ok\tlabel=pomodoro\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"
                + "\ttotal_ns=300000000000\tkind=pomodoro\tphase=short break"
        ),
        (
            counting { ($0.label, $0.kind, $0.total) = ("90s", .plain, .milliseconds(90_500)) },
            "ok\tlabel=90s\tpid=42\tstate=counting\tremaining_ns=61500000000\tdeadline_ms=1796032861500"
                + "\ttotal_ns=90500000000\tkind=plain"
        ),
        (
            TimerSnapshot(
                state: .menu, label: "menu-7", kind: nil, total: .zero, remaining: .zero, deadline: nil,
                deadlineUnixMilliseconds: nil, pid: 7), "ok\tlabel=menu-7\tpid=7\tstate=menu\tremaining_ns=0"
        ),
    ]

    @Test(arguments: table)
    func aSnapshotIsEncodedAsItsStatusLineAndReadBack(snapshot: TimerSnapshot, line: String) throws {
        #expect(TimerStatus(snapshot).line == line)
        #expect(TimerStatus(line: line) == TimerStatus(snapshot))
    }

    @Test func anOlderTimersLineWithoutTheNewFieldsIsReadWithoutThem() throws {
        let status = try #require(
            TimerStatus(line: "ok\tlabel=Soft\tpid=42\tstate=counting\tremaining_ns=1000\tdeadline_ms=5"))
        #expect(status.total == nil)
        #expect(status.kind == nil)
        #expect(!status.deviceDown)
        #expect(status.line == "ok\tlabel=Soft\tpid=42\tstate=counting\tremaining_ns=1000\tdeadline_ms=5")
    }

    @Test func aSilentReasonIsCutToItsLimitAndAnOlderTimersDownDeviceHasNone() throws {
        var status = try #require(
            TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=silent\tremaining_ns=0\tdevice=down"))
        #expect(status.deviceDown && status.silentReason == nil)
        status.silentReason = String(repeating: "é", count: 1000)
        let read = try #require(TimerStatus(line: status.line))
        let reason = try #require(read.silentReason)
        #expect(reason.utf8.count <= TimerStatus.reasonLimit && reason.hasSuffix("…") && reason.hasPrefix("éé"))
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=silent\tremaining_ns=0\tsilent=x")?.silentReason == nil)
    }

    @Test func aNewerTimersUnknownFieldsAndKindAreIgnored() throws {
        let status = try #require(
            TimerStatus(
                line: "ok\tlabel=x\tpid=1\tstate=counting\tremaining_ns=0\tkind=sourdough\tcolour=blue\tdevice=odd"))
        #expect(status.kind == nil)
        #expect(!status.deviceDown)
    }

    @Test(arguments: [
        "total_ns=-1", "total_ns=", "total_ns=1e9", "total_ns=9223372036854775807", "total_ns=3162240000000000001",
    ])
    func aLengthOutOfRangeRejectsTheLine(field: String) {
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=counting\tremaining_ns=0\t\(field)") == nil)
    }

    @Test func theLongestLengthIsRead() throws {
        let line = "ok\tlabel=x\tpid=1\tstate=counting\tremaining_ns=0\ttotal_ns=\(TimerStatus.totalLimit)"
        #expect(try #require(TimerStatus(line: line)).total == .nanoseconds(TimerStatus.totalLimit))
    }

    @Test(
        arguments: [
            ("kind=egg", nil), ("kind=egg\tpreset=", nil), ("kind=pomodoro", nil),
            ("kind=egg\tpreset=\(String(repeating: "a", count: 65))", nil),
            (
                "kind=egg\tpreset=\(String(repeating: "a", count: 64))",
                TimerSnapshot.Kind.egg(String(repeating: "a", count: 64))
            ),
            ("kind=pomodoro\tphase=long break", .pomodoro(phase: "long break")), ("kind=alarm\tpreset=Soft", .alarm),
        ] as [(String, TimerSnapshot.Kind?)])
    func aKindNeedsItsNameWithinLimits(fields: String, kind: TimerSnapshot.Kind?) throws {
        let status = try #require(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=counting\tremaining_ns=0\t\(fields)"))
        #expect(status.kind == kind)
    }

    /// The kind's words are coded once (TimerModel): each kind's word is listed once and reads
    /// back, with its preset or phase, as the same kind.
    @Test(arguments: [TimerSnapshot.Kind.egg("Soft"), .plain, .pomodoro(phase: "work"), .alarm])
    func eachKindsWordReadsBackAsItself(kind: TimerSnapshot.Kind) throws {
        #expect(TimerSnapshot.Kind.words.filter { $0 == kind.word }.count == 1)
        #expect(TimerSnapshot.Kind(word: kind.word, preset: kind.preset, phase: kind.phase) == kind)
        let line = TimerStatus(Self.counting { $0.kind = kind }).line
        #expect(try #require(TimerStatus(line: line)).kind == kind)
    }

    @Test(arguments: ["So\tft", "So\nft", "", "Soft\u{7F}", "Soft\u{85}"])
    func aPresetThatWouldBreakTheLineIsLeftOff(preset: String) throws {
        let snapshot = Self.counting { $0.kind = .egg(preset) }
        let line = TimerStatus(snapshot).line
        #expect(line.split(separator: "\t").count == 8)
        #expect(!line.contains("\n"))
        #expect(line.hasSuffix("\tkind=egg"))
        #expect(try #require(TimerStatus(line: line)).kind == nil)
    }

    @Test func aLabelCannotHoldATab() {
        #expect(!LabelRule.isValid("pas\tta"))
        #expect(!LabelRule.isValid("pas\nta"))
    }

    @Test(arguments: TimerState.allCases)
    func everyStateWordIsReadBack(state: TimerState) throws {
        let status = try #require(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=\(state.rawValue)\tremaining_ns=0"))
        #expect(status.state == state)
    }

    @Test(arguments: ["", "Counting", "stale", "ringing ", "counting\u{0}"])
    func aStateOutsideTheVocabularyIsRejected(word: String) {
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=\(word)\tremaining_ns=0") == nil)
    }
}
