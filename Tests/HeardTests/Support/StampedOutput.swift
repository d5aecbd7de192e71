import CSystem
import Dispatch
import Glibc
import Synchronization

/// The built `eggtimer` binary beside this test bundle (`.build/<triple>/debug/`).
let eggtimerPath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let bundle = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(bundle[..<(bundle.lastIndex(of: "/") ?? bundle.endIndex)]) + "/eggtimer"
}()

/// The repository's root, from this file's path.
let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()

/// A failure of the test's own machinery (a server that does not start, a child that hangs),
/// thrown so the test fails with this message.
struct HeardFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// CLOCK_BOOTTIME now, in nanoseconds: the clock of eggtimer's `t_mono_ns`.
func bootNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_BOOTTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

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

/// A pipe whose ends are close-on-exec from birth.
/// - Returns: The read and write ends; the caller closes both.
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

    /// Starts `executable` with `arguments` and exactly `environment`.
    ///
    /// Standard input is /dev/null; standard output goes to `stdout` (a descriptor to dup) or
    /// /dev/null; standard error to the file `stderrPath` (appended) or /dev/null. The child gets no
    /// other descriptor (close-from 3) and default signal dispositions with none blocked.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], stdout: Int32? = nil,
        stderrPath: String? = nil
    ) -> Child {
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
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        precondition(rc == 0, "posix_spawn \(executable) failed: \(rc)")
        return Child(pid: pid)
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
        let milliseconds = max(
            0, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        )
        let ready = poll(&pfd, 1, left > .zero ? milliseconds : 0)
        if ready > 0 { return true }
        if ready < 0 && errno == EINTR { continue }
        if ContinuousClock.now >= deadline { return false }
    }
}

/// A child whose standard output is read on its own thread, each chunk stamped with
/// CLOCK_BOOTTIME when `read` returned it.
final class StampedOutput: Sendable {
    /// One `read` of the child's output.
    struct Chunk {
        /// CLOCK_BOOTTIME nanoseconds when the read returned.
        let stamp: Int64
        let bytes: [UInt8]
    }

    private struct State {
        var chunks: [Chunk] = []
        var byteCount = 0
        var ended = false
    }

    let child: Child
    private let state = Mutex(State())
    /// Signalled after every chunk and at the end of the output.
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts `executable`; its output is read until end of file on a dispatch thread.
    init(_ executable: String, _ arguments: [String], environment: [String: String], stderrPath: String? = nil) {
        let ends = makePipe()
        child = Child.spawn(executable, arguments, environment: environment, stdout: ends.write, stderrPath: stderrPath)
        close(ends.write)
        let reader = ends.read
        DispatchQueue(label: "stamped-output").async { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = Chunk(stamp: bootNanoseconds(), bytes: Array(buffer[0..<count]))
                state.withLock {
                    $0.chunks.append(chunk)
                    $0.byteCount += count
                }
                arrived.signal()
            }
            close(reader)
            state.withLock { $0.ended = true }
            arrived.signal()
        }
    }

    /// The chunks read so far.
    var chunks: [Chunk] { state.withLock { $0.chunks } }

    /// Everything read so far, as text.
    var text: String { String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) }

    /// Waits (on the reader's signal, not by sleeping) until `condition` holds for the chunks read
    /// so far, the output ends, or `timeout` passes.
    /// - Returns: Whether `condition` held.
    @discardableResult
    func wait(timeout: Duration, until condition: ([Chunk]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (chunks, ended) = state.withLock { ($0.chunks, $0.ended) }
            if condition(chunks) { return true }
            if ended { return false }
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero { return false }
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
    }

    /// Waits until the output ends (the child closed it or exited).
    @discardableResult
    func waitForEnd(timeout: Duration) -> Bool {
        wait(timeout: timeout) { _ in false } || state.withLock { $0.ended }
    }
}
