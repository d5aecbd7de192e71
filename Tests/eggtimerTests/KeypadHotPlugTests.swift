import EventLoop
import Glibc
import KeyInput
import SystemKit
import TestSupport
import Testing

@testable import TimerEngine
@testable import eggtimer

/// Hot-plug as the kitchen will run it, inotify first and a rescan after.
///
/// A `FolderWatch` on the input folder says a node came or went, and `KeyDevices.rescan()`
/// follows. A temporary folder stands in for `/dev/input` (FIFOs as devices) and for sysfs;
/// every wait is on inotify's or a FIFO's readiness, never a sleep.
@Suite struct KeypadHotPlugTests {
    /// Waits until `watch` says something (10 s at most) and returns the names it said.
    private func changes(_ watch: FolderWatch) -> [String?] {
        var set = [pollfd(fd: watch.pollRequests[0].descriptor, events: Int16(POLLIN), revents: 0)]
        guard (try? pollDescriptors(&set, timeout: .seconds(10))) ?? 0 > 0 else { return [] }
        var names: [String?] = []
        watch.service([], at: .now, into: &names)
        return names
    }

    /// Reads `devices` until a press comes (10 s at most).
    private func press(_ devices: KeyDevices) -> [KeyPress] {
        var set = devices.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard (try? pollDescriptors(&set, timeout: .seconds(10))) ?? 0 > 0 else { return [] }
        return set.filter { $0.revents != 0 }.flatMap { devices.read($0.fd, at: .now) }
    }

    @Test func aDevicePluggedInIsPickedUpAndOneUnpluggedDroppedWithOneLine() throws {
        let root = makePrivateDirectory("eggtimer-hotplug")
        defer { removeDirectory(root) }
        let input = root + "/input"
        let classes = root + "/class"
        for folder in [
            input, classes, classes + "/event4", classes + "/event4/device", classes + "/event4/device/capabilities",
        ] {
            mkdir(folder, 0o700)
        }
        writeFile(classes + "/event4/device/capabilities/key", Array("10000000 0 0 3fffe\n".utf8))
        var lines: [String] = []
        let devices = KeyDevices(selection: .auto, folders: .init(input: input, classes: classes)) { lines.append($0) }
        let watch = try #require(FolderWatch(folder: devices.watchedFolders[0], events: FolderWatch.deviceChanges))
        devices.rescan()
        #expect(devices.paths.isEmpty)

        #expect(mkfifo(input + "/event4", 0o600) == 0)
        #expect(changes(watch).contains("event4"))
        devices.rescan()
        #expect(devices.paths == [input + "/event4"])
        let writer = open(input + "/event4", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0)
        let records = [Int32(1), 0].flatMap { value in
            InputEvent(time: .seconds(7), type: InputEvent.key, code: KeyCode.keypadDigits[1].rawValue, value: value)
                .bytes
        }
        #expect(write(writer, records, records.count) == records.count)
        #expect(press(devices) == [KeyPress(code: .keypadDigits[1], down: .seconds(7), end: .seconds(7))])

        #expect(unlink(input + "/event4") == 0)
        #expect(changes(watch).contains("event4"))
        devices.rescan()
        close(writer)
        #expect(devices.paths.isEmpty)
        #expect(lines == ["keys: reading \(input)/event4, not grabbed", "keys: \(input)/event4 is gone"])
    }
}
