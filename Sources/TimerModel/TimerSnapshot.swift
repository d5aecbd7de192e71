/// One timer as every front sees it: the only thing the screen, the JSON log, the control
/// socket's status and `watch`, the record, the MQTT state and discovery and `status --json` read.
///
/// Made by the controller after each round (``state`` in the shared vocabulary, times already
/// worked out at the round's instant); each front is a pure function from it to its bytes. A
/// plain value: any thread.
public struct TimerSnapshot: Equatable, Sendable {
    /// What the timer is for, which sets its titles.
    public enum Kind: Equatable, Sendable {
        /// An egg: the preset's name (`Soft`, `Medium`, `Hard`, or a configured one).
        case egg(String)
        /// A plain countdown (`eggtimer 90`, a time typed in the menu).
        case plain
        /// A pomodoro interval: its phase (`work`, `short break`, `long break`: TimerCore's `Pomodoro.Phase` raw values).
        case pomodoro(phase: String)
        /// An alarm at a time of day (`eggtimer at TIME`).
        case alarm
    }

    /// The device's health as the alarm sees it.
    ///
    /// While the timer runs, its device now; once it is over (a final ``TimerState``), whether its
    /// alarm was heard: ``silent(_:)`` then means it rang and reached no device (the exit status
    /// `unavailable`, 69).
    public enum DeviceHealth: Equatable, Sendable {
        /// Nothing known wrong (the device works, or has not been needed yet); once over, the
        /// alarm was heard or never rang.
        case ok
        /// The device fails, so the alarm is silent there (a ringing is ``TimerState/silent``; the
        /// fallback bell rings); once over, the alarm rang on no device. The text says why (one
        /// line: the device's last problem, `cannot open audio device 'NAME': REASON`).
        case silent(String)

        /// Why the alarm is (or was) silent; nil for ``ok``.
        public var silentReason: String? {
            guard case .silent(let reason) = self else { return nil }
            return reason
        }
    }

    /// An alarm at a time: what was asked for, for the fronts that show it.
    public struct Schedule: Equatable, Sendable {
        /// The occurrence armed, as local ISO 8601 with its UTC offset (`2026-11-30T07:00:00+01:00`;
        /// for a series, the next one).
        public var at: String
        /// A repeating alarm's `--every` as typed (`weekday`); nil for a single one.
        public var every: String?

        /// Creates a schedule.
        public init(at: String, every: String? = nil) { (self.at, self.every) = (at, every) }
    }

    /// A pomodoro's progress through its set: the tomato meter.
    public struct PomodoroProgress: Equatable, Sendable {
        /// Work intervals done in the current set, `0...perSet` (the one just ended counts while its
        /// alarm rings).
        public var done: Int
        /// Work intervals in a set (`--long-break-after`), at least 1.
        public var perSet: Int
        /// Whether this is the session's last interval (the last set's long break).
        public var isLast: Bool

        /// Creates a progress.
        public init(done: Int, perSet: Int, isLast: Bool) {
            (self.done, self.perSet, self.isLast) = (done, perSet, isLast)
        }
    }

    /// The state, in the shared vocabulary (``TimerState``).
    public var state: TimerState
    /// The timer's label (its control socket's name, its topics'); the process's label in the menu.
    public var label: String
    /// The run's own label, fixed at its start (the preset's name, the duration as typed): what
    /// its record restarts it under; differs from ``label`` for a timer picked from the menu
    /// (`menu-PID`); nil in the menu.
    public var runLabel: String?
    /// What the timer is for; nil in the menu.
    public var kind: Kind?
    /// The countdown's whole length (the snooze's, while snoozed).
    public var total: Duration
    /// The time left at the snapshot's instant (zero once it rings).
    public var remaining: Duration
    /// The deadline on the boot clock (CLOCK_BOOTTIME, `ContinuousClock`); nil while paused, in
    /// the menu, or once over.
    public var deadline: ContinuousClock.Instant?
    /// The deadline on the wall clock, in milliseconds since 1970-01-01T00:00:00Z (UTC); for an
    /// alarm at a time its scheduled time, exact, also while ringing; nil when ``deadline`` is nil
    /// and no time is scheduled.
    public var deadlineUnixMilliseconds: Int64?
    /// The alarm at a time's schedule; nil for a countdown.
    public var schedule: Schedule?
    /// The audio device's health (``DeviceHealth``: once over, whether the alarm was heard).
    public var device: DeviceHealth
    /// Whether the timer follows the wall clock and that clock is not synchronised (NTP).
    public var clockUnsynchronised: Bool
    /// Whether a hang-up took the timer's terminal (it counts and rings on headless).
    public var detached: Bool
    /// The process's id.
    public var pid: Int32
    /// A pomodoro's progress through its set; nil for any other timer.
    public var pomodoro: PomodoroProgress?
    /// The signal that ended the process, by name (`SIGTERM`), once over; nil while it runs or
    /// when it ended otherwise (done, cancelled by a command, missed).
    public var endedBy: String?
    /// The id of the start that made the timer (`--request-id`, given by the kitchen); nil
    /// otherwise.
    public var requestID: RequestID?

    /// Creates a snapshot.
    public init(
        state: TimerState, label: String, kind: Kind?, total: Duration, remaining: Duration,
        deadline: ContinuousClock.Instant?, deadlineUnixMilliseconds: Int64?, schedule: Schedule? = nil,
        device: DeviceHealth = .ok, clockUnsynchronised: Bool = false, detached: Bool = false, pid: Int32,
        runLabel: String? = nil, pomodoro: PomodoroProgress? = nil, endedBy: String? = nil,
        requestID: RequestID? = nil
    ) {
        (self.state, self.label, self.kind, self.total, self.remaining) = (state, label, kind, total, remaining)
        (self.deadline, self.deadlineUnixMilliseconds, self.schedule) = (deadline, deadlineUnixMilliseconds, schedule)
        (self.device, self.clockUnsynchronised, self.detached, self.pid) = (device, clockUnsynchronised, detached, pid)
        (self.runLabel, self.pomodoro, self.endedBy, self.requestID) = (runLabel, pomodoro, endedBy, requestID)
    }
}
