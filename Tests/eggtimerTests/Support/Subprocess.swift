import Dispatch
import Glibc
import TestSupport

/// What a finished child printed and how it ended.
struct Finished {
    var termination: Termination
    var stdout: String
    var stderr: String
    /// User + system CPU time the child used.
    var cpu: Duration
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

/// posix_spawn of the eggtimer binary with `arguments`, in a private runtime and state folder of
/// its own (see ``spawnProcess(_:_:actions:environment:newSession:)``: close-from 3, default signals).
func spawn(
    _ arguments: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String] = [:],
    newSession: Bool = false, executable: String = eggtimerPath
) -> pid_t {
    // Each child its own runtime folder, so timers that tests run side by side with the same
    // label (`eggtimer 1 …`) do not meet on one control socket (a second one would be refused).
    // The same for the state folder, so no test leaves timer records in the real home folder.
    let folder = privateRuntimeFolder()
    var env: [String: String] = [
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_RUNTIME_DIR": folder,
        "XDG_STATE_HOME": folder + "/state",
    ]
    env.merge(environment) { $1 }
    return spawnProcess(executable, arguments, actions: &actions, environment: env, newSession: newSession)
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
    let folder = makePrivateDirectory()
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
