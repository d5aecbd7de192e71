import CSystem
import Dispatch
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

/// Removes a folder made by `temporaryDirectory()` and everything in it.
func removeDirectory(_ path: String) {
    guard let directory = opendir(path) else { return }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard name != "." && name != ".." else { continue }
        var info = stat()
        let child = path + "/" + name
        // Folders that a child made inside (a sound server's `pulse/`) go too; links are not followed.
        if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { removeDirectory(child) } else { unlink(child) }
    }
    closedir(directory)
    rmdir(path)
}

/// Reads a whole file, or nil.
func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// Writes a whole file.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "short write to \(path)")
    close(fd)
}

/// A pipe whose ends are close-on-exec from birth, so a child that another test's thread spawns
/// meanwhile cannot inherit them (and keep a reader or writer alive that the test thinks is gone).
/// - Returns: The read and write ends; the caller closes both.
func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe2(&ends, O_CLOEXEC) == 0, "pipe2 failed: errno \(errno)")
    return (ends[0], ends[1])
}

/// The `poll` timeout, in milliseconds, that wakes no earlier than `deadline` (rounded up), at most
/// `cap`; 0 once the deadline has passed.
func pollTimeout(until deadline: ContinuousClock.Instant, cap: Duration = .seconds(3600)) -> Int32 {
    let left = min(cap, ContinuousClock.now.duration(to: deadline))
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
}

/// How a reaped child ended and the user + system CPU time it used.
struct Reaped {
    var termination: Termination
    var cpu: Duration
}

/// Waits for child `pid` to exit, on a pidfd (an event, not a polling loop), and reaps it.
///
/// A child still running at `deadline` is killed with SIGKILL, so a hang shows as `signal 9` and
/// fails the test instead of blocking it. Blocks the calling thread.
/// - Parameters:
///   - pid: A child of this process that nobody else reaps.
///   - deadline: When to give up waiting (`ContinuousClock`).
/// - Returns: How it ended and the CPU time it used.
func reap(_ pid: pid_t, deadline: ContinuousClock.Instant) -> Reaped {
    let pidfd = pidfd_open(pid, 0)
    precondition(pidfd >= 0, "pidfd_open failed: errno \(errno)")
    defer { close(pidfd) }
    var exited = false
    while !exited {
        var pfd = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, pollTimeout(until: deadline))
        if ready > 0 {
            exited = true
        } else if ready == 0 && ContinuousClock.now >= deadline {
            kill(pid, SIGKILL)
            exited = true
        }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let cpu =
        Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    return Reaped(termination: Termination(waitStatus: status), cpu: cpu)
}

/// Waits for child `pid` to exit and reaps it; see `reap(_:deadline:)`.
/// - Parameters:
///   - pid: A child of this process that nobody else reaps.
///   - timeout: Killed with SIGKILL after this long.
/// - Returns: How it ended (`signal 9` after a timeout).
func waitForExit(_ pid: pid_t, timeout: Duration = .seconds(30)) -> Termination {
    reap(pid, deadline: .now + timeout).termination
}

/// What the child's standard input is.
enum Input {
    /// `/dev/null`: at EOF at once.
    case null
    /// Closed (`<&-`).
    case closed
    /// A pipe fed with these bytes, then closed.
    case bytes([UInt8])
    /// `/dev/null` opened write-only, as `nohup` leaves it in place of a terminal: reads fail
    /// with EBADF.
    case writeOnly
}

/// Something to do to the child once its standard output contains a text.
struct Trigger {
    /// The text to wait for on standard output.
    var stdoutContains: String
    /// Called once with the child's pid when the text has appeared (to send it a signal).
    var action: (pid_t) -> Void
}

/// Runs `eggtimer` with `arguments`, stdout and stderr captured through pipes, and waits for it.
/// - Parameters:
///   - arguments: The arguments after the program name.
///   - stdin: What standard input is.
///   - environment: Added to a small fixed environment.
///   - timeout: Killed with SIGKILL after this long (a hang fails the test, never blocks it).
///   - stdoutClosed: Start with standard output closed (`>&-`) instead of a pipe.
///   - stdoutFile: Standard output opened on this file for writing (`>/dev/full`) instead of a pipe.
///   - trigger: Run once when standard output first contains its text (the state it names was reached).
///   - launcher: A program (and its arguments) that runs eggtimer, given its path and `arguments`
///     after these: `["/usr/bin/nohup"]`, or `["/bin/sh", "-c", "trap '' INT; exec \"$0\" \"$@\""]`.
///     The launcher's pid is eggtimer's when it `exec`s it.
/// - Returns: How it ended and what it printed.
func runEggtimer(
    _ arguments: [String], stdin: Input = .null, environment: [String: String] = [:],
    timeout: Duration = .seconds(30), stdoutClosed: Bool = false, stdoutFile: String? = nil,
    trigger: Trigger? = nil, launcher: [String] = []
) -> Finished {
    let deadline = ContinuousClock.now + timeout
    let outPipe = makePipe()
    let errPipe = makePipe()
    let inPipe = makePipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch stdin {
    case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .writeOnly: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_WRONLY, 0)
    case .closed: posix_spawn_file_actions_addclose(&actions, 0)
    case .bytes: posix_spawn_file_actions_adddup2(&actions, inPipe.read, 0)
    }
    if stdoutClosed {
        posix_spawn_file_actions_addclose(&actions, 1)
    } else if let stdoutFile {
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile, O_WRONLY, 0)
    } else {
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
    }
    posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
    let pid =
        launcher.isEmpty
        ? spawn(arguments, actions: &actions, environment: environment)
        : spawn(
            Array(launcher.dropFirst()) + [eggtimerPath] + arguments, actions: &actions, environment: environment,
            executable: launcher[0])
    close(outPipe.write)
    close(errPipe.write)
    close(inPipe.read)
    if case .bytes(let bytes) = stdin { _ = bytes.withUnsafeBytes { write(inPipe.write, $0.baseAddress, $0.count) } }
    close(inPipe.write)

    let (out, err) = collect(stdout: outPipe.read, stderr: errPipe.read, until: deadline) { stdout in
        guard let trigger, stdout.contains(trigger.stdoutContains) else { return false }
        trigger.action(pid)
        return true
    }
    close(outPipe.read)
    close(errPipe.read)
    let reaped = reap(pid, deadline: deadline)
    return Finished(
        termination: reaped.termination, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self), cpu: reaped.cpu)
}

/// Reads two pipes until both are at EOF or `deadline` passes.
/// - Parameters:
///   - stdout: The read end of the child's standard output.
///   - stderr: The read end of the child's standard error.
///   - deadline: When to stop reading (`ContinuousClock`).
///   - onStdout: Called with all of stdout so far after each stdout read, until it returns true.
/// - Returns: The bytes read from each.
private func collect(
    stdout: Int32, stderr: Int32, until deadline: ContinuousClock.Instant, onStdout: (String) -> Bool
) -> (stdout: [UInt8], stderr: [UInt8]) {
    var out: [UInt8] = []
    var err: [UInt8] = []
    var triggered = false
    var open = [stdout, stderr]
    while !open.isEmpty && ContinuousClock.now < deadline {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), pollTimeout(until: deadline)) > 0 else { continue }
        for pfd in fds where pfd.revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(pfd.fd, &chunk, chunk.count)
            if n > 0 {
                if pfd.fd == stdout { out += chunk[0..<n] } else { err += chunk[0..<n] }
                if pfd.fd == stdout && !triggered { triggered = onStdout(String(decoding: out, as: UTF8.self)) }
            } else if n == 0 || errno != EINTR {
                open.removeAll { $0 == pfd.fd }
            }
        }
    }
    return (out, err)
}

/// posix_spawn of the eggtimer binary with `arguments`.
///
/// Appends a close-from-3 action to `actions`: the child gets only descriptors 0, 1 and 2, whatever
/// other threads have open (or are opening) meanwhile.
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
    precondition(posix_spawn_file_actions_addclosefrom_np(&actions, 3) == 0)

    // Each child its own runtime folder, so timers that tests run side by side with the same
    // label (`eggtimer 1 …`) do not meet on one control socket (a second one would be refused).
    // The same for the state folder, so no test leaves timer records in the real home folder.
    let folder = privateRuntimeFolder()
    var env: [String: String] = [
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_RUNTIME_DIR": folder,
        "XDG_STATE_HOME": folder + "/state",
    ]
    env.merge(environment) { $1 }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    // ETXTBSY: a test that has just written an executable (a copy of eggtimer) may find its write
    // descriptor still held by a child another thread is spawning, between clone and exec, however
    // close-on-exec it is. That lasts microseconds and sends no event; retry for a bounded time.
    let giveUp = ContinuousClock.now + .seconds(10)
    var rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    while rc == ETXTBSY && ContinuousClock.now < giveUp {
        _ = poll(nil, 0, 1)
        rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    }
    precondition(rc == 0, "posix_spawn failed: \(rc)")
    return pid
}

/// Starts eggtimer with standard input and error on /dev/null and standard output into a pipe.
/// - Returns: The child's pid and the pipe's read end, which the caller closes.
func spawnIntoPipe(_ arguments: [String]) -> (pid: pid_t, reader: Int32) {
    let ends = makePipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let pid = spawn(arguments, actions: &actions)
    close(ends.write)
    return (pid, ends.read)
}

/// The runtime folders made for children, removed when the test process exits.
nonisolated(unsafe) private var runtimeFolders: [String] = []
private let runtimeFoldersLock = DispatchSemaphore(value: 1)

/// A fresh private folder for one child's `XDG_RUNTIME_DIR`.
func privateRuntimeFolder() -> String {
    let folder = temporaryDirectory()
    runtimeFoldersLock.wait()
    if runtimeFolders.isEmpty {
        atexit {
            for folder in runtimeFolders { removeDirectory(folder) }
        }
    }
    runtimeFolders.append(folder)
    runtimeFoldersLock.signal()
    return folder
}
