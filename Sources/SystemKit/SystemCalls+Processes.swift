public import Glibc

extension FileDescriptor {
    /// A descriptor that polls readable once the process `pid` has exited (close-on-exec, as
    /// every pidfd is); reap the process with `waitpid` as usual.
    /// - Parameter pid: A running process (a `pid_t`; a child, to reap it); must be positive.
    /// - Returns: The pidfd.
    /// - Throws: ``Errno`` (`ESRCH` for no such process, `ENOSYS` before Linux 5.3, `EINVAL`
    ///   for a pid that is not positive). Any thread. C: `pidfd_open`.
    public static func process(_ pid: Int32) throws(Errno) -> FileDescriptor {
        guard pid > 0 else { throw Errno(EINVAL) }
        let result = systemProcessDescriptor(pid)
        guard result >= 0 else { throw .current }
        return FileDescriptor(owning: result)
    }
}

/// The `posix_spawnattr_setflags` flag that makes the child call `setsid()`: a session of its own,
/// with no controlling terminal (`POSIX_SPAWN_SETSID`, declared only under `_GNU_SOURCE`).
public let spawnNewSessionFlag: Int16 = systemSpawnNewSessionFlag

/// Adds the action that closes every descriptor from `lowest` up in the child, after the
/// actions added before it: the child then has only what those set up.
/// - Parameters:
///   - actions: Initialised file actions (`posix_spawn_file_actions_init`).
///   - lowest: The first descriptor closed (3 keeps standard input, output and error); 0 or more.
/// - Throws: ``Errno`` (`EBADF` for a negative `lowest`, `ENOMEM`).
///   C: `posix_spawn_file_actions_addclosefrom_np`.
public func addCloseFrom(_ actions: inout Glibc.posix_spawn_file_actions_t, from lowest: Int32) throws(Errno) {
    let result = systemAddCloseFrom(&actions, lowest)
    guard result == 0 else { throw Errno(result) }
}
