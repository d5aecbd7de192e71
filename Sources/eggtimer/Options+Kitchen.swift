import AlarmAudio
import HouseBus
import Kitchen
import SystemKit
import TimerEngine
import TimerText

// `eggtimer kitchen` from the command line: the options turned into what the kitchen reads, and
// the kitchen run with what the executable lends it (the alarm's loading, the MQTT link).

extension Options {
    /// What the kitchen reads of these options.
    var kitchenSettings: KitchenSettings {
        var settings = KitchenSettings()
        settings.device = device
        settings.fallback = fallback
        settings.soundPath = soundPath
        settings.volume = volume
        settings.ramp = ramp
        settings.voice = voice
        settings.announce = announce != false
        settings.bus = bus
        settings.web = web
        settings.keypad = keypad
        if let listenDevice {
            var listen = ListenSettings(device: listenDevice)
            if let wakePhrase { listen.wakePhrase = wakePhrase }
            listen.labels = listenLabels
            listen.wakeConfigLine = wakeConfigLine.map { "\($0.file):\($0.number)" }
            settings.listen = listen
        }
        settings.presets = presets
        settings.maxTimers = maxTimers
        return settings
    }

    /// Sets `--pair` or `--unpair` (the kitchen's web pairing), which do not go together.
    /// - Throws: `UsageError` naming the option when the other one was given.
    mutating func setKitchenPairing(_ command: ControlCommand, _ name: ValueSource) throws(UsageError) {
        if let earlier = kitchenPairing, earlier != command {
            throw name.error("does not go with '\(earlier == .pair ? "--pair" : "--unpair")'")
        }
        kitchenPairing = command
    }
}

extension Kitchen {
    /// `eggtimer kitchen`: the config file's settings under the command line, the voice checked,
    /// then ``Kitchen/run()``.
    /// - Parameters:
    ///   - arguments: The command line after the program name.
    ///   - raw: The same arguments as bytes.
    /// - Returns: The exit status (see ``Kitchen/run()``); 78 for a bad config file (a `voice =`
    ///   espeak-ng does not list included), 64 for a bad command line (`--voice` included).
    static func run(arguments: [String], raw: [[UInt8]]) -> ExitStatus {
        let options: Options
        do throws(ExitStatus) { options = try Options.longRunning(arguments, raw: raw) } catch { return error }
        let settings = options.kitchenSettings
        if settings.listen == nil, options.wakePhrase != nil || !options.listenLabels.isEmpty {
            printError("eggtimer: warning: kitchen: wake and listen-labels do nothing without listen (--listen DEVICE)")
        }
        // A device's failure (the microphone's, the speaker test's) is the kitchen's one line,
        // not alsa-lib's too; before any thread starts.
        silenceAudioLibraryMessages()
        if settings.announce, let voice = settings.voice {
            do throws(ExitStatus) { try Options.checkVoice(voice, from: options.voiceConfigLine) } catch {
                return error
            }
        }
        return Kitchen(settings: settings, loadSound: Self.loadSound).run()
    }

    /// The alarm as a timer loads it (``Startup/loadSound(_:warnings:)``); nil when it cannot be read.
    private static func loadSound(_ path: SoundFilePath?) -> AlarmSound? {
        var warnings: [String] = []
        return try? Startup.loadSound(path, warnings: &warnings)
    }
}
