import Glibc
public import SystemKit

/// The house's keypads: FIFOs that stand in for `/dev/input/eventN` under a private input root
/// (its `dev/input` and a fake sysfs `sys/class/input/eventN/device/capabilities/key`), fed
/// `struct input_event` records by the header's layout (`InputEvent.bytes`).
extension House {
    /// The folder of the keypad FIFOs (made by the first ``addKeypad(_:)``).
    public var keypadInput: String { (keypadRoot ?? "") + "/dev/input" }

    /// Makes the keypad `name` (a FIFO) with a key-bearing capabilities file; the first one makes
    /// the input root, which ``environment`` then names.
    /// - Throws: `TestFailure` when the FIFO cannot be made.
    public func addKeypad(_ name: String) throws(TestFailure) {
        let root = makeKeypadRoot()
        let device = root + "/sys/class/input/" + name + "/device"
        for folder in [root + "/sys/class/input/" + name, device, device + "/capabilities"] { mkdir(folder, 0o700) }
        writeFile(device + "/capabilities/key", Array("10000000 0 0 3fffe\n".utf8))
        guard mkfifo(keypadInput + "/" + name, 0o600) == 0 else {
            throw TestFailure("mkfifo \(keypadInput)/\(name): errno \(errno)")
        }
    }

    /// The input root, made with its folders on first use.
    @discardableResult
    public func makeKeypadRoot() -> String {
        if let keypadRoot { return keypadRoot }
        let root = makePrivateDirectory("eggtimer-keys")
        for folder in ["/dev", "/dev/input", "/sys", "/sys/class", "/sys/class/input"] { mkdir(root + folder, 0o700) }
        keypadRoot = root
        return root
    }

    /// Opens the writing end of keypad `name` (the kitchen reads it already).
    /// - Throws: `TestFailure` when nobody reads it.
    public func connectKeypad(_ name: String) throws(TestFailure) {
        let fd = open(keypadInput + "/" + name, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("the kitchen did not open \(name): errno \(errno)") }
        keypadWriters[name] = fd
    }

    /// Unplugs keypad `name`: its node goes and its writer closes.
    /// - Returns: Whether its node was there to remove.
    @discardableResult
    public func unplugKeypad(_ name: String) -> Bool {
        let removed = unlink(keypadInput + "/" + name) == 0
        if let fd = keypadWriters.removeValue(forKey: name) { close(fd) }
        return removed
    }

    /// Writes `bytes` to keypad `name`, waiting (poll, 10 s at most) while the FIFO is full.
    /// - Throws: `TestFailure` when it is not connected or the kitchen does not read it.
    public func writeKeypad(_ bytes: [UInt8], to name: String) throws(TestFailure) {
        guard let fd = keypadWriters[name] else { throw TestFailure("keypad \(name) is not connected") }
        var offset = 0
        while offset < bytes.count {
            var set = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
            guard ((try? pollDescriptors(&set, timeout: .seconds(10))) ?? 0) > 0 else {
                throw TestFailure("the kitchen does not read keypad \(name)")
            }
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if errno != EAGAIN && errno != EINTR {
                throw TestFailure("write to keypad \(name): errno \(errno)")
            }
        }
    }

    /// The records of one press of `code` at `time`, let go `held` later (each event with its SYN).
    public static func keyPress(_ code: KeyCode, at time: Duration, held: Duration = .milliseconds(80)) -> [UInt8] {
        [(time, Int32(1)), (time + held, 0)].flatMap { at, value in
            InputEvent(time: at, type: InputEvent.key, code: code.rawValue, value: value).bytes
                + InputEvent(
                    time: at, type: InputEvent.synchronization, code: InputEvent.synchronizationReport, value: 0
                )
                .bytes
        }
    }

    /// The records of `code` going down (1) and up (0) at these time stamps, each event with its SYN.
    public static func keyChanges(_ code: KeyCode, _ changes: [(at: Duration, value: Int32)]) -> [UInt8] {
        changes.flatMap { at, value in
            InputEvent(time: at, type: InputEvent.key, code: code.rawValue, value: value).bytes
                + InputEvent(
                    time: at, type: InputEvent.synchronization, code: InputEvent.synchronizationReport, value: 0
                )
                .bytes
        }
    }

    /// Presses `code` on keypad `name` `after` the last press went down, by the time stamps (5 s
    /// by default: past any key guard).
    /// - Throws: `TestFailure` from ``writeKeypad(_:to:)``.
    public func press(
        _ code: KeyCode, on name: String = "event0", held: Duration = .milliseconds(80), after: Duration = .seconds(5)
    ) throws(TestFailure) {
        keypadClock += after
        try writeKeypad(Self.keyPress(code, at: keypadClock, held: held), to: name)
    }

    /// Presses `code` on keypad `name` as a bouncing key does, 5 s after the last press went
    /// down: down, up `bounce` later, down again `bounce` after that, up `held` after the first down.
    /// - Throws: `TestFailure` from ``writeKeypad(_:to:)``.
    public func pressBouncing(
        _ code: KeyCode, on name: String = "event0", bounce: Duration = .milliseconds(3),
        held: Duration = .milliseconds(80)
    ) throws(TestFailure) {
        keypadClock += .seconds(5)
        let down = keypadClock
        try writeKeypad(
            Self.keyChanges(code, [(down, 1), (down + bounce, 0), (down + bounce * 2, 1), (down + held, 0)]), to: name)
    }
}
