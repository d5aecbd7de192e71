import Glibc
import Testing

@testable import TimerEngine

/// Any instant will do: the log never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

/// The event log's lines: JSON fields in order, UTC and local times, exact seconds.
@Suite struct EventLogTests {
    @Test func jsonLinesCarryTheRequiredFieldsInOrder() {
        let log = EventLog(clock: MonotonicClock())
        let event = TimerEvent(
            name: .started, label: "So \"soft\"", total: .milliseconds(2500), remaining: .nanoseconds(1_000_000_001),
            at: t0)
        let line = log.json(event)
        #expect(
            line.hasPrefix(
                #"{"event":"started","label":"So \"soft\"","duration_s":2.5,"remaining_s":1.000000001,"t_mono_ns":"#))
        #expect(line.hasSuffix("}"))
    }

    /// A log whose wall clock reads 2026-11-30T09:12:03.456Z at `t0`, in UTC (or `shift` east of it).
    private func log(shift: Int = 0) -> EventLog {
        let clock = MonotonicClock()
        let boot = clock.nanoseconds(t0)
        let wall = WallClock(
            offset: { 1_796_029_923_456_000_000 - boot },
            local: { seconds in
                var shifted = seconds + shift
                var parts = tm()
                gmtime_r(&shifted, &parts)
                return parts
            })
        return EventLog(clock: clock, wallClock: wall)
    }

    @Test func jsonTimeIsUTCWithMillisecondsRightAfterTMonoNs() {
        let event = TimerEvent(
            name: .acknowledged, label: "Soft", total: .seconds(300), remaining: .zero, at: t0 + .milliseconds(1999),
            extra: [.init(key: "by", value: .text("key"))])
        let line = log().json(event)
        #expect(line.hasSuffix(#","time":"2026-11-30T09:12:05.455Z","by":"key"}"#), "\(line)")
        #expect(line.contains(#""remaining_s":0,"t_mono_ns":"#))
        #expect(log().wallClock.utcText(bootNanoseconds: MonotonicClock().nanoseconds(t0)).count == 24)
    }

    @Test(arguments: [
        ("Soft", TimerEvent.Name.finished, 0, "09:12:03 Soft: time is up"),
        ("1:30", .finished, 0, "09:12:03 1:30 timer: time is up"),
        ("90", .acknowledged, 0, "09:12:03 90 timer: alarm stopped"),
        ("pomodoro", .cancelled, 19_800, "14:42:03 pomodoro: cancelled"),
        ("", .deviceRecovered, -3600, "08:12:03 audio device back"),
    ])
    func plainLinesLeadWithTheLocalTimeAndTheLabel(label: String, name: TimerEvent.Name, shift: Int, text: String) {
        let event = TimerEvent(name: name, label: label, total: .seconds(90), remaining: .zero, at: t0)
        #expect(log(shift: shift).plain(event) == text)
    }

    @Test func plainLinesNeverLeadWithADuration() {
        let event = TimerEvent(name: .finished, label: "0:01", total: .seconds(1), remaining: .zero, at: t0)
        #expect(log().plain(event)?.hasPrefix("09:12:03 ") == true)
        #expect(log().line("4:00 left", label: "5m", at: t0) == "09:12:03 5m timer: 4:00 left")
    }

    @Test(arguments: [
        (Duration.seconds(300), "300"), (.milliseconds(1), "0.001"), (.nanoseconds(123), "0.000000123"), (.zero, "0"),
    ])
    func secondsAreExactDecimals(duration: Duration, text: String) {
        #expect(EventLog(clock: MonotonicClock()).seconds(duration) == text)
    }
}
