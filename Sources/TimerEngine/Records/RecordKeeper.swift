package import AlarmAudio
import Glibc
import SystemKit
package import TimerCore
package import TimerModel
package import TimerText

/// Keeps this process's timer record (``TimerRecord``) in step with its controller: written when
/// a timer starts and whenever its deadline or state changes, removed when it ends; kept when
/// SIGTERM or SIGHUP ends the process, so `eggtimer recover` can start it again.
///
/// ``update(_:schedule:recoveredDeadline:clock:)`` runs once per loop round and compares a small snapshot, so an unchanged
/// timer costs two clock reads and no I/O. A write blocks for an `fsync` (see ``RecordStore``).
/// Owned by the event loop's thread.
package struct RecordKeeper {
    /// What the record says that can change while the timer runs.
    package struct Snapshot: Equatable {
        package var label: String
        package var kind: TimerRecord.Kind
        package var total: Duration
        package var state: TimerRecord.State
        package var deadline: ContinuousClock.Instant?
        package var left: Duration?
        /// An alarm at a time's schedule.
        package var schedule: ScheduleRecord?
    }

    private let store: RecordStore
    /// This process's record file name (from its control socket's label).
    package let name: String
    private let alarm: TimerRecord.Alarm
    /// The broker options to record (``recordedBus(_:)``); nil without `--mqtt`.
    private let bus: BusOptions?
    private let presets: [Preset]
    private let bootID: String
    /// This process's start time (``ProcessState/startTime(of:)``), recorded beside its pid.
    private let pidStart = ProcessState.startTime(of: getpid())
    /// What the file holds now; nil when there is none, or when the last write failed (then
    /// an older record may still be there: see ``mayExist``).
    private var written: Snapshot?
    /// Whether a record may be on disk.
    ///
    /// Set by every write tried, whether or not it succeeded (a failed write leaves the record
    /// before it), cleared once it is removed. Removing never depends on the last write having
    /// succeeded.
    private var mayExist = false
    /// The record last written, rewritten with the ending signal by ``end(keepingFor:)``.
    private var writtenRecord: TimerRecord?
    /// The wall clock's offset from the boot clock when last written (nanoseconds): a step of
    /// more than a second rewrites the UTC deadline.
    private var writtenOffset: Int64 = 0
    /// The record this process was resumed from, when it has another name: removed once this
    /// process's own record is written.
    private var takeover: String?
    private var warned = false
    /// Says a warning on one line (the executable's standard error).
    private let warn: (String) -> Void

    /// A keeper writing `name` in `store` (the executable's `open(label:options:resumedFrom:)`
    /// makes one for this process; a test passes a store with an injected write failure).
    /// - Parameters:
    ///   - store: The state folder.
    ///   - name: The record's file name (``RecordStore/fileName(label:)``).
    ///   - alarm: The options that ring the timer, as recorded.
    ///   - bus: The broker options to record (``recordedBus(_:)``); nil without `--mqtt`.
    ///   - presets: The presets, for an egg's title.
    ///   - bootID: This boot's id.
    ///   - takeover: The record this process was resumed from, when it has another name.
    ///   - warn: Says a warning on one line (standard error); a failed write is said once.
    package init(
        store: RecordStore, name: String, alarm: TimerRecord.Alarm, bus: BusOptions?, presets: [Preset],
        bootID: String, takeover: String? = nil, warn: @escaping (String) -> Void = { _ in }
    ) {
        (self.store, self.name, self.alarm, self.bus, self.presets, self.bootID, self.takeover, self.warn) =
            (store, name, alarm, bus, presets, bootID, takeover, warn)
    }

    /// The broker options as a record keeps them.
    ///
    /// So that the recovered timer rejoins the same topics from wherever `recover` runs: the node
    /// the topics use now (`--node`, else the host name) and the files as absolute paths. The
    /// password is never in them.
    /// - Parameter bus: The command line's (and config file's) MQTT options.
    /// - Returns: nil without `--mqtt`.
    package static func recordedBus(_ bus: BusOptions) -> BusOptions? {
        guard bus.url != nil else { return nil }
        var recorded = bus
        recorded.node = bus.nodeName
        recorded.caFile = bus.caFile.map(absolutePath)
        recorded.passwordFile = bus.passwordFile.map(absolutePath)
        return recorded
    }

    /// `path` made absolute against the working folder (``absoluteBytes(_:)``).
    package static func absolutePath(_ path: String) -> String {
        String(decoding: absoluteBytes(Array(path.utf8)), as: UTF8.self)
    }

    /// The sound file made absolute against the working folder, its bytes kept as they are: a
    /// timer recovered by `eggtimer recover` runs in another folder.
    package static func absoluteSound(_ path: SoundFilePath) -> SoundFilePath {
        SoundFilePath(bytes: absoluteBytes(path.bytes))
    }

    /// `path` (bytes) made absolute against the working folder.
    ///
    /// Unchanged when already absolute or empty, or when the folder cannot be had. C: `getcwd`.
    private static func absoluteBytes(_ path: [UInt8]) -> [UInt8] {
        guard path.first != UInt8(ascii: "/"), !path.isEmpty, let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        let base = Array(String(cString: folder).utf8)
        return base + (base.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + path
    }

    /// Writes, rewrites or removes the record to match the round's snapshot (nothing when
    /// unchanged; nothing once the timer is over, which ``end(keepingFor:)`` settles): what
    /// ``plan(_:schedule:recoveredDeadline:offset:clock:)`` asks for, carried out by ``perform(_:)``.
    /// - Parameters:
    ///   - timer: The round's snapshot (``Controller/snapshot(at:wall:)``).
    ///   - schedule: An alarm at a time's schedule as recorded (resumption-only data); nil for none.
    ///   - recoveredDeadline: A countdown recovered after a reboot, while it follows it: its
    ///     recorded UTC deadline, kept as it is; nil otherwise.
    ///   - clock: Maps the boot deadline to CLOCK_BOOTTIME nanoseconds.
    package mutating func update(
        _ timer: TimerSnapshot, schedule: ScheduleRecord?, recoveredDeadline: WallInstant?, clock: MonotonicClock
    ) {
        let step = plan(
            timer, schedule: schedule, recoveredDeadline: recoveredDeadline, offset: WallClock.system.offset(),
            clock: clock)
        if let step { perform(step) }
    }

    /// What to do on disk to bring the record in step with the round's snapshot (no I/O):
    /// ``Change`` decided by ``change(to:written:mayExist:offset:writtenOffset:)``, with the record to write.
    /// - Parameters:
    ///   - timer: The round's snapshot (``Controller/snapshot(at:wall:)``).
    ///   - schedule: An alarm at a time's schedule as recorded (resumption-only data); nil for none.
    ///   - recoveredDeadline: A countdown recovered after a reboot, while it follows it: its
    ///     recorded UTC deadline, kept as it is; nil otherwise.
    ///   - offset: The wall clock's offset from the boot clock now, in nanoseconds
    ///     (``WallClock/offset()``).
    ///   - clock: Maps the boot deadline to CLOCK_BOOTTIME nanoseconds.
    /// - Returns: The step for ``perform(_:)``; nil when the record is as it should be.
    package func plan(
        _ timer: TimerSnapshot, schedule: ScheduleRecord?, recoveredDeadline: WallInstant?, offset: Int64,
        clock: MonotonicClock
    ) -> Step? {
        let snapshot = Self.snapshot(timer, schedule: schedule)
        switch Self.change(
            to: snapshot, written: written, mayExist: mayExist, offset: offset, writtenOffset: writtenOffset,
            final: timer.state.isFinal)
        {
        case .unchanged: return nil
        case .remove: return .remove
        case .write:
            guard let snapshot else { return nil }
            let deadline = snapshot.deadline.map { clock.nanoseconds($0) }
            let record = TimerRecord(
                label: snapshot.label, kind: snapshot.kind, total: snapshot.total, state: snapshot.state,
                deadlineBootNanoseconds: deadline,
                // A countdown recovered after a reboot keeps its recorded UTC deadline while it follows it.
                deadlineUnixNanoseconds: recoveredDeadline?.unixNanoseconds ?? deadline.map { $0 + offset },
                remaining: snapshot.left, bootID: bootID, pid: getpid(), pidStart: pidStart, alarm: alarm,
                schedule: snapshot.schedule,
                bus: bus)
            return .write(record, snapshot, offset: offset)
        }
    }

    /// Carries out what ``plan(_:schedule:recoveredDeadline:offset:clock:)`` asked for: blocks for
    /// the write's `fsync`; a failed write is said once on standard error and tried again next round.
    /// - Parameter step: The write or the removal.
    package mutating func perform(_ step: Step) {
        switch step {
        case .remove:
            if mayExist { store.remove(name: name) }
            (written, mayExist) = (nil, false)
        case .write(let record, let snapshot, let offset):
            mayExist = true
            do {
                try store.write(record, name: name)
                (written, writtenOffset, writtenRecord) = (snapshot, offset, record)
                if let takeover {
                    unlink(takeover)
                    self.takeover = nil
                }
            } catch {
                written = nil
                if !warned {
                    warn("eggtimer: warning: cannot record the timer: \(error); it will not survive a restart")
                }
                warned = true
            }
        }
    }

    /// The signals whose end keeps a timer's record for `eggtimer recover` (by name: a reboot or
    /// `systemctl stop` sends SIGTERM, a closed SSH session SIGHUP); SIGINT and SIGQUIT (Ctrl-C,
    /// Ctrl-\ at its terminal) end it for good.
    package static let keptBy: Set<String> = ["SIGTERM", "SIGHUP"]

    /// The process is ending: removes the record, unless `signal` ended it (`SIGTERM`): then the
    /// record stays, saying so (`ended=SIGTERM`, for `eggtimer status`).
    /// - Parameter signal: The name of the signal that ends the process and keeps the record;
    ///   nil to remove it.
    /// - Returns: Whether a record stays behind for `eggtimer recover`.
    @discardableResult
    package mutating func end(keepingFor signal: String?) -> Bool {
        if let signal {
            // The last record written stays (an older one if a later write failed): say why.
            guard mayExist, var record = writtenRecord else { return false }
            record.ended = signal
            try? store.write(record, name: name)  // the record stays either way; this only says why
            return true
        }
        store.remove(name: name)  // whatever the last write did: an acknowledged alarm never comes back
        if let takeover { unlink(takeover) }
        (written, takeover, mayExist) = (nil, nil, false)
        return false
    }

    /// What a record of the timer in `timer` would say; nil when no timer runs (the menu, the end).
    /// - Parameters:
    ///   - timer: The round's snapshot.
    ///   - schedule: An alarm at a time's schedule as recorded; nil for none.
    /// - Returns: The record's changing part; nil in the menu and once the timer is over.
    package static func snapshot(_ timer: TimerSnapshot, schedule: ScheduleRecord?) -> Snapshot? {
        let state: TimerRecord.State
        switch timer.state {
        case .counting: state = .counting
        case .paused: state = .paused
        case .snoozed: state = .snoozed
        case .ringing, .silent: state = .ringing
        case .menu, .done, .cancelled, .missed: return nil
        }
        let kind: TimerRecord.Kind
        switch timer.kind {
        case .egg(let name)?: kind = .egg(name)
        case .pomodoro?: kind = .pomodoro
        case .plain?, .alarm?, nil: kind = .plain
        }
        return Snapshot(
            label: timer.runLabel ?? timer.label, kind: kind, total: timer.total, state: state,
            deadline: timer.deadline, left: timer.deadline == nil ? timer.remaining : nil, schedule: schedule)
    }
}
