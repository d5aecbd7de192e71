package import TimerText

/// A timer record that no running process owns: the timer was killed (SIGTERM, `kill -9`) or an
/// earlier boot ended it, and `eggtimer recover` can still bring it back.
///
/// `eggtimer status` lists these beside the running timers, with the two ways out: `eggtimer
/// recover`, or `eggtimer cancel LABEL`, which forgets one. A value; its initializers are pure
/// but for reading the clocks through ``ResumePlan`` (the executable lists the kept records).
package struct KeptRecord: Equatable {
    /// How the timer's process ended, as far as its record tells.
    package enum Ending: Equatable {
        /// A signal ended it and kept the record (`SIGTERM`: `kill PID`, `systemctl stop`).
        case signal(String)
        /// Its process is gone without a word, in this boot (`kill -9`, a crash).
        case processGone
        /// It was written in an earlier boot (a power cut, a reboot).
        case earlierBoot

        /// For the table: `ended by SIGTERM`, `process gone`, `earlier boot`.
        package var text: String {
            switch self {
            case .signal(let name): "ended by \(name)"
            case .processGone: "process gone"
            case .earlierBoot: "earlier boot"
            }
        }

        /// For JSON: `SIGTERM`, `gone`, `reboot`.
        package var word: String {
            switch self {
            case .signal(let name): name
            case .processGone: "gone"
            case .earlierBoot: "reboot"
            }
        }
    }

    /// The timer's label.
    package var label: String
    /// The record's file name in the state folder (`tea.timer`).
    package var name: String
    /// The process that last wrote it.
    package var pid: Int32
    /// The state it was in (`counting`, `paused`, `snoozed`, `ringing`).
    package var state: String
    package var ending: Ending
    /// The time left at `now`: the deadline ahead, or a paused timer's time left; zero when overdue.
    package var remaining: Duration
    /// How long ago the deadline passed at `now`; nil when it has not (or the timer is paused).
    package var overdue: Duration?
    /// The deadline as milliseconds since the Unix epoch; nil while paused.
    package var deadlineUnixMilliseconds: Int64?

    /// Describes `record` as a resumption plan (``ResumePlan``) places it on this boot's clock.
    /// - Parameters:
    ///   - record: The record as read.
    ///   - name: Its file name.
    ///   - afterReboot: Whether the record was written in an earlier boot (or its boot is unknown).
    ///   - deadline: The recorded deadline on this boot's clock; nil when paused.
    ///   - overdue: How long ago the deadline passed at `now`; nil when it has not (or paused).
    ///   - now: The boot clock now.
    package init(
        record: TimerRecord, name: String, afterReboot: Bool, deadline: ContinuousClock.Instant?, overdue: Duration?,
        now: ContinuousClock.Instant
    ) {
        (label, self.name, pid, state) = (record.label, name, record.pid, record.state.rawValue)
        ending = afterReboot ? .earlierBoot : record.ended.map(Ending.signal) ?? .processGone
        self.overdue = overdue
        if let deadline {
            remaining = overdue == nil ? now.duration(to: deadline) : .zero
        } else {
            remaining = record.remaining ?? record.total
        }
        deadlineUnixMilliseconds = record.deadlineUnixNanoseconds.map { $0 / 1_000_000 }
    }

    /// Describes `record`, placed on this boot's clock by ``ResumePlan``.
    ///
    /// Pure but for reading the clocks through ``ResumePlan``.
    /// - Parameters:
    ///   - record: The record as read.
    ///   - name: Its file name.
    ///   - bootID: This boot's id (``BootClock/bootID()``); nil when unknown (taken as a reboot).
    ///   - now: The boot clock now.
    ///   - wall: The wall clock now, which judges a record from an earlier boot.
    package init(
        record: TimerRecord, name: String, bootID: String?, now: ContinuousClock.Instant,
        wall: WallInstant = AlarmRecovery.wallNow()
    ) {
        let plan = ResumePlan(record: record, bootID: bootID)
        self.init(
            record: record, name: name, afterReboot: plan.afterReboot, deadline: plan.deadline,
            overdue: plan.overdue(at: now, wall: wall), now: now)
    }
}
