import AlarmAudio
import Glibc
import SystemKit
import TimerEngine

/// What eggtimer prepares before counting: the decoded sound and what is known about the device,
/// so that a problem shows while it can still be fixed.
struct Startup {
    /// The sound to ring.
    var sound: AlarmSound
    /// Warnings already printed to standard error; the UI shows them again, since its full screen
    /// hides what was printed before it.
    var warnings: [String] = []
    /// Why the device did not open when tried at start, if it did not.
    var deviceProblem: AlarmError?

    /// The quietest peak that counts as an alarm: -60 dBFS, 32768 × 10^(-60/20) ≈ 33 (sample value).
    static let audiblePeak = 33

    /// Checks that ALSA defines the device, decodes the sound and tries the device (for at most
    /// ``AlarmPlayer/answerLimit``).
    ///
    /// Runs before signals are blocked, so Ctrl-C still ends a start-up that stalls on a slow disk.
    /// - Parameter options: The command line.
    /// - Throws: `ExitStatus.unavailable` when ALSA's configuration defines no device by that name
    ///   (`-D nosuchdevice`: no hardware can fix it, so there is no point counting); a device that is
    ///   defined but absent now only warns, as does one busy now (`EBUSY`: another timer rings on
    ///   it), which is not even a device problem. `ExitStatus.noInput` or `.dataError` when `--sound` names
    ///   a missing or a non-audio file. One line on standard error says which.
    init(options: Options) throws(ExitStatus) {
        do {
            try AlarmPlayer.checkDefined(device: options.device)
        } catch {
            printError("eggtimer: \(error)")
            throw .unavailable
        }
        var warnings: [String] = []
        sound = try Self.loadSound(options.soundPath, warnings: &warnings)
        self.warnings = warnings
        func warn(_ text: String) {
            printError("eggtimer: warning: " + text)
            self.warnings.append(text)
        }
        do {
            try AlarmPlayer.probe(device: options.device, sound: sound)
            // The device works; a fallback that can never work is said now, not when it is needed.
            if let fallback = options.fallback {
                do { try AlarmPlayer.checkDefined(device: fallback) } catch {
                    warn("fallback device: \(error); a ringing cannot move to it")
                }
            }
        } catch .deviceBusy {
            // Another timer may be ringing on it: no fault, and it may be free by the deadline.
            warn("audio device '\(options.device)' is busy now; at the deadline the alarm waits for it")
        } catch {
            guard let fallback = options.fallback else {
                printError(
                    "eggtimer: \(error); the countdown runs anyway and the alarm falls back to the terminal bell."
                        + " Pick a device with -D NAME (see aplay -L).")
                deviceProblem = error
                return
            }
            guard let fallbackError = Self.problem(with: fallback, sound: sound) else {
                warn("\(error); the alarm plays on the fallback device '\(fallback)'")
                return
            }
            printError(
                "eggtimer: \(error); the fallback device fails too: \(fallbackError); the countdown runs anyway"
                    + " and, unless one of them answers by the deadline, the alarm falls back to the terminal bell."
                    + " Pick a device with -D NAME (see aplay -L).")
            deviceProblem = error
        }
    }

    /// What keeps `device` from playing now: not defined, not opening, or not answering within
    /// ``AlarmPlayer/answerLimit``; nil when it works (or is busy: held by another timer, it is
    /// there).
    private static func problem(with device: String, sound: AlarmSound) -> AlarmError? {
        do {
            try AlarmPlayer.checkDefined(device: device)
            try AlarmPlayer.probe(device: device, sound: sound)
            return nil
        } catch .deviceBusy {
            return nil
        } catch {
            return error
        }
    }

    /// The sound to ring: `--sound PATH` (errors are fatal), else the shipped sound, else (a
    /// damaged install) the built-in tone.
    static func loadSound(_ soundPath: SoundFilePath?, warnings: inout [String]) throws(ExitStatus)
        -> AlarmSound
    {
        func warn(_ text: String) {
            printError("eggtimer: warning: " + text)
            warnings.append(text)
        }
        /// Decodes `path`, passing its warnings on; a silent file gets the built-in tone instead.
        func decodeAudible(_ path: SoundFilePath) throws(AlarmError) -> AlarmSound {
            let sound = try AlarmSound.decode(path: path)
            for warning in sound.warnings { warn("\(path): \(warning)") }
            guard isAudible(sound) else {
                warn("\(path) is silent (peak below -60 dBFS); using the built-in alarm tone")
                return AlarmSound.builtInTone()
            }
            return sound
        }
        if let soundPath {
            do {
                return try decodeAudible(soundPath)
            } catch {
                printError("eggtimer: \(error)")
                if case .soundNotFound = error { throw .noInput }
                throw .dataError
            }
        }
        guard let path = SoundLocator.locate() else {
            warn("\(SoundLocator.fileName) not found beside the program; using the built-in alarm tone")
            return AlarmSound.builtInTone()
        }
        do {
            return try decodeAudible(SoundFilePath(path))
        } catch {
            warn("\(error); using the built-in alarm tone")
            return AlarmSound.builtInTone()
        }
    }

    /// Whether `sound` can be heard at all: a silent file is a broken alarm, not a choice.
    static func isAudible(_ sound: AlarmSound) -> Bool { sound.peakAmplitude >= audiblePeak }
}
