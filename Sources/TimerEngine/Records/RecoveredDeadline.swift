package import TimerText

/// The deadline of a countdown recovered after a reboot, as the wall clock (UTC) reads it: the
/// boot clock of the boot that recorded it is gone, so until it rings the countdown follows the
/// wall clock as an alarm at a time does (CLOCK_REALTIME, cancelled when the clock is set).
///
/// A Raspberry Pi has no real-time clock: it boots with the time saved at its last shutdown (or
/// 1970) and NTP sets the clock later. So the wall clock is judged with two facts:
/// - the record's last write time is a floor for "now": a wall clock reading earlier than it is
///   known wrong, and the floor is taken instead (the countdown then rings no later than it
///   should, and is placed again when the clock is set);
/// - while the kernel says the clock is unsynchronised, a deadline that looks more than
///   ``overdueLimit`` late is not dropped but held, and decided once the clock is set.
///
/// A plain value; pure (the wall clock and the synchronisation are passed in).
package struct RecoveredDeadline: Equatable, Sendable {
    /// Where the deadline stands at a wall-clock reading.
    package enum Placement: Equatable {
        /// Rings after `left` (zero: at once, also when late by at most the limit).
        case due(in: Duration, overdue: Duration?)
        /// Late by `overdue`, more than the limit, by a clock that is not synchronised: neither
        /// rung nor dropped until the clock is set.
        case held(overdue: Duration)
        /// Late by `overdue`, more than the limit, by a synchronised clock: only reported.
        case dropped(overdue: Duration)
    }

    /// A deadline that passed longer ago than this is not rung (`eggtimer recover`'s limit: 1 h).
    package static let overdueLimit = Duration.seconds(3600)

    /// The recorded deadline (`deadline_unix_ns`).
    package var deadline: WallInstant
    /// When the record was last written, by the wall clock then (its modification time); nil
    /// when unknown.
    package var floor: WallInstant?

    /// A recorded deadline and the floor of "now" (the memberwise initializer, for the
    /// executable's resume plan).
    package init(deadline: WallInstant, floor: WallInstant?) { (self.deadline, self.floor) = (deadline, floor) }

    /// What "now" is taken to be when the wall clock reads `wall`: never earlier than ``floor``.
    /// - Parameter wall: The wall clock now.
    /// - Returns: The later of `wall` and the floor.
    package func now(wall: WallInstant) -> WallInstant { max(wall, floor ?? wall) }

    /// How long ago the deadline passed when the wall clock reads `wall`; nil when it has not.
    /// - Parameter wall: The wall clock now.
    /// - Returns: The lateness, more than zero; nil when not late.
    package func overdue(wall: WallInstant) -> Duration? {
        let late = deadline.duration(to: now(wall: wall))
        return late > .zero ? late : nil
    }

    /// Where the deadline stands when the wall clock reads `wall`.
    /// - Parameters:
    ///   - wall: The wall clock now.
    ///   - synchronised: Whether the kernel says the wall clock is synchronised
    ///     (``ClockSync/isSynchronised()``).
    ///   - limit: A deadline later than this is not rung (``overdueLimit``).
    /// - Returns: The placement.
    package func place(wall: WallInstant, synchronised: Bool, limit: Duration) -> Placement {
        guard let overdue = overdue(wall: wall) else {
            return .due(in: now(wall: wall).duration(to: deadline), overdue: nil)
        }
        guard overdue > limit else { return .due(in: .zero, overdue: overdue) }
        return synchronised ? .dropped(overdue: overdue) : .held(overdue: overdue)
    }
}
