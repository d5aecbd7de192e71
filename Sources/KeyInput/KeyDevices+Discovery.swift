import Glibc
public import SystemKit
import TextCoding

extension KeyDevices {
    /// Brings the open devices in step with the folders: drops those whose node is gone or was
    /// made again (one line each), and opens those of ``selection`` not open yet.
    ///
    /// `auto` takes the input folder's `eventN` nodes whose `capabilities/key` has a key
    /// (``KeyCapabilities/hasKeys``) and grabs none; a named path is opened (through its link)
    /// and grabbed. A device that cannot be opened is reported once (`EACCES`: the line says to
    /// grant it with a udev rule) until its failure changes; it is tried again at every rescan.
    /// Blocks only for local reads (the folder, sysfs). C: `opendir`, `readdir`, `stat`, `open`.
    public func rescan() {
        for device in devices where Self.identity(of: device.path) != device.identity {
            drop(device, "keys: \(device.path) is gone")
        }
        let wanted: [String]
        switch selection {
        case .auto: wanted = keyBearingNodes()
        case .path(let path): wanted = [path]
        }
        for path in wanted where !devices.contains(where: { $0.path == path }) { open(path) }
        for path in failures.keys where !wanted.contains(path) { failures[path] = nil }
    }

    /// The input folder's `eventN` nodes whose sysfs key bitmap shows keys, in number order.
    func keyBearingNodes() -> [String] {
        Self.eventNames(in: folders.input).filter { name in
            let file = folders.classes + "/" + name + "/device/capabilities/key"
            return Self.smallFile(file).flatMap { KeyCapabilities.parse($0) }?.hasKeys ?? false
        }.map { folders.input + "/" + $0 }
    }

    /// Opens one device, grabs it when it was named, and says so; or reports why not.
    private func open(_ path: String) {
        let named = selection != .auto
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(Array(path.utf8), O_RDONLY | O_NONBLOCK | O_NOCTTY)
            var info = stat()
            guard fstat(descriptor.rawValue, &info) == 0 else { throw Errno.current }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFCHR || kind == S_IFIFO else {
                if failures[path] != Errno(ENODEV) {
                    failures[path] = Errno(ENODEV)
                    report("keys: \(path) is not an input device")
                }
                return
            }
            if named { grab(descriptor.rawValue, path) }
            let name = (try? inputDeviceName(descriptor.rawValue)).map(Self.printable) ?? ""
            failures[path] = nil
            let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            devices.append(Device(path: path, descriptor: descriptor, identity: identity, debounce: debounce))
            report("keys: reading \(path)" + (name.isEmpty ? "" : " (\(name))") + (named ? "" : ", not grabbed"))
        } catch {
            if error.code == ENOENT, !named { return }  // gone between the listing and the open
            guard failures[path] != error else { return }
            failures[path] = error
            report(Self.openFailureLine(path, error))
        }
    }

    /// Takes the device for eggtimer alone; a refusal (`ENOTTY` from a FIFO, `EBUSY` when another
    /// program holds it) is reported once at most.
    private func grab(_ descriptor: Int32, _ path: String) {
        do throws(Errno) {
            try grabInputDevice(descriptor)
        } catch {
            guard !grabReported else { return }
            grabReported = true
            report("keys: cannot grab \(path) (\(error.text)): its presses also reach the console and other readers")
        }
    }

    /// The line said for a device that cannot be opened: it names the device and, for a refusal
    /// (`EACCES`), the way to grant it.
    /// - Parameters:
    ///   - path: The device.
    ///   - error: What `open` said.
    /// - Returns: One line, `keys: …`.
    public static func openFailureLine(_ path: String, _ error: Errno) -> String {
        switch error.code {
        case EACCES, EPERM:
            "keys: cannot open \(path): \(error.text): give this user that device with a udev rule "
                + "(man eggtimer, KEYPAD), not the input group"
        case ENOENT: "keys: \(path) is not there: it is read once it is plugged in"
        default: "keys: cannot open \(path): \(error.text)"
        }
    }

    /// The `eventN` names in `folder`, by number.
    static func eventNames(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var numbered: [(Int, String)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let digits = name.utf8.dropFirst(5)
            guard name.hasPrefix("event"), !digits.isEmpty, digits.count <= 6,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let number = Int(String(name.dropFirst(5)))
            else { continue }
            numbered.append((number, name))
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A small file's bytes (up to 4 KiB: a sysfs attribute), or nil when it cannot be read.
    static func smallFile(_ path: String) -> [UInt8]? { RegularFile.contents(path, limit: 4096) }

    /// The node's identity at `path` (links followed), or nil when there is none.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// A device's name for a log line: control characters as `?`, at most 80 characters.
    static func printable(_ name: String) -> String {
        name.controlCharactersAsQuestionMarks(limit: 80)
    }
}
