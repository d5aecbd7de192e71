import ControlChannel
import Glibc
import SystemKit
import TimerEngine
import TimerText

// The executable's side of kept records: listed by `status` beside the running timers and
// forgotten by `cancel LABEL` (a live writer is judged by `Recover`).

extension KeptRecord {
    /// The kept records in `store`.
    ///
    /// Every readable record whose timer is not among `running` (by label or pid) and, in this
    /// boot, whose process is not a live eggtimer. Unreadable records are left out (`eggtimer
    /// recover` says why).
    /// - Parameters:
    ///   - store: The state folder.
    ///   - running: The running timers that answered on their sockets.
    ///   - bootID: This boot's id.
    ///   - now: The boot clock now.
    /// - Returns: The records, sorted by file name.
    /// - Complexity: One file read per record, one `/proc` look per record of this boot.
    static func list(
        in store: RecordStore, running: [TimerStatus], bootID: String?, now: ContinuousClock.Instant
    ) -> [KeptRecord] {
        store.names().compactMap { name in
            guard let record = try? RecordStore.read(path: store.folder + "/" + name) else { return nil }
            if running.contains(where: { LabelRule.same($0.label, record.label) || $0.pid == record.pid }) {
                return nil
            }
            if record.bootID == bootID, Recover.writerRuns(record) { return nil }
            return KeptRecord(record: record, name: name, bootID: bootID, now: now)
        }
    }

    /// How ``unlisted(in:running:folder:bootID:only:)``'s line of timers running without a control socket starts.
    static let socketlessPrefix = "running without a control socket: "

    /// What `status` says of the records that are neither a running timer's nor kept: timers that
    /// run without a control socket (the record's writer runs, yet no socket of its label is in
    /// `folder`: a runtime folder too deep or refused), and records that cannot be read.
    ///
    /// A record whose socket is there is not socketless: its timer is stopped or hung (the survey
    /// says so) or ending; a starting timer binds its socket before it writes its record.
    /// - Parameters:
    ///   - store: The state folder.
    ///   - running: The running timers that answered on their sockets.
    ///   - folder: The runtime folder; looked at after each record is read.
    ///   - bootID: This boot's id.
    ///   - label: Only the record of this label (by its socket name), when given.
    /// - Returns: Up to two lines, without newlines; none when there is nothing to say.
    /// - Complexity: One file read per record, one `/proc` look per record of this boot.
    static func unlisted(
        in store: RecordStore, running: [TimerStatus], folder: String, bootID: String?, only label: String? = nil
    ) -> [String] {
        var socketless: [String] = []
        var unreadable: [String] = []
        for name in store.names() {
            guard let record = try? RecordStore.read(path: store.folder + "/" + name) else {
                unreadable.append(name.escapingControlCharacters)
                continue
            }
            if running.contains(where: { LabelRule.same($0.label, record.label) || $0.pid == record.pid }) { continue }
            if let label, !LabelRule.same(record.label, label) { continue }
            if record.bootID == bootID, Recover.writerRuns(record), !hasSocket(record.label, in: folder) {
                socketless.append("\(record.label.escapingControlCharacters) (pid \(record.pid))")
            }
        }
        var lines: [String] = []
        if !socketless.isEmpty {
            lines.append(
                Self.socketlessPrefix + "\(socketless.joined(separator: ", ")); "
                    + "`kill -USR1 PID` stops one's alarm")
        }
        if !unreadable.isEmpty {
            let count = unreadable.count == 1 ? "1 record" : "\(unreadable.count) records"
            lines.append(
                "\(count) cannot be read: \(unreadable.joined(separator: ", ")) (`eggtimer recover` says why)")
        }
        return lines
    }

    /// Whether a socket of `label` (by its key) is in `folder`, answering or not.
    ///
    /// C: `lstat`.
    private static func hasSocket(_ label: String, in folder: String) -> Bool {
        guard let path = try? ControlClient.socketPath(label: label, folder: folder)
        else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Forgets the kept record of the timer labelled `label` (the one of the same key,
    /// ``LabelRule/key(_:)``): `eggtimer cancel LABEL` for a timer that no longer runs.
    /// - Parameters:
    ///   - label: The label given.
    ///   - running: The running timers that answered (none of them is `label`).
    /// - Returns: The line to print and whether the record is gone (false: it could not be
    ///   removed, a read-only state folder); nil when no kept record has that label.
    static func forget(label: String, running: [TimerStatus]) -> (line: String, removed: Bool)? {
        guard let store = RecordStore.current() else { return nil }
        let kept = list(in: store, running: running, bootID: BootClock.bootID(), now: .now)
        guard let record = kept.first(where: { LabelRule.same($0.label, label) }) else { return nil }
        if let code = store.remove(name: record.name) {
            return (
                "\(record.label): not running, but its kept record cannot be removed (\(errorText(code))): "
                    + "`eggtimer recover` would start it again", false
            )
        }
        return ("\(record.label): not running; its kept record is removed: `eggtimer recover` will not start it", true)
    }
}
