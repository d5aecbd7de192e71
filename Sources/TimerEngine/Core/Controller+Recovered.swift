import TimerCore
package import TimerText

extension Controller {
    /// A countdown recovered after a reboot, while it follows its wall-clock deadline (until it
    /// rings, or the user pauses, restarts or moves it): see ``RecoveredDeadline``.
    package struct Recovered: Equatable {
        /// The deadline, its floor as of ``since``.
        package var deadline: RecoveredDeadline
        /// The boot-clock instant it was resumed at: the floor moves on with the boot clock from it
        /// (real time passes whatever the wall clock says).
        package var since: Instant
        /// Whether it is held: late by more than ``limit`` by a clock not synchronised, so neither
        /// rung nor dropped until the clock is set.
        package var held = false
        /// A deadline later than this is only reported (``Recover/overdueLimit``).
        package var limit: Duration
    }

    /// How often the kernel's clock discipline is looked at while a recovered countdown follows an
    /// unsynchronised clock: NTP may slew a clock that is nearly right, and a slew wakes no timer.
    package static let syncCheck: Duration = .seconds(1)

    /// A wall-clock instant far ahead (2116): the wall-clock timer of a held countdown is armed
    /// there only so that the clock being set wakes the loop.
    package static let wakeOnSetOnly = WallInstant(unixNanoseconds: Int64.max / 2)

    /// Places the recovered countdown's deadline on the boot clock from the wall clock.
    ///
    /// The wall clock reads `wall` at `now`, taken no earlier than the record's last write: it rings when due (at once when
    /// late by at most the limit), is held while late by more by an unsynchronised clock, and is
    /// only reported (`missed`, `overdue_ms`, `dropped`) and ended when late by more by a
    /// synchronised one. A held countdown logs `clock` with `held` once.
    /// - Parameters:
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now.
    package mutating func placeRecovered(at now: Instant, wall: WallInstant) {
        guard var recovered, case .counting(var counting) = mode, let old = counting.run.countdown.deadline else {
            return
        }
        var deadline = recovered.deadline
        deadline.floor = deadline.floor?.advanced(by: recovered.since.duration(to: now))
        switch deadline.place(wall: wall, synchronised: clockSynchronised, limit: recovered.limit) {
        case .due(let left, _):
            recovered.held = false
            self.recovered = recovered
            let deadline = now.advanced(by: left)
            guard deadline != old else { return }
            let total = max(.nanoseconds(1), counting.run.countdown.total + old.duration(to: deadline))
            counting.run.countdown = Self.countdown(endingAt: deadline, total: total)
            disarm(&counting)
            mode = .counting(counting)
        case .held(let overdue):
            let wasHeld = recovered.held
            recovered.held = true
            self.recovered = recovered
            disarm(&counting)
            mode = .counting(counting)
            guard !wasHeld else { return }
            emit(
                event(
                    .clock, counting.run, at: now,
                    extra: [
                        ("clock", .text("unsynchronised")), ("held", .text("overdue")),
                        ("overdue_ms", .integer(overdue.nanoseconds / 1_000_000)),
                    ]))
        case .dropped(let overdue):
            self.recovered = nil
            disarm(&counting)
            emit(
                event(
                    .missed, counting.run, at: now,
                    extra: [("overdue_ms", .integer(overdue.nanoseconds / 1_000_000)), ("by", .text("overdue"))]))
            leave(.missed, at: now)
        }
    }

    /// When the loop's wall-clock timer (cancelled when the clock is set) must fire for a
    /// recovered countdown: its boot deadline as the wall clock reads now, or far ahead while held
    /// (armed only to wake on a set); nil when none follows the wall clock.
    package var recoveredWallDeadline: WallInstant? {
        guard let recovered, case .counting(let counting) = mode, let reading = wallReading,
            let deadline = counting.run.countdown.deadline
        else { return nil }
        return recovered.held ? Self.wakeOnSetOnly : reading.wall(at: deadline)
    }
}
