import CSystem
import Dispatch
import Glibc
import Synchronization

/// A failure of the test's own machinery (a broker that does not start, a child that hangs),
/// thrown so the test fails with this message.
struct BrokerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The built `eggtimer` binary beside this test bundle (`.build/<triple>/debug/`), for end-to-end tests.
let eggtimerPath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let bundle = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(bundle[..<(bundle.lastIndex(of: "/") ?? bundle.endIndex)]) + "/eggtimer"
}()

/// A new folder under /tmp, mode 0700.
func makePrivateDirectory(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress, let made = mkdtemp(base) else {
            preconditionFailure("mkdtemp failed: errno \(errno)")
        }
        return String(cString: made)
    }
}

/// Writes `text` to the file `path` (created 0600 or truncated).
func writeFile(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BrokerFailure("cannot create \(path): errno \(errno)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard write(fd, bytes, bytes.count) == bytes.count else { throw BrokerFailure("cannot write \(path)") }
}

/// The contents of the file `path`, or "" when it cannot be read.
func readFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A pipe whose ends are close-on-exec from birth.
func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe2(&ends, O_CLOEXEC) == 0, "pipe2 failed: errno \(errno)")
    return (ends[0], ends[1])
}

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

/// A child process started with `posix_spawn`; the test reaps it with ``wait(timeout:)``.
struct Child {
    let pid: pid_t

    /// Starts `executable` with `arguments` and a plain environment.
    ///
    /// Standard input is /dev/null; standard output goes to `stdout` (a descriptor to dup) or
    /// /dev/null; standard error to the file `stderrPath` (appended) or /dev/null. The child gets no
    /// other descriptor (close-from 3) and default signal dispositions with none blocked.
    static func spawn(_ executable: String, _ arguments: [String], stdout: Int32? = nil, stderrPath: String? = nil)
        -> Child
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(
            &actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        precondition(posix_spawn_file_actions_addclosefrom_np(&actions, 3) == 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment: [String] = ["PATH=/usr/bin:/bin:/usr/sbin", "LANG=C.UTF-8"]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        precondition(rc == 0, "posix_spawn \(executable) failed: \(rc)")
        return Child(pid: pid)
    }

    /// Runs `executable` to its end (at most `timeout`), its standard error to `stderrPath`.
    /// - Throws: `BrokerFailure` unless it exits 0.
    static func run(_ executable: String, _ arguments: [String], stderrPath: String, timeout: Duration = .seconds(30))
        throws
    {
        let status = spawn(executable, arguments, stderrPath: stderrPath).wait(timeout: timeout)
        guard status == .exited(0) else {
            throw BrokerFailure("\(executable) \(arguments.joined(separator: " ")): \(status); see \(stderrPath)")
        }
    }

    /// Sends `signal` to the child.
    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits on a pidfd for the child to exit, then reaps it; kills it (SIGKILL) at the timeout.
    /// - Returns: How it ended; `signal 9` after a timeout.
    @discardableResult
    func wait(timeout: Duration) -> Termination {
        let pidfd = pidfd_open(pid, 0)
        if pidfd >= 0 {
            defer { close(pidfd) }
            if !waitReadable(pidfd, timeout: timeout) { kill(pid, SIGKILL) }
        } else {
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    /// Whether the child has exited already (without reaping it).
    var hasExited: Bool {
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else { return true }
        defer { close(pidfd) }
        return waitReadable(pidfd, timeout: .zero)
    }
}

/// Polls `fd` for reading until it is readable or `timeout` passes.
/// - Returns: Whether it became readable.
func waitReadable(_ fd: Int32, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let left = ContinuousClock.now.duration(to: deadline)
        let ready = poll(&pfd, 1, left > .zero ? milliseconds(left) : 0)
        if ready > 0 { return true }
        if ready < 0 && errno == EINTR { continue }
        if ContinuousClock.now >= deadline { return false }
    }
}

/// `duration` in whole milliseconds, rounded up, for poll.
func milliseconds(_ duration: Duration) -> Int32 {
    Int32(clamping: max(0, Int64((duration / .milliseconds(1)).rounded(.up))))
}

/// The process's open descriptors, from /proc/self/fd.
func openDescriptors() -> Set<Int32> {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var descriptors = Set<Int32>()
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if let descriptor = Int32(name) { descriptors.insert(descriptor) }
    }
    descriptors.remove(dirfd(directory))
    return descriptors
}

/// A socket's address family (`SO_DOMAIN`), or -1 when `descriptor` is not a socket.
func socketDomain(_ descriptor: Int32) -> Int32 {
    var domain: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 ? domain : -1
}
