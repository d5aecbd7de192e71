/// The pomodoro technique as a pure state machine: work, a short break, and a long break after every
/// `longBreakAfter` completed pomodori; `sets` such cycles, then done.
///
/// Each set is `longBreakAfter` work intervals, a short break after each but the last, and one long
/// break at the end: with the defaults, work/short/work/short/work/short/work/long. Only a completed
/// work interval counts towards the long break; a skipped one does not.
public struct Pomodoro: Sendable, Equatable {
    /// The kind of interval.
    public enum Phase: String, Sendable, Equatable {
        case work = "work"
        case shortBreak = "short break"
        case longBreak = "long break"
    }

    /// Interval lengths and counts.
    public struct Plan: Sendable, Equatable {
        /// Length of a work interval (default 25 min).
        public var work: Duration
        /// Length of a short break (default 5 min).
        public var shortBreak: Duration
        /// Length of a long break (default 15 min).
        public var longBreak: Duration
        /// Completed pomodori before a long break (default 4).
        public var longBreakAfter: Int
        /// Long-break cycles to run before finishing (default 1).
        public var sets: Int

        /// Creates a plan.
        /// - Precondition: every duration is positive; `longBreakAfter` and `sets` are at least 1.
        public init(
            work: Duration = .seconds(25 * 60), shortBreak: Duration = .seconds(5 * 60),
            longBreak: Duration = .seconds(15 * 60), longBreakAfter: Int = 4, sets: Int = 1
        ) {
            precondition(work > .zero && shortBreak > .zero && longBreak > .zero)
            precondition(longBreakAfter >= 1 && sets >= 1)
            (self.work, self.shortBreak, self.longBreak) = (work, shortBreak, longBreak)
            (self.longBreakAfter, self.sets) = (longBreakAfter, sets)
        }

        /// The length of an interval of `phase`.
        public func duration(of phase: Phase) -> Duration {
            switch phase {
            case .work: work
            case .shortBreak: shortBreak
            case .longBreak: longBreak
            }
        }
    }

    /// The plan being followed.
    public let plan: Plan
    /// The current interval.
    public private(set) var phase: Phase = .work
    /// Completed pomodori in the current set (the tomato meter), `0..<plan.longBreakAfter`, or
    /// `plan.longBreakAfter` during the long break.
    public private(set) var completedInSet = 0
    /// Completed sets (long breaks finished).
    public private(set) var completedSets = 0
    /// Whether every set is done; then `phase` is meaningless.
    public private(set) var isDone = false

    /// Starts at the first work interval of the first set.
    public init(plan: Plan) { self.plan = plan }

    /// Whether the current interval is the plan's last: the long break of the last set.
    public var isLastInterval: Bool { phase == .longBreak && completedSets + 1 >= plan.sets }

    /// The length of the current interval.
    public var duration: Duration { plan.duration(of: phase) }

    /// Moves to the next interval after the current one ended.
    /// - Parameter skipped: `true` when the interval was skipped rather than run to the end; a
    ///   skipped work interval does not count, so it is followed by a short break and never
    ///   brings the long break closer.
    /// - Returns: The new phase, or `nil` when the last long break ended and the plan is done.
    @discardableResult
    public mutating func advance(skipped: Bool = false) -> Phase? {
        precondition(!isDone, "advance after the plan is done")
        switch phase {
        case .work:
            if !skipped { completedInSet += 1 }
            phase = completedInSet >= plan.longBreakAfter ? .longBreak : .shortBreak
        case .shortBreak:
            phase = .work
        case .longBreak:
            completedSets += 1
            completedInSet = 0
            if completedSets >= plan.sets {
                isDone = true
                return nil
            }
            phase = .work
        }
        return phase
    }
}
