import Glibc
import TestSupport
import Testing

/// A device whose writes never return: ALSA's `file` plugin writing into a FIFO whose reader has
/// stopped reading (its `write(2)` blocks whatever the PCM's non-blocking flag says), the same kind
/// of hang as a stalled sound server or Bluetooth sink.
///
/// Keys and signals must still work.
@Suite struct StalledDeviceEndToEndTests {
    /// A FIFO with a reader that never reads, so the writer fills it and then blocks.
    final class StalledFIFO {
        let directory = makePrivateDirectory()
        let path: String
        let reader: Int32

        init() {
            path = directory + "/stalled.fifo"
            precondition(mkfifo(path, 0o600) == 0)
            reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            precondition(reader >= 0)
        }

        deinit {
            close(reader)
            removeDirectory(directory)
        }

        /// The ALSA device name that writes raw samples into the FIFO.
        var device: String { "file:'\(path)',raw" }

        /// Waits until one of `pty`'s program's threads is blocked writing into the pipe (its
        /// `/proc/PID/task/*/wchan` says `pipe_write`), so the device is certainly stalled.
        /// - Throws: `TestFailure` when none did before `timeout`.
        func waitUntilWriterBlocks(_ pty: PseudoTerminal, timeout: Duration = .seconds(15)) throws {
            // The kernel makes no event of a writer blocking: look again shortly.
            try eventually(
                "a thread blocks writing into the pipe", deadline: .now + timeout, every: .milliseconds(5),
                meanwhile: { pty.readOutput(until: $0) },
                { threadWaitChannels(pty.pid).contains(where: { $0.contains("pipe_write") }) })
        }
    }

    /// What each thread of `pid` is waiting in, from `/proc/PID/task/TID/wchan`.
    static func threadWaitChannels(_ pid: pid_t) -> [String] {
        guard let tasks = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(tasks) }
        var channels: [String] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true, let bytes = readFile("/proc/\(pid)/task/\(name)/wchan") else {
                continue
            }
            channels.append(String(decoding: bytes, as: UTF8.self))
        }
        return channels
    }

    @Test func aKeyStopsTheAlarmOnScreenAtOnceAndQuitExits() throws {
        let fifo = StalledFIFO()
        let pty = PseudoTerminal(["--soft", "1s", "-D", fifo.device])
        #expect(pty.expect("How do you like your eggs?"))
        pty.type("1")
        #expect(pty.expect("Alright, don't choke on them!"))
        try fifo.waitUntilWriterBlocks(pty)
        let mark = pty.output.count
        let pressed = ContinuousClock.now
        pty.type("x")
        #expect(pty.expect("Other time...", after: mark, timeout: .seconds(5)))  // back in the menu
        let shown = ContinuousClock.now - pressed
        #expect(shown < .milliseconds(200), "the menu came back \(shown) after the key")
        pty.type("q")
        let end = pty.waitForExit(timeout: .seconds(5))
        // The FIFO's reader never read a byte: nothing was heard.
        #expect(end == .exited(69), "\(String(describing: end))")
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    @Test func sigtermEndsAStalledAlarmWithTheTerminalRestored() throws {
        let fifo = StalledFIFO()
        let pty = PseudoTerminal(["1s", "-D", fifo.device])
        #expect(pty.expect("Time's up!"))
        try fifo.waitUntilWriterBlocks(pty)
        let sent = ContinuousClock.now
        pty.send(SIGTERM)
        #expect(pty.waitForExit(timeout: .seconds(2)) == .exited(143))
        #expect(ContinuousClock.now - sent < .seconds(2))
        #expect(pty.settingsNow == pty.settingsBefore)
    }

    @Test func ctrlCEndsAStalledAlarm() throws {
        let fifo = StalledFIFO()
        let pty = PseudoTerminal(["1s", "-D", fifo.device])
        #expect(pty.expect("Time's up!"))
        try fifo.waitUntilWriterBlocks(pty)
        pty.type("\u{3}")
        #expect(pty.waitForExit(timeout: .seconds(2)) == .exited(130))
        #expect(pty.settingsNow == pty.settingsBefore)
    }
}
