import CAlsa
import Glibc

/// Stops alsa-lib from printing "ALSA lib …" diagnostics to standard error; failures are still
/// reported through return codes and thus ``AlarmError``.
///
/// Also keeps libpulse quiet where it has no home folder: ALSA's `pulse` plugin (the `default`
/// device on a desktop or a Pi with PulseAudio) loads libpulse, which looks for its cookie and
/// client.conf under the home folder and, with no `HOME` and no password-database entry (a
/// container's or a service's uid), prints "Failed to get home directory." and "Failed to load
/// cookie file" to standard error on each device open, though the connection works. Then, unless
/// the environment says otherwise, its log goes to syslog (`PULSE_LOG_SYSLOG=1`) instead.
///
/// Call once at process start, before any device is opened and before other threads start (it may
/// set an environment variable). libmpg123 needs no such call: every decoder this module creates
/// is set to quiet.
/// C: `snd_lib_error_set_handler` (via `CAlsa_silenceLibraryErrors`), `getpwuid`, `setenv`.
public func silenceAudioLibraryMessages() {
    _ = CAlsa_silenceLibraryErrors()
    if !hasHomeFolder() { setenv("PULSE_LOG_SYSLOG", "1", 0) }
}

/// Whether libpulse can find a home folder: `HOME` or `USERPROFILE` set, or the user's
/// password-database entry (the order libpulse's `pa_get_home_dir` tries).
func hasHomeFolder() -> Bool {
    if getenv("HOME") != nil || getenv("USERPROFILE") != nil { return true }
    return getpwuid(getuid())?.pointee.pw_dir != nil
}
