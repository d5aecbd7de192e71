import Glibc
import SystemKit

/// The input devices keys are read from, kept in step with the input folder: opened when they
/// appear, dropped when they vanish, each read into presses.
///
/// The owner (the kitchen's event loop) polls ``descriptors``, calls ``read(_:at:)`` on each
/// that is readable, arms a timer at ``nextDeadline`` for ``expire(at:)``, and calls
/// ``rescan()`` at start and whenever inotify says something changed in one of
/// ``watchedFolders`` (created, deleted, attributes changed: udev grants access just after the
/// node appears); this type watches nothing itself. Every fault (a device unplugged, refused,
/// erroring, flooding) is one line through `report` and never stops the others: a read takes at
/// most ``readsPerRound`` reads per device. Key codes are never reported. Owned by the loop's
/// thread; not thread-safe.
public final class KeyDevices {
    /// Where devices are found: the input folder and sysfs' input class, injectable for tests.
    public struct Folders: Sendable, Hashable {
        /// The device nodes' folder: `/dev/input`.
        public var input: String
        /// sysfs' input class: `/sys/class/input` (`eventN/device/capabilities/key` is read there).
        public var classes: String

        /// The folders; the system's by default.
        public init(input: String = "/dev/input", classes: String = "/sys/class/input") {
            (self.input, self.classes) = (input, classes)
        }
    }

    /// One open device.
    final class Device {
        let path: String
        let descriptor: FileDescriptor
        /// The node's identity when opened (`st_dev`, `st_ino`): a node made again under the same name is another device.
        let identity: Identity
        var reader: KeyPressReader<ContinuousClock.Instant>

        init(path: String, descriptor: consuming FileDescriptor, identity: Identity, debounce: Duration) {
            self.path = path
            self.descriptor = descriptor
            self.identity = identity
            reader = KeyPressReader(debounce: debounce)
        }
    }

    /// A file's device and inode numbers.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Which devices.
    public let selection: KeySelection
    /// Where they are looked for.
    public let folders: Folders
    /// How long a key must stay up for its release to count (``KeyPressReader/debounce``).
    public let debounce: Duration
    let report: (String) -> Void
    var devices: [Device] = []
    /// The paths whose last failure was reported, with it: reported again only when it changes.
    var failures: [String: Errno] = [:]
    /// Whether a failed grab was reported (at most once).
    var grabReported = false

    /// How many reads one ``read(_:at:)`` makes at most on one device, so a flood cannot hold the loop.
    public static let readsPerRound = 16
    /// How many records one read takes at most.
    public static let recordsPerRead = 64

    /// Devices of `selection`, none open yet: call ``rescan()``.
    /// - Parameters:
    ///   - selection: `auto`, or one path.
    ///   - folders: Where to look.
    ///   - debounce: How long a key must stay up for its release to count, on every device
    ///     (``KeyPressReader/debounce``); none by default.
    ///   - report: Takes each line to log (`keys: …`), on the caller's thread.
    /// - Precondition: `debounce` is not negative.
    public init(
        selection: KeySelection, folders: Folders = Folders(), debounce: Duration = .zero,
        report: @escaping (String) -> Void
    ) {
        precondition(debounce >= .zero, "a negative debounce")
        (self.selection, self.folders, self.debounce, self.report) = (selection, folders, debounce, report)
    }

    /// The open devices' paths, in the order they were opened.
    public var paths: [String] { devices.map(\.path) }

    /// The descriptors to poll for reading, one per open device.
    public var descriptors: [Int32] { devices.map { $0.descriptor.rawValue } }

    /// The folders whose changes call for a ``rescan()``: the input folder, and a named path's
    /// own folder (`/dev/input/by-id`, whose links udev makes after the node).
    public var watchedFolders: [String] {
        var folders = [self.folders.input]
        if case .path(let path) = selection, let slash = path.lastIndex(of: "/") {
            let folder = slash == path.startIndex ? "/" : String(path[..<slash])
            if folder != self.folders.input { folders.append(folder) }
        }
        return folders
    }

    /// When a device's reader must be asked again if nothing more is read (a key held becomes a
    /// long press, a release counts: ``KeyPressReader/nextDeadline``): arm a timer there.
    public var nextDeadline: ContinuousClock.Instant? { devices.compactMap(\.reader.nextDeadline).min() }

    /// Reads what waits on the device with `descriptor`: its presses; a device at end of file or
    /// unplugged (`ENODEV`) or failing is dropped with one line.
    ///
    /// Does not block (the devices are non-blocking); at most ``readsPerRound`` reads.
    /// - Parameters:
    ///   - descriptor: One of ``descriptors`` that polled readable (or hung up).
    ///   - now: The loop's clock now.
    /// - Returns: The presses read, in order.
    public func read(_ descriptor: Int32, at now: ContinuousClock.Instant) -> [KeyPress] {
        guard let device = devices.first(where: { $0.descriptor.rawValue == descriptor }) else { return [] }
        var presses: [KeyPress] = []
        for _ in 0..<Self.readsPerRound {
            do {
                let bytes = try readInput(descriptor, records: Self.recordsPerRead)
                guard !bytes.isEmpty else {
                    drop(device, "keys: \(device.path) is gone")
                    break
                }
                presses += device.reader.read(bytes, at: now)
                if bytes.count < Self.recordsPerRead * InputEvent.recordBytes { break }
            } catch {
                if error.code == EAGAIN { break }
                drop(device, "keys: \(device.path) is gone" + (error.code == ENODEV ? "" : " (\(error.text))"))
                break
            }
        }
        return presses
    }

    /// The presses due at `now` on every device, long presses of keys still held and releases
    /// that stayed up (see ``KeyPressReader/expire(at:)``): call it when the timer at
    /// ``nextDeadline`` fires, after reading the devices that are readable.
    /// - Parameter now: The loop's clock now.
    /// - Returns: The presses.
    public func expire(at now: ContinuousClock.Instant) -> [KeyPress] {
        devices.flatMap { $0.reader.expire(at: now) }
    }

    /// Closes every device.
    public func closeAll() { devices = [] }

    /// Drops `device` (its descriptor closes) with one line.
    func drop(_ device: Device, _ line: String) {
        devices.removeAll { $0 === device }
        failures[device.path] = Errno(ENOENT)  // said: "is not there" would be a second line
        report(line)
    }
}
