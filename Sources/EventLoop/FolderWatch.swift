import Glibc
package import SystemKit

/// A folder watched through inotify as a source of the event loop: each file written and
/// closed in it, or renamed into it, becomes its name (the timer's `.fileWritten(name:)`).
///
/// A file written by rename (a record: a temporary file, then `rename(2)` over the name) shows
/// as `IN_MOVED_TO` at once, so a waiter needs no polling period. A full kernel queue
/// (`IN_Q_OVERFLOW`) becomes one nil: look at everything again. Once the folder is deleted (the
/// kernel drops the watch: `IN_IGNORED`) or, when asked for, moved away (`IN_MOVE_SELF`), nothing
/// more can come: ``isWatching`` turns false. Owned by the event loop's thread; not thread-safe.
/// Its descriptor closes with it.
package final class FolderWatch: LoopSource {
    /// The folder watched.
    package let folder: String
    private let descriptor: Int32
    /// Whether the watch still sees the folder at its path: false once it was deleted or moved.
    package private(set) var isWatching = true

    /// Watches `folder` for files written and closed (`IN_CLOSE_WRITE`) or renamed into it
    /// (`IN_MOVED_TO`), and with `creations` also for names created in it (`IN_CREATE`: a socket
    /// bound there, which is never written).
    ///
    /// Nil when the kernel refuses (no inotify, too many watches, no such folder): then the
    /// caller looks at the folder on a period instead.
    /// - Parameters:
    ///   - folder: An existing folder.
    ///   - creations: Whether a name created in it is said too.
    /// C: `inotify_init1` (nonblocking, close-on-exec), `inotify_add_watch`.
    package init?(folder: String, creations: Bool = false) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_ONLYDIR) | (creations ? UInt32(IN_CREATE) : 0)
        guard inotify_add_watch(fd, folder, events) >= 0 else {
            _ = close(fd)
            return nil
        }
        self.folder = folder
        descriptor = fd
    }

    deinit { _ = close(descriptor) }

    /// The inotify descriptor, always polled.
    package var pollRequests: [PollRequest] { [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] }

    /// Reads the queued events (up to ``readsPerRound`` reads) and says each file's name.
    ///
    /// Each name is an event; nil for a full kernel queue.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [String?]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<Self.readsPerRound {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            let records = Self.records(in: buffer[0..<count])
            if records.contains(where: { $0.mask & Self.watchEnds != 0 }) { isWatching = false }
            events += Self.names(of: records)
        }
    }

    /// The events after which the watch sees the folder no more: removed by the kernel
    /// (`IN_IGNORED`: the folder was deleted) or the folder moved (`IN_MOVE_SELF`).
    static let watchEnds = UInt32(IN_IGNORED | IN_MOVE_SELF)

    /// How many reads one round makes at most, so a flood of events cannot hold the loop.
    package static let readsPerRound = 16

    /// The names in a read's worth of `struct inotify_event` records (a 16-byte header: `wd`,
    /// `mask`, `cookie`, `len`, then `len` bytes of NUL-padded name); nil for a queue overflow.
    /// - Parameter bytes: Exactly what one `read` returned.
    /// - Returns: One entry per record with a name or an overflow, in order.
    package static func names(in bytes: ArraySlice<UInt8>) -> [String?] { names(of: records(in: bytes)) }

    /// What `records` say as events: each name, and nil for an overflow.
    private static func names(of records: [Record]) -> [String?] {
        var names: [String?] = []
        for record in records {
            if record.overflow {
                names.append(nil)
            } else if let name = record.name {
                names.append(name)
            }
        }
        return names
    }

    /// One `struct inotify_event` record: its mask, its name if it has one, and whether it says
    /// the kernel's queue overflowed.
    private struct Record {
        let mask: UInt32
        let name: String?
        var overflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }

    /// Each whole `struct inotify_event` record in a read's worth of bytes, in order.
    /// - Parameter bytes: Exactly what one `read` returned.
    /// - Returns: One entry per whole record.
    private static func records(in bytes: ArraySlice<UInt8>) -> [Record] {
        let header = MemoryLayout<inotify_event>.size
        var records: [Record] = []
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= header {
            let (mask, length) = bytes[offset..<offset + header].withUnsafeBytes { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                )
            }
            let nameStart = offset + header
            guard length >= 0, bytes.endIndex - nameStart >= length else { break }
            let name = bytes[nameStart..<nameStart + length].prefix { $0 != 0 }
            records.append(Record(mask: mask, name: length > 0 ? String(decoding: name, as: UTF8.self) : nil))
            offset = nameStart + length
        }
        return records
    }

    /// The events of the input folder that call for a keypad rescan (`KeyDevices.rescan()`): a
    /// node made (`IN_CREATE`) or removed (`IN_DELETE`), its access changed (`IN_ATTRIB`: udev
    /// grants it just after the node appears), a link renamed in (`IN_MOVED_TO`).
    package static let deviceChanges = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO)

    /// The events of a file leaving the folder: removed (`IN_DELETE`) or renamed away
    /// (`IN_MOVED_FROM`); the kitchen watches the records' folder for them (a timer forgotten).
    package static let removals = UInt32(IN_DELETE | IN_MOVED_FROM)

    /// Watches `folder` for `events`; each event with a name is said by its name, a full queue
    /// as nil.
    ///
    /// Nil when the kernel refuses (no inotify, too many watches, no such folder).
    /// - Parameters:
    ///   - folder: An existing folder.
    ///   - events: The inotify event mask: ``deviceChanges`` for a keypad's input folder,
    ///     ``removals`` for the records' folder.
    /// C: `inotify_init1` (nonblocking, close-on-exec), `inotify_add_watch`.
    package init?(folder: String, events: UInt32) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, folder, events | UInt32(IN_ONLYDIR)) >= 0 else {
            _ = close(fd)
            return nil
        }
        self.folder = folder
        descriptor = fd
    }
}
