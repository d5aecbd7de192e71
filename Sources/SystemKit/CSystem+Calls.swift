import CSystem
import Glibc

// The calls of CSystem whose public wrappers take or give a C struct (`timespec`, `pollfd`,
// `posix_spawn_file_actions_t`): those wrappers live in files that import only Glibc, because a
// struct seen through an internal `import CSystem` in the same file counts as internal there.

/// `timerfd_settime` with `TFD_TIMER_ABSTIME` (and `TFD_TIMER_CANCEL_ON_SET`); nil disarms.
/// - Returns: 0, or -1 with `errno` set.
func systemSetTimer(_ timer: Int32, _ deadline: timespec?, cancelOnClockSet: Bool) -> Int32 {
    var setting = itimerspec(it_interval: timespec(), it_value: deadline ?? timespec())
    var flags: Int32 = 0
    if deadline != nil {
        flags = Int32(TFD_TIMER_ABSTIME) | (cancelOnClockSet ? CSystem_TFD_TIMER_CANCEL_ON_SET : 0)
    }
    return timerfd_settime(timer, flags, &setting, nil)
}

/// `ppoll` without a signal mask; a nil `timeout` waits until one is ready.
/// - Returns: The ready count, or -1 with `errno` set.
func systemPoll(_ descriptors: inout [pollfd], _ timeout: timespec?) -> Int32 {
    let count = nfds_t(descriptors.count)
    return descriptors.withUnsafeMutableBufferPointer { fds in
        guard var limit = timeout else { return ppoll(fds.baseAddress, count, nil, nil) }
        return ppoll(fds.baseAddress, count, &limit, nil)
    }
}

/// `posix_spawn_file_actions_addclosefrom_np`.
/// - Returns: 0, or an `errno` value.
func systemAddCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
    posix_spawn_file_actions_addclosefrom_np(&actions, lowest)
}

/// `signalfd` on a new descriptor with `flags`.
/// - Returns: The descriptor, or -1 with `errno` set.
func systemSignalDescriptor(_ signals: [Int32], flags: Int32) -> Int32 {
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in signals { sigaddset(&mask, signal) }
    return signalfd(-1, &mask, flags)
}

/// `pidfd_open` with no flags.
/// - Returns: The descriptor, or -1 with `errno` set.
func systemProcessDescriptor(_ pid: Int32) -> Int32 { pidfd_open(pid, 0) }

/// `POSIX_SPAWN_SETSID`.
let systemSpawnNewSessionFlag: Int16 = CSystem_POSIX_SPAWN_SETSID
