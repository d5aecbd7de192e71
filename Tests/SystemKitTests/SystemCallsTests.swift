import Glibc
import TestSupport
import Testing

@testable import SystemKit

/// The thin wrappers over the calls Swift's Glibc module lacks, each against the real kernel.
@Suite struct SystemCallsTests {
    private static func isCloseOnExec(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0
    }

    /// The clock's time now as a duration since its origin.
    private static func clockTime(_ clock: clockid_t) -> Duration {
        var now = timespec()
        clock_gettime(clock, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// Waits for `descriptor` to poll readable, up to `limit`.
    private static func becomesReadable(_ descriptor: Int32, within limit: Duration) throws -> Bool {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return try pollDescriptors(&fds, timeout: limit) == 1 && fds[0].revents & Int16(POLLIN) != 0
    }

    @Test func aSignalDescriptorReadsARaisedBlockedSignal() throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGUSR2)
        var old = sigset_t()
        try #require(pthread_sigmask(SIG_BLOCK, &mask, &old) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let signals = try FileDescriptor.signals([SIGUSR2])
        #expect(Self.isCloseOnExec(signals.rawValue))
        #expect(readSignal(from: signals.rawValue) == nil)  // none pending: no wait, no signal
        try #require(pthread_kill(pthread_self(), SIGUSR2) == 0)
        #expect(readSignal(from: signals.rawValue) == SIGUSR2)
        #expect(readSignal(from: signals.rawValue) == nil)  // read once, gone
    }

    @Test func aBootClockTimerFiresAtAnAbsoluteInstant() throws {
        let timer = try FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true)
        let deadline = Self.clockTime(CLOCK_BOOTTIME) + .milliseconds(30)
        try setTimer(timer.rawValue, at: deadline.timespecValue)
        #expect(try Self.becomesReadable(timer.rawValue, within: .seconds(10)))
        #expect(Self.clockTime(CLOCK_BOOTTIME) >= deadline)
        var expirations: UInt64 = 0
        #expect(read(timer.rawValue, &expirations, 8) == 8 && expirations == 1)
    }

    @Test func aDisarmedTimerNeverFires() throws {
        let timer = try FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true)
        try setTimer(timer.rawValue, at: (Self.clockTime(CLOCK_BOOTTIME) + .milliseconds(5)).timespecValue)
        try setTimer(timer.rawValue, at: nil)
        #expect(try !Self.becomesReadable(timer.rawValue, within: .milliseconds(50)))
    }

    /// The ECANCELED half needs the wall clock set (CAP_SYS_TIME), which on a shared machine
    /// would step every other process's clock: only the arming and firing are checked here; the
    /// kernel's flag shows in fdinfo (`settime flags: 03`).
    @Test func aWallClockTimerCancelledOnSetFiresAtItsInstant() throws {
        let timer = try FileDescriptor.timer(clock: CLOCK_REALTIME, nonBlocking: true)
        let deadline = Self.clockTime(CLOCK_REALTIME) + .milliseconds(30)
        try setTimer(timer.rawValue, at: deadline.timespecValue, cancelOnClockSet: true)
        let info = readText("/proc/self/fdinfo/\(timer.rawValue)")
        #expect(info.contains("settime flags: 03"), "\(info)")
        #expect(try Self.becomesReadable(timer.rawValue, within: .seconds(10)))
        #expect(Self.clockTime(CLOCK_REALTIME) >= deadline)
        #expect(throws: Errno(EINVAL)) {
            try setTimer(timer.rawValue, at: timespec(tv_sec: 1, tv_nsec: 1_000_000_000))
        }
    }

    @Test func pollReturnsNothingAfterItsTimeout() throws {
        let pipe = try FileDescriptor.pipe()
        var fds = [pollfd(fd: pipe.read.rawValue, events: Int16(POLLIN), revents: 0)]
        let start = ContinuousClock.now
        #expect(try pollDescriptors(&fds, timeout: .milliseconds(40)) == 0)
        #expect(ContinuousClock.now - start >= .milliseconds(40))
        #expect(try pollDescriptors(&fds, timeout: .seconds(-5)) == 0)  // negative: no wait
        #expect(write(pipe.write.rawValue, "x", 1) == 1)
        #expect(try pollDescriptors(&fds, timeout: nil) == 1 && fds[0].revents == Int16(POLLIN))
    }

    @Test func aProcessDescriptorPollsReadableWhenTheChildExits() throws {
        let input = try FileDescriptor.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read.rawValue, STDIN_FILENO)
        let child = spawnProcess(SystemTool.sh.path, ["-c", "read line"], actions: &actions, environment: [:])
        let pidfd = try FileDescriptor.process(child)
        #expect(Self.isCloseOnExec(pidfd.rawValue))
        // The shell waits for a line on its standard input, which this test holds.
        #expect(try !Self.becomesReadable(pidfd.rawValue, within: .milliseconds(20)))
        #expect(write(input.write.rawValue, "\n", 1) == 1)
        #expect(try Self.becomesReadable(pidfd.rawValue, within: .seconds(10)))
        var status: Int32 = 0
        #expect(waitpid(child, &status, WNOHANG) == child)
        #expect(throws: Errno(EINVAL)) { try FileDescriptor.process(0) }
    }

    @Test func aPseudoTerminalCarriesItsWindowSize() throws {
        let controller = try FileDescriptor.pseudoTerminal(flags: O_NONBLOCK)
        #expect(Self.isCloseOnExec(controller.rawValue))
        let path = try pseudoTerminalPath(of: controller.rawValue)
        #expect(path.hasPrefix("/dev/pts/"))
        let terminal = try FileDescriptor.open(Array(path.utf8), O_RDWR | O_NOCTTY)
        try setWindowSize(of: controller.rawValue, to: WindowSize(rows: 31, columns: 97))
        #expect(try windowSize(of: terminal.rawValue) == WindowSize(rows: 31, columns: 97))
        let pipe = try FileDescriptor.pipe()
        #expect(throws: Errno(ENOTTY)) { try windowSize(of: pipe.read.rawValue) }
    }

    @Test func aSpawnWithCloseFromLeavesTheChildOnlyItsThreeDescriptors() throws {
        var inheritable: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&inheritable) == 0)  // deliberately not close-on-exec
        defer { for end in inheritable { close(end) } }
        let output = try FileDescriptor.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output.write.rawValue, STDOUT_FILENO)
        try addCloseFrom(&actions, from: 3)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup("ls /proc/$$/fd"), nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        try #require(posix_spawn(&child, SystemTool.sh.path, &actions, nil, argv, environ) == 0)
        var status: Int32 = 0
        try #require(waitpid(child, &status, 0) == child && status == 0)
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(output.read.rawValue, &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "0\n1\n2\n")
        #expect(throws: Errno(EBADF)) { try addCloseFrom(&actions, from: -1) }
    }

    @Test func theTimerSlackAndTheClockStateAreReadable() throws {
        try setTimerSlack(.nanoseconds(1))
        defer { try? setTimerSlack(.zero) }
        let state = try kernelClockState()
        #expect(state.state >= 0)
        #expect(!KernelClockState(state: 0, status: 0x40).isSynchronised)  // STA_UNSYNC
        #expect(!KernelClockState(state: 5, status: 0).isSynchronised)  // TIME_ERROR
        #expect(KernelClockState(state: 0, status: 0).isSynchronised)
    }
}
