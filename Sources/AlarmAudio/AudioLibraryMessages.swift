import CAlsa

/// Stops alsa-lib from printing "ALSA lib …" diagnostics to standard error; failures are still
/// reported through return codes and thus ``AlarmError``.
///
/// Call once at process start, before any device is opened. libmpg123 needs no such call: every
/// decoder this module creates is set to quiet.
/// C: `snd_lib_error_set_handler` (via `CAlsa_silenceLibraryErrors`).
public func silenceAudioLibraryMessages() {
    _ = CAlsa_silenceLibraryErrors()
}
