import SystemKit
import TimerEngine

extension RecordKeeper {
    /// A keeper for the process labelled `label`, or nil (said once on standard error) when no
    /// state folder can be had: the timer then runs but will not survive a restart.
    /// - Parameters:
    ///   - label: The control socket's label.
    ///   - options: The command line (the alarm options are recorded).
    ///   - resumedFrom: The record this process was started from, if any.
    /// - Returns: The keeper, which writes nothing until ``update(_:schedule:recoveredDeadline:clock:)``;
    ///   a failed write is said on standard error.
    static func open(label: String, options: Options, resumedFrom: String?) -> RecordKeeper? {
        guard let store = RecordStore.current(), let bootID = BootClock.bootID() else {
            printError(
                "eggtimer: warning: no state folder (set XDG_STATE_HOME or HOME); the timer will not survive a restart")
            return nil
        }
        do { try store.prepare() } catch {
            printError("eggtimer: warning: \(error); the timer will not survive a restart")
            return nil
        }
        let alarm = TimerRecord.Alarm(
            device: options.device, fallbackDevice: options.fallback, sound: options.soundPath.map(absoluteSound),
            loops: options.loops,
            ringFor: options.ringFor,
            volume: options.volume, ramp: options.ramp, onDone: options.onDone, say: options.say,
            announce: options.announce == true, voice: options.voice)
        let name = RecordStore.fileName(label: label)
        let takeover = resumedFrom.flatMap { $0 == store.folder + "/" + name ? nil : $0 }
        return RecordKeeper(
            store: store, name: name, alarm: alarm, bus: recordedBus(options.bus), presets: options.presets,
            bootID: bootID, takeover: takeover, warn: printError)
    }
}
