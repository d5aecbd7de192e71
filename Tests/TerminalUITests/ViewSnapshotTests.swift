import Testing
import TimerCore
import TimerModel

@testable import TerminalUI
@testable import TimerEngine

private let t0 = ContinuousClock.now

/// The screen as a pure function of the snapshot and its screen extras (issue 22): no controller.
@Suite struct ViewSnapshotTests {
    /// One row of the table: a snapshot and its extras, and what the screen must show at `t0 + 1 s`.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var snapshot: TimerSnapshot
        var screen = ScreenExtras()
        /// The title line, as seen.
        var title: String
        /// How the bar line ends (the time left), nil when no bar shows.
        var time: String?
        var legend: String
        /// A line that must show too (a notice, the tomato meter).
        var also: String?
        var testDescription: String { name }
    }

    private static func snapshot(
        _ state: TimerState, kind: TimerSnapshot.Kind = .plain, total: Duration = .seconds(90),
        remaining: Duration = .seconds(90), deadline: ContinuousClock.Instant? = t0 + .seconds(90)
    ) -> TimerSnapshot {
        TimerSnapshot(
            state: state, label: "tea", kind: kind, total: total, remaining: remaining, deadline: deadline,
            deadlineUnixMilliseconds: nil, pid: 7, runLabel: "tea")
    }

    /// A countdown that `+` and `-` can move.
    static let adjustable = ScreenExtras(canAdd: true, canTake: true)

    static let cases: [Case] = [
        Case(
            name: "counting", snapshot: snapshot(.counting), screen: adjustable, title: "  Counting down 1:30.",
            time: "1:29",
            legend: "  space pause · r restart · + minute · - minute · c cancel · q quit"),
        Case(
            name: "paused", snapshot: snapshot(.paused, remaining: .seconds(60), deadline: nil), title: "  Paused.",
            time: "1:00", legend: "  space resume · r restart · c cancel · q quit"),
        Case(
            name: "ringing",
            snapshot: snapshot(.ringing, remaining: .zero, deadline: t0 - .seconds(1)),
            screen: .init(ringingSince: t0 - .seconds(1)), title: "  Time's up!", time: "0:00",
            legend: "  any key: stop the alarm · z snooze"),
        Case(
            name: "silent",
            snapshot: {
                var silent = snapshot(.silent, remaining: .zero, deadline: t0 - .seconds(1))
                silent.device = .silent("no device")
                return silent
            }(),
            screen: .init(ringingSince: t0 - .seconds(1), deviceNotice: "the device is gone"), title: "  Time's up!",
            time: "0:00", legend: "  any key: stop the alarm · z snooze",
            also: "  no sound: the device is gone"),
        Case(
            name: "snoozed",
            snapshot: snapshot(
                .snoozed, total: .seconds(600), remaining: .seconds(600),
                deadline: t0 + .seconds(600)), title: "  Snoozed.", time: "9:59",
            legend: "  space pause · r restart · c cancel · q quit"),
        Case(
            name: "pomodoro",
            snapshot: {
                var pomodoro = snapshot(.counting, kind: .pomodoro(phase: "short break"))
                pomodoro.pomodoro = .init(done: 2, perSet: 4, isLast: false)
                return pomodoro
            }(),
            screen: adjustable, title: "  Short break.   ●●○○", time: "1:29",
            legend: "  space pause · r restart · + minute · - minute · n skip · c cancel · q quit"),
        Case(
            name: "the pomodoro's last interval ringing",
            snapshot: {
                var pomodoro = snapshot(
                    .ringing, kind: .pomodoro(phase: "long break"), remaining: .zero,
                    deadline: t0 - .seconds(1))
                pomodoro.pomodoro = .init(done: 4, perSet: 4, isLast: true)
                return pomodoro
            }(),
            screen: .init(ringingSince: t0 - .seconds(1)), title: "  Session complete!   ●●●●", time: "0:00",
            legend: "  any key: stop the alarm · z snooze"),
        Case(
            name: "an alarm at a time",
            snapshot: {
                var alarm = snapshot(
                    .counting, kind: .alarm, total: .seconds(3600), remaining: .seconds(3600),
                    deadline: t0 + .seconds(3600))
                alarm.schedule = .init(at: "2026-11-30T07:00:00+01:00")
                return alarm
            }(),
            screen: .init(alarmTime: "07:00", alarmWhen: "today at 07:00"), title: "  Rings today at 07:00, in 59:59.",
            time: "59:59", legend: "  c cancel · q quit"),
        Case(
            name: "detached",
            snapshot: {
                var detached = snapshot(.counting)
                detached.detached = true
                return detached
            }(),
            screen: adjustable, title: "  Counting down 1:30.", time: "1:29",
            legend: "  space pause · r restart · + minute · - minute · c cancel · q quit"),
        Case(
            name: "an egg", snapshot: snapshot(.counting, kind: .egg("Medium")),
            screen: .init(fromMenu: true, egg: 1, canAdd: true, canTake: true), title: "  So you like it Medium huh?",
            time: "1:29",
            legend: "  space pause · r restart · + minute · - minute · c menu · q quit", also: "   2  Medium   7:00"),
    ]

    @Test(arguments: cases)
    func aSnapshotDrawsItsLines(_ row: Case) {
        let lines = View().lines(row.snapshot, row.screen, at: t0 + .seconds(1), columns: 100, rows: 24).map(visible)
        #expect(lines[1] == row.title)
        let bar = lines.first { $0.contains("█") || $0.contains("░") }
        #expect(bar.map { $0.hasSuffix("  " + (row.time ?? "")) } ?? (row.time == nil), "\(lines)")
        #expect(lines.contains(row.legend), "\(lines)")
        if let also = row.also { #expect(lines.contains(also), "\(lines)") }
    }

    @Test func theMenuAndTheEndDrawWithoutATimer() {
        let menu = TimerSnapshot(
            state: .menu, label: "menu-7", kind: nil, total: .zero, remaining: .zero, deadline: nil,
            deadlineUnixMilliseconds: nil, pid: 7)
        let typing = View().lines(menu, .init(menu: .init(selection: 3, entry: "4m")), at: t0, columns: 80, rows: 24)
            .map(visible)
        #expect(typing[1] == "  " + EggTitles.menu)
        #expect(typing.contains("   t  Time: 4m_"))
        #expect(View().compact(menu, .init(menu: .init(entry: "4m")), at: t0) == "Time: 4m_")
        var done = Self.snapshot(.done, remaining: .zero, deadline: nil)
        done.runLabel = "tea"
        let end = View().lines(done, .init(exited: true), at: t0, columns: 80, rows: 24).map(visible)
        #expect(end[1] == "  Alarm stopped.")
        #expect(!end.contains { $0.contains("░") || $0.contains("█") })
        #expect(View().nextChange(done, .init(exited: true), at: t0) == nil)
    }

    @Test func theClockStepsOnTheSnapshotsDeadlineAndTheTitleFlashesOnTheRingingInstant() {
        let counting = Self.snapshot(.counting, deadline: t0 + .milliseconds(90_500))
        #expect(View().nextChange(counting, .init(), at: t0) == t0 + .milliseconds(500))
        let ringing = Self.snapshot(.ringing, remaining: .zero, deadline: t0)
        #expect(View().nextChange(ringing, .init(ringingSince: t0), at: t0 + .milliseconds(700)) == t0 + .seconds(1))
        #expect(View().nextChange(Self.snapshot(.paused, deadline: nil), .init(), at: t0) == nil)
    }

    @Test func theSnapshotCarriesThePomodorosSetProgress() {
        let plan = Pomodoro.Plan(work: .seconds(10), shortBreak: .seconds(5), longBreakAfter: 3)
        var controller = Controller(configuration: .init(), start: .pomodoro(plan))
        _ = controller.start(at: t0)
        #expect(controller.snapshot(at: t0, wall: View.testWall).pomodoro == .init(done: 0, perSet: 3, isLast: false))
        _ = controller.handle(.tick, at: t0 + .seconds(10))
        #expect(controller.snapshot(at: t0 + .seconds(10), wall: View.testWall).pomodoro?.done == 1)
        let plain = Controller(configuration: .init(), start: .timer(.plain, .seconds(5), label: "5"))
        #expect(plain.snapshot(at: t0, wall: View.testWall).pomodoro == nil)
    }
}
