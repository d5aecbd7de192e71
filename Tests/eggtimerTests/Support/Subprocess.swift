import CSystem
import Glibc

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
    for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

/// What a finished child printed and how it ended.
struct Finished {
    var termination: Termination
    var stdout: String
    var stderr: String
    /// User + system CPU time the child used.
    var cpu: Duration
}

/// A fresh empty folder under /tmp for one test.
func temporaryDirectory() -> String {
    var template = Array("/tmp/eggtimer-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

/// Removes a folder made by `temporaryDirectory()` and the files in it (no subfolders).
func removeDirectory(_ path: String) {
    guard let directory = opendir(path) else { return }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(directory)
    rmdir(path)
}

/// Reads a whole file, or nil.
func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// Writes a whole file.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// What the child's standard input is.
enum Input {
    /// `/dev/null`: at EOF at once.
    case null
    /// Closed (`<&-`).
    case closed
    /// A pipe fed with these bytes, then closed.
    case bytes([UInt8])
}

/// Runs `eggtimer` with `arguments`, stdout and stderr captured through pipes, and waits for it.
/// - Parameters:
///   - arguments: The arguments after the program name.
///   - stdin: What standard input is.
///   - environment: Added to a small fixed environment.
///   - timeout: Killed with SIGKILL after this long (a hang fails the test, never blocks it).
///   - stdoutClosed: Start with standard output closed (`>&-`) instead of a pipe.
///   - afterStart: Called with the child's pid once it runs (to send it signals).
/// - Returns: How it ended and what it printed.
func runEggtimer(
    _ arguments: [String], stdin: Input = .null, environment: [String: String] = [:],
    timeout: Duration = .seconds(30), stdoutClosed: Bool = false, afterStart: ((pid_t) -> Void)? = nil
) -> Finished {
    var outPipe: [Int32] = [-1, -1]
    var errPipe: [Int32] = [-1, -1]
    var inPipe: [Int32] = [-1, -1]
    precondition(pipe(&outPipe) == 0 && pipe(&errPipe) == 0 && pipe(&inPipe) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch stdin {
    case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .closed: posix_spawn_file_actions_addclose(&actions, 0)
    case .bytes: posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    }
    if stdoutClosed {
        posix_spawn_file_actions_addclose(&actions, 1)
    } else {
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    }
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    for fd in outPipe + errPipe + inPipe { posix_spawn_file_actions_addclose(&actions, fd) }
    let pid = spawn(arguments, actions: &actions, environment: environment)
    close(outPipe[1])
    close(errPipe[1])
    close(inPipe[0])
    if case .bytes(let bytes) = stdin { _ = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) } }
    close(inPipe[1])
    afterStart?(pid)

    var out: [UInt8] = []
    var err: [UInt8] = []
    let started = ContinuousClock.now
    var open = [outPipe[0], errPipe[0]]
    while !open.isEmpty {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let left = timeout - started.duration(to: .now)
        if left <= .zero {
            kill(pid, SIGKILL)
            break
        }
        _ = poll(&fds, nfds_t(fds.count), Int32(left.components.seconds * 1000 + 10))
        for pfd in fds where pfd.revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(pfd.fd, &chunk, chunk.count)
            if n > 0 {
                if pfd.fd == outPipe[0] { out += chunk[0..<n] } else { err += chunk[0..<n] }
            } else {
                open.removeAll { $0 == pfd.fd }
            }
        }
    }
    close(outPipe[0])
    close(errPipe[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let cpu =
        Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    return Finished(
        termination: Termination(waitStatus: status), stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self), cpu: cpu)
}

/// posix_spawn of the eggtimer binary with `arguments`.
func spawn(
    _ arguments: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String] = [:],
    newSession: Bool = false, executable: String = eggtimerPath
) -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= Int32(CSystem_POSIX_SPAWN_SETSID) }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    var env: [String: String] = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color"]
    env.merge(environment) { $1 }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    precondition(rc == 0, "posix_spawn failed: \(rc)")
    return pid
}

/// Starts eggtimer with standard input and error on /dev/null and standard output into a pipe.
/// - Returns: The child's pid and the pipe's read end, which the caller closes.
func spawnIntoPipe(_ arguments: [String]) -> (pid: pid_t, reader: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    posix_spawn_file_actions_addclose(&actions, ends[1])
    let pid = spawn(arguments, actions: &actions)
    close(ends[1])
    return (pid, ends[0])
}
