import Testing
import TimerEngineTestSupport
import TimerText

@testable import TimerEngine

/// A countdown recovered after a reboot on a machine without a real-time clock (a Raspberry Pi).
///
/// It follows its recorded wall-clock deadline until it rings, takes the record's last write as a
/// floor for now, and is neither rung nor dropped as overdue while the clock is unsynchronised.
/// All on injected clocks; nothing sets the machine's clock.
@Suite struct RecoveredClockTests {
    let boot = ContinuousClock.now
    /// 2026-11-30 10:00 UTC: when the record was last written, before the power cut.
    let written = WallInstant(unixSeconds: 1_796_032_800)

    /// The events among `effects`.
    private func events(_ effects: [Effect]) -> [TimerEvent] {
        effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    /// A controller resuming a 20-minute countdown whose recorded deadline is `deadline`,
    /// started at (`boot`, `wall`) with the wall clock `synchronised` or not.
    private func resumed(
        deadline: WallInstant, wall: WallInstant, synchronised: Bool, floor: WallInstant? = nil
    ) -> (Controller, [Effect]) {
        let overdue = RecoveredDeadline(deadline: deadline, floor: floor ?? written).overdue(wall: wall)
        let resumption = Controller.Resumption(
            kind: .plain, label: "tea", total: .seconds(1200), phase: .running(deadline: boot), overdue: overdue,
            afterReboot: true, wallDeadline: RecoveredDeadline(deadline: deadline, floor: floor ?? written),
            clockSynchronised: synchronised)
        var controller = Controller(configuration: .init(), start: .resumed(resumption))
        let effects = controller.start(at: boot, wall: wall)
        return (controller, effects)
    }

    @Test func aStepOfTheWallClockMovesARecoveredCountdown() {
        // Booted with the clock as saved at shutdown; the deadline is 10 min after that reading.
        let deadline = written.advanced(by: .seconds(600))
        var (timer, _) = resumed(deadline: deadline, wall: written, synchronised: false)
        #expect(timer.currentRun?.countdown.deadline == boot + .seconds(600))
        // The loop arms a CLOCK_REALTIME timer, cancelled on set, at the deadline as the wall reads it.
        #expect(timer.wallDeadline == deadline)

        // 30 s later NTP steps the clock 4 min forward (the Pi was off 4 min): 5.5 min are left.
        let now = boot + .seconds(30)
        _ = timer.handle(round: [.tick], at: now, wall: written.advanced(by: .seconds(30 + 240)))
        #expect(timer.currentRun?.countdown.deadline == boot + .seconds(360))
        #expect(timer.wallDeadline == deadline)
        // Still unsynchronised: the kernel's clock discipline is looked at each second (a slew wakes nothing).
        #expect(timer.nextWake(at: now) == now + Controller.syncCheck)
    }

    @Test func aWallClockBeforeTheLastWriteIsTakenAsTheLastWrite() {
        // Booted in 1970 (no saved time): the floor says at least `written`, so 10 min at most.
        let deadline = written.advanced(by: .seconds(600))
        var (timer, effects) = resumed(deadline: deadline, wall: WallInstant(unixSeconds: 5), synchronised: false)
        #expect(timer.currentRun?.countdown.deadline == boot + .seconds(600))
        #expect(!events(effects).contains { $0.name == .missed || $0.name == .finished })

        // A step that still reads before the floor keeps the deadline (real time went on).
        _ = timer.handle(round: [.tick], at: boot + .seconds(60), wall: WallInstant(unixSeconds: 86_400))
        #expect(timer.currentRun?.countdown.deadline == boot + .seconds(600))

        // NTP sets the real time 2 min later: 3 min after the last write, so 7 min are left.
        let now = boot + .seconds(120)
        _ = timer.handle(round: [.tick], at: now, wall: written.advanced(by: .seconds(180)))
        #expect(timer.currentRun?.countdown.deadline == now + .seconds(420))
    }

    @Test func anUnsynchronisedClockHoldsWhatLooksOverdueThenTheSetClockDecides() {
        // The clock reads 3 h after the deadline, but is not synchronised: held, not dropped.
        let deadline = written.advanced(by: .seconds(600))
        let wrong = deadline.advanced(by: .seconds(3 * 3600))
        var (timer, started) = resumed(deadline: deadline, wall: wrong, synchronised: false)
        #expect(!events(started).contains { $0.name == .missed || $0.name == .finished })
        let held = events(started).first { $0.name == .clock }
        #expect(held?.extra.contains { $0.key == "held" } == true)
        #expect(timer.recovered?.held == true)
        #expect(timer.wallDeadline == Controller.wakeOnSetOnly)  // armed to wake on a set only
        #expect(timer.nextWake(at: boot) == boot + Controller.syncCheck)
        if case .counting = timer.mode {} else { Issue.record("not counting: \(timer.mode)") }

        // Time passes, still unsynchronised: nothing rings.
        let later = timer.handle(round: [.tick], at: boot + .seconds(5), wall: wrong.advanced(by: .seconds(5)))
        #expect(!events(later).contains { $0.name == .finished || $0.name == .missed })

        // The clock is set: it was 2 min after the last write, so the deadline is 8 min ahead.
        let now = boot + .seconds(10)
        _ = timer.handle(round: [.tick], at: now, wall: written.advanced(by: .seconds(120)))
        let synced = timer.observe(clockSynchronised: true, at: now)
        #expect(events(synced).map(\.name) == [.clock])
        #expect(timer.recovered?.held == false)
        #expect(timer.currentRun?.countdown.deadline == now + .seconds(480))
        let rung = timer.handle(round: [.tick], at: now + .seconds(480), wall: written.advanced(by: .seconds(600)))
        #expect(events(rung).map(\.name).contains(.finished))
        #expect(timer.recovered == nil)
        #expect(timer.wallDeadline == nil)
    }

    @Test func aHeldCountdownStillLateWhenTheClockIsSynchronisedIsOnlyReported() {
        let deadline = written.advanced(by: .seconds(600))
        let late = deadline.advanced(by: .seconds(3 * 3600))
        var (timer, _) = resumed(deadline: deadline, wall: late, synchronised: false)
        let effects = timer.observe(clockSynchronised: true, at: boot + .seconds(1))
        #expect(events(effects).map(\.name) == [.clock, .missed])
        #expect(effects.last == .exit(.missed))
    }

    @Test func aSynchronisedClockDropsWhatIsMoreThanAnHourLate() {
        let deadline = written.advanced(by: .seconds(600))
        let (_, effects) = resumed(deadline: deadline, wall: deadline.advanced(by: .seconds(7200)), synchronised: true)
        #expect(events(effects).map(\.name) == [.started, .missed])
        #expect(effects.last == .exit(.missed))
    }

    @Test func pausingARecoveredCountdownTakesItOffTheWallClock() {
        let deadline = written.advanced(by: .seconds(600))
        var (timer, _) = resumed(deadline: deadline, wall: written, synchronised: true)
        _ = timer.handle(.key(.character(" ")), at: boot + .seconds(1))
        _ = timer.handle(.key(.character(" ")), at: boot + .seconds(2))
        #expect(timer.recovered == nil)
        #expect(timer.wallDeadline == nil)
        // A later step no longer moves it.
        _ = timer.handle(round: [.tick], at: boot + .seconds(3), wall: written.advanced(by: .seconds(300)))
        #expect(timer.currentRun?.countdown.deadline == boot + .seconds(601))
    }

    /// (deadline − last write, wall − last write, synchronised, expected), in seconds.
    static let placements: [(Int64, Int64, Bool, RecoveredDeadline.Placement)] = [
        (600, 0, true, .due(in: .seconds(600), overdue: nil)),
        (600, -1_000_000, false, .due(in: .seconds(600), overdue: nil)),  // before the floor
        (600, 1200, true, .due(in: .zero, overdue: .seconds(600))),
        (600, 600 + 7200, true, .dropped(overdue: .seconds(7200))),
        (600, 600 + 7200, false, .held(overdue: .seconds(7200))),
        (600, 600 + 3600, false, .due(in: .zero, overdue: .seconds(3600))),
    ]

    @Test(arguments: placements)
    func placement(_ row: (Int64, Int64, Bool, RecoveredDeadline.Placement)) {
        let (ahead, wall, synchronised, expected) = row
        let recovered = RecoveredDeadline(
            deadline: written.advanced(by: .seconds(ahead)), floor: written)
        #expect(
            recovered.place(
                wall: written.advanced(by: .seconds(wall)), synchronised: synchronised, limit: .seconds(3600))
                == expected)
    }
}
