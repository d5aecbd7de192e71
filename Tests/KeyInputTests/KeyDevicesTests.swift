import Glibc
import KeyInput
import SystemKit
import TestSupport
import Testing

/// A temporary folder standing in for `/dev/input` (FIFOs as devices: this machine has none) and
/// one for sysfs' input class (fake `capabilities/key` files).
final class FakeInputFolders {
    let root = makePrivateDirectory("eggtimer-keys")
    var folders: KeyDevices.Folders { .init(input: root + "/input", classes: root + "/class") }
    /// The lines the devices reported.
    var lines: [String] = []
    /// Writers opened on the FIFOs, by name.
    var writers: [String: Int32] = [:]

    init() {
        mkdir(root + "/input", 0o700)
        mkdir(root + "/class", 0o700)
    }

    deinit {
        for fd in writers.values { close(fd) }
        removeDirectory(root)
    }

    /// A FIFO `input/NAME`, with a sysfs bitmap for it when `keys` is given.
    func addDevice(_ name: String, keys: String? = "10000000 0 0 3fffe") {
        #expect(mkfifo(folders.input + "/" + name, 0o600) == 0)
        if let keys {
            mkdir(folders.classes + "/" + name, 0o700)
            mkdir(folders.classes + "/" + name + "/device", 0o700)
            mkdir(folders.classes + "/" + name + "/device/capabilities", 0o700)
            writeFile(folders.classes + "/" + name + "/device/capabilities/key", Array((keys + "\n").utf8))
        }
    }

    /// Opens the writing end of `input/NAME` (the devices must have opened it for reading first).
    func connect(_ name: String) throws {
        let fd = open(folders.input + "/" + name, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0, "no reader on \(name): errno \(errno)")
        writers[name] = fd
    }

    /// Writes the records of one press and release of `code` to `name`.
    func press(_ name: String, _ code: KeyCode, heldFor: Duration = .milliseconds(80)) throws {
        let down = InputEvent(time: .seconds(1000), type: InputEvent.key, code: code.rawValue, value: 1)
        let up = InputEvent(time: .seconds(1000) + heldFor, type: InputEvent.key, code: code.rawValue, value: 0)
        let bytes = down.bytes + up.bytes
        let fd = try #require(writers[name])
        #expect(write(fd, bytes, bytes.count) == bytes.count)
    }

    func makeDevices(_ selection: KeySelection) -> KeyDevices {
        KeyDevices(selection: selection, folders: folders) { [unowned self] line in self.lines.append(line) }
    }
}

/// Reads the devices until `count` presses came or 10 s passed (awaits readiness, never sleeps).
func presses(from devices: KeyDevices, count: Int) -> [KeyPress] {
    var presses: [KeyPress] = []
    let deadline = ContinuousClock.now + .seconds(10)
    while presses.count < count, ContinuousClock.now < deadline {
        var set = devices.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard !set.isEmpty, (try? pollDescriptors(&set, timeout: deadline - .now)) ?? 0 > 0 else { break }
        for entry in set where entry.revents != 0 { presses += devices.read(entry.fd, at: .now) }
    }
    return presses
}

@Suite struct KeyDevicesTests {
    @Test func autoTakesTheKeyBearingDevicesOnlyAndGrabsNone() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0", keys: "10000000000000 0")  // a power button: a key
        fake.addDevice("event1", keys: "1f0000 0 0 0 0")  // a mouse: buttons only
        fake.addDevice("event2", keys: "0")
        fake.addDevice("event3", keys: nil)  // no sysfs entry
        fake.addDevice("mouse0", keys: "10000000")  // not an eventN node
        fake.addDevice("event10")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        #expect(devices.paths == [fake.folders.input + "/event0", fake.folders.input + "/event10"])
        #expect(fake.lines == devices.paths.map { "keys: reading \($0), not grabbed" })
    }

    @Test func bytesWrittenToADeviceComeOutAsPresses() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        try fake.connect("event0")
        try fake.press("event0", .digits[1])
        try fake.press("event0", .enter, heldFor: .milliseconds(1500))
        #expect(
            presses(from: devices, count: 2) == [
                KeyPress(code: .digits[1], down: .seconds(1000), end: .seconds(1000) + .milliseconds(80)),
                KeyPress(code: .enter, isLong: true, down: .seconds(1000)),
            ])
    }

    /// A key held with no release: the devices give the loop a deadline, and at it the long press.
    @Test func aKeyHeldWithNoReleaseBecomesALongPressAtTheHoldDeadline() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        try fake.connect("event0")
        #expect(devices.nextDeadline == nil)
        let down = InputEvent(time: .seconds(9), type: InputEvent.key, code: KeyCode.enter.rawValue, value: 1).bytes
        let fd = try #require(fake.writers["event0"])
        #expect(write(fd, down, down.count) == down.count)
        var set = [pollfd(fd: devices.descriptors[0], events: Int16(POLLIN), revents: 0)]
        #expect((try? pollDescriptors(&set, timeout: .seconds(10))) == 1)
        let readAt = ContinuousClock.now
        #expect(devices.read(devices.descriptors[0], at: readAt).isEmpty)
        let deadline = try #require(devices.nextDeadline)
        #expect(deadline == readAt + .seconds(1))
        #expect(devices.expire(at: deadline - .milliseconds(1)).isEmpty)
        #expect(devices.expire(at: deadline) == [KeyPress(code: .enter, isLong: true, down: .seconds(9))])
        #expect(devices.nextDeadline == nil)
    }

    /// Issue 40: the devices debounce as they were asked to: a bounce written to a device is one
    /// press, given at the deadline they ask the loop for.
    @Test func aBounceOnADeviceIsOnePressAtTheDevicesDeadline() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = KeyDevices(selection: .auto, folders: fake.folders, debounce: .milliseconds(10)) { _ in }
        devices.rescan()
        try fake.connect("event0")
        let steps: [(Duration, Int32)] = [
            (.zero, 1), (.milliseconds(80), 0), (.milliseconds(83), 1), (.milliseconds(86), 0),
        ]
        let bytes = steps.flatMap { at, value in
            InputEvent(time: .seconds(50) + at, type: InputEvent.key, code: KeyCode.backspace.rawValue, value: value)
                .bytes
        }
        let fd = try #require(fake.writers["event0"])
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        var set = [pollfd(fd: devices.descriptors[0], events: Int16(POLLIN), revents: 0)]
        #expect((try? pollDescriptors(&set, timeout: .seconds(10))) == 1)
        let readAt = ContinuousClock.now
        #expect(devices.read(devices.descriptors[0], at: readAt).isEmpty, "the key may still bounce")
        let deadline = try #require(devices.nextDeadline)
        #expect(deadline == readAt + .milliseconds(10))
        #expect(
            devices.expire(at: deadline) == [
                KeyPress(code: .backspace, down: .seconds(50), end: .seconds(50) + .milliseconds(86))
            ])
        #expect(devices.nextDeadline == nil)
    }

    @Test func twoDevicesAtOnce() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        fake.addDevice("event1")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        try fake.connect("event0")
        try fake.connect("event1")
        try fake.press("event1", .digits[2])
        try fake.press("event0", .digits[3])
        #expect(Set(presses(from: devices, count: 2).map(\.description)) == ["key 3", "key 4"])
    }

    @Test func aRemovedDeviceIsDroppedWithOneLineAndANewOneIsPickedUp() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        try fake.connect("event0")
        // Unplugged: the node goes, the reader sees end of file (a real device: ENODEV).
        unlink(fake.folders.input + "/event0")
        let writer = fake.writers.removeValue(forKey: "event0")
        close(try #require(writer))
        #expect(presses(from: devices, count: 1).isEmpty)
        #expect(devices.paths.isEmpty)
        devices.rescan()
        #expect(fake.lines.suffix(1) == ["keys: \(fake.folders.input)/event0 is gone"])
        #expect(fake.lines.count == 2)
        // Plugged in again, under the same name.
        fake.addDevice("event0")
        devices.rescan()
        #expect(devices.paths == [fake.folders.input + "/event0"])
        try fake.connect("event0")
        try fake.press("event0", .keypadDigits[1])
        #expect(presses(from: devices, count: 1).map(\.description) == [KeyPress(code: .keypadDigits[1]).description])
    }

    @Test func aNodeMadeAgainUnderTheSameNameIsAnotherDevice() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        unlink(fake.folders.input + "/event0")
        fake.addDevice("event0")
        devices.rescan()
        #expect(
            fake.lines.dropFirst() == [
                "keys: \(fake.folders.input)/event0 is gone", "keys: reading \(fake.folders.input)/event0, not grabbed",
            ])
        try fake.connect("event0")  // the new node has the reader
    }

    @Test func aNamedDeviceIsGrabbedAndAFIFOsRefusalIsReportedOnce() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0", keys: nil)  // a named device needs no sysfs entry
        let link = fake.root + "/by-id-usb-Keypad-event-kbd"
        #expect(symlink(fake.folders.input + "/event0", link) == 0)
        let devices = fake.makeDevices(.path(link))
        devices.rescan()
        #expect(devices.paths == [link])
        #expect(devices.watchedFolders == [fake.folders.input, fake.root])
        #expect(
            fake.lines == [
                "keys: cannot grab \(link) (Inappropriate ioctl for device): its presses also reach the console and other readers",
                "keys: reading \(link)",
            ])
        // Unplugged and back: the grab's refusal is not said again.
        unlink(fake.folders.input + "/event0")
        devices.rescan()
        fake.addDevice("event0", keys: nil)
        devices.rescan()
        #expect(fake.lines.suffix(2) == ["keys: \(link) is gone", "keys: reading \(link)"])
        try fake.connect("event0")
        try fake.press("event0", .digits[1])
        #expect(presses(from: devices, count: 1).map(\.description) == ["key 2"])
    }

    @Test func aMissingNamedDeviceIsSaidOnceAndReadWhenItComes() throws {
        let fake = FakeInputFolders()
        let path = fake.folders.input + "/event7"
        let devices = fake.makeDevices(.path(path))
        devices.rescan()
        devices.rescan()
        #expect(fake.lines == ["keys: \(path) is not there: it is read once it is plugged in"])
        fake.addDevice("event7", keys: nil)
        devices.rescan()
        #expect(devices.paths == [path])
    }

    @Test func aDeviceThatCannotBeOpenedIsOneLineNamingItAndTheUdevRule() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        fake.addDevice("event1")
        chmod(fake.folders.input + "/event0", 0)
        let devices = fake.makeDevices(.auto)
        if getuid() == 0 {
            // Root opens anything: EACCES is shown through the line the devices would say.
            #expect(
                KeyDevices.openFailureLine(fake.folders.input + "/event0", Errno(EACCES))
                    == "keys: cannot open \(fake.folders.input)/event0: Permission denied: give this user that device "
                    + "with a udev rule (man eggtimer, KEYPAD), not the input group")
            return
        }
        devices.rescan()
        devices.rescan()
        #expect(devices.paths == [fake.folders.input + "/event1"])
        #expect(fake.lines.filter { $0.contains("udev rule") }.count == 1)
    }

    @Test func aRegularFileIsNotADevice() throws {
        let fake = FakeInputFolders()
        let path = fake.folders.input + "/event0"
        writeFile(path, [1, 2, 3])
        let devices = fake.makeDevices(.path(path))
        devices.rescan()
        devices.rescan()
        #expect(devices.paths.isEmpty)
        #expect(fake.lines == ["keys: \(path) is not an input device"])
    }

    /// A flood of 10 000 events is read in bounded rounds, and the press after it still comes out.
    @Test func aFloodIsReadInBoundedRoundsAndThePressAfterItCounts() throws {
        let fake = FakeInputFolders()
        fake.addDevice("event0")
        let devices = fake.makeDevices(.auto)
        devices.rescan()
        try fake.connect("event0")
        let fd = try #require(fake.writers["event0"])
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        let repeatRecord = InputEvent(time: .seconds(5), type: 2, code: 0, value: 1).bytes  // EV_REL: ignored
        let flood = Array([[UInt8]](repeating: repeatRecord, count: 10_000).joined())
        // The FIFO holds 64 KiB: write from another thread while this one reads.
        let writer = try SystemThread.start {
            var offset = 0
            while offset < flood.count {
                let written = flood[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { return }
                offset += written
            }
            let press =
                InputEvent(time: .seconds(6), type: InputEvent.key, code: KeyCode.digits[1].rawValue, value: 1).bytes
                + InputEvent(time: .seconds(6), type: InputEvent.key, code: KeyCode.digits[1].rawValue, value: 0).bytes
            _ = write(fd, press, press.count)
        }.get()
        #expect(presses(from: devices, count: 1).map(\.description) == ["key 2"])
        writer.join()
    }
}
