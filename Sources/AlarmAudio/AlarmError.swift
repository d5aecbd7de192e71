/// Why an alarm sound could not be loaded or played.
///
/// Each case carries the file or device it concerns and a one-line, human-readable reason
/// (for ALSA, the `snd_strerror` text; for files, the `strerror` text or the decoder's message).
/// Underruns, suspends and interrupted calls are recovered inside the player and never surface here.
public enum AlarmError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The sound file could not be opened: it does not exist, is not readable, or is not a regular
    /// file (a directory, a named pipe, a device such as `/dev/zero`); the reason says which.
    case soundNotFound(path: String, reason: String)
    /// The sound file was opened but holds no playable MPEG audio: empty, not MP3, or corrupt.
    ///
    /// The reason says plainly what is wrong first, for example "empty file", or what the file looks
    /// like and how to convert it ("a WAV file, not MP3; convert it with: lame in.wav out.mp3"), with
    /// libmpg123's text in parentheses only where it adds something. The path is in the display form
    /// of ``SoundFilePath``: bytes that are not UTF-8 shown as `\xHH`.
    case unreadableSound(path: String, reason: String)
    /// ALSA's configuration defines no PCM by this name (nor by the part before its first `:`), so
    /// no hardware can make it work; `defined` lists the names it does define, in its own order.
    case deviceUndefined(device: String, defined: [String])
    /// The ALSA device could not be opened or configured.
    case deviceUnavailable(device: String, reason: String)
    /// The ALSA device is held by another process (the open answered `EBUSY`), as a `hw:` or
    /// `plughw:` device is while another timer rings on it: it will be free again by itself, so
    /// the player retries every ``AlarmPlayer/busyRetry`` instead of backing off.
    case deviceBusy(device: String)
    /// The ALSA device failed while playing (for example, a USB speaker was unplugged).
    case deviceLost(device: String, reason: String)
    /// The ALSA device did not return from a call within ``AlarmPlayer/answerLimit``: it looks
    /// stalled (a hung sound server, a Bluetooth sink, a `file:` PCM writing into a pipe nobody
    /// reads). The thread making the call was abandoned.
    ///
    /// - `call` names the alsa-lib function the thread was in, for example `"snd_pcm_writei"`
    ///   (`"snd_pcm_open"` covers opening and configuring), or `"stop request"` when the thread
    ///   was in no device call yet did not answer a stop in time.
    case deviceHung(device: String, call: String)

    /// One line without a trailing newline, suitable for a terminal or a log.
    public var description: String {
        switch self {
        case .soundNotFound(let path, let reason): "cannot open sound file '\(path)': \(reason)"
        case .unreadableSound(let path, let reason): "cannot play sound file '\(path)': \(reason)"
        case .deviceUndefined(let device, let defined):
            "no ALSA device called '\(device)' (defined: \(defined.isEmpty ? "none" : defined.joined(separator: ", ")); see aplay -L)"
        case .deviceUnavailable(let device, let reason): "cannot open audio device '\(device)': \(reason)"
        case .deviceBusy(let device):
            "audio device '\(device)' is busy (another alarm or program has it open); waiting for it"
        case .deviceLost(let device, let reason): "lost audio device '\(device)': \(reason)"
        case .deviceHung(let device, let call):
            "audio device '\(device)' did not answer within \(AlarmPlayer.answerLimitText) (\(call)); it looks stalled"
        }
    }
}
