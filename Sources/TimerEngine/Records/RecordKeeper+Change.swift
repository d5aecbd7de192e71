// Whether the timer's record must change this round: a pure decision on the round's record
// snapshot, what the file holds and the wall clock's offset, tested on its own.

extension RecordKeeper {
    /// What the record needs this round.
    package enum Change: Equatable {
        /// The file says what it should (or the timer is over: ``end(keepingFor:)`` settles it).
        case unchanged
        /// Write (or rewrite) the record.
        case write
        /// Remove the record (no timer runs: the menu).
        case remove
    }

    /// A record write or removal that ``RecordKeeper/perform(_:)`` carries out.
    package enum Step: Equatable {
        /// Write `record`, which says `snapshot`, made at the wall clock `offset` (nanoseconds).
        case write(TimerRecord, Snapshot, offset: Int64)
        /// Remove the record, if one may exist.
        case remove
    }

    /// How far the wall clock's offset may move before the record's UTC deadline is rewritten.
    package static let offsetTolerance: Int64 = 1_000_000_000

    /// Whether the record must change: written when `snapshot` differs from what the file holds
    /// (or the last write failed) or the wall clock stepped more than ``offsetTolerance`` since;
    /// removed when no timer runs and a record may exist; nothing once the timer is over.
    /// - Parameters:
    ///   - snapshot: What the record should say now; nil when no timer runs.
    ///   - written: What the file holds; nil for none, or after a failed write.
    ///   - mayExist: Whether a record may be on disk.
    ///   - offset: The wall clock's offset from the boot clock now, in nanoseconds.
    ///   - writtenOffset: The offset when the file was written, in nanoseconds.
    ///   - final: Whether the timer is over (done, cancelled, missed).
    /// - Returns: The change.
    package static func change(
        to snapshot: Snapshot?, written: Snapshot?, mayExist: Bool, offset: Int64, writtenOffset: Int64,
        final: Bool = false
    ) -> Change {
        if final { return .unchanged }
        guard let snapshot else { return mayExist ? .remove : .unchanged }
        let (step, overflow) = offset.subtractingReportingOverflow(writtenOffset)
        if snapshot == written, !overflow, step.magnitude <= offsetTolerance.magnitude { return .unchanged }
        return .write
    }
}
