public import Glibc
import SystemKit

/// Starts `executable` with `posix_spawn`: the child gets only what `actions` set up on
/// descriptors 0, 1 and 2, whatever other threads have open (or are opening) meanwhile, no blocked
/// signal, default dispositions, and exactly `environment` (plus the test process's own wall-clock
/// seam, ``RealtimeShift/inherited``, for the variables `environment` does not set).
///
/// Appends a close-from-3 action to `actions`. A spawn that fails with ETXTBSY is retried for up
/// to 10 s: a test that has just written an executable (a copy of eggtimer) may find its write
/// descriptor still held by a child another thread is spawning, between clone and exec, however
/// close-on-exec it is; that lasts microseconds and sends no event.
/// - Parameters:
///   - executable: The program's path (no PATH search).
///   - arguments: The arguments after the program's name.
///   - actions: What to do to descriptors 0, 1 and 2 in the child.
///   - environment: The child's whole environment.
///   - newSession: Whether the child calls `setsid()` (its own session, for a pseudo-terminal).
/// - Returns: The child's pid; the caller reaps it (``reap(_:deadline:)``, ``Child/wait(timeout:)``).
public func spawnProcess(
    _ executable: String, _ arguments: [String], actions: inout Glibc.posix_spawn_file_actions_t,
    environment: [String: String], newSession: Bool = false
) -> Glibc.pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= Int32(spawnNewSessionFlag) }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    do { try addCloseFrom(&actions, from: 3) } catch { preconditionFailure("close-from: \(error)") }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let environment = environment.merging(RealtimeShift.inherited) { own, _ in own }
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: Glibc.pid_t = 0
    let giveUp = ContinuousClock.now + .seconds(10)
    var rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    while rc == ETXTBSY && ContinuousClock.now < giveUp {
        _ = poll(nil, 0, 1)
        rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    }
    precondition(rc == 0, "posix_spawn \(executable) failed: \(rc)")
    return pid
}
