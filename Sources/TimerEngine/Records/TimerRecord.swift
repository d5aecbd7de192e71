package import AlarmAudio
import TextCoding
import TimerModel
import TimerText

/// What a running timer writes about itself so that `eggtimer recover` can start it again after a
/// `kill -9`, a power cut or a reboot: its deadline on two clocks, its state, and the options that
/// ring it.
///
/// The file format (version 1) is UTF-8 text, one `key=value` per line, the value being all of
/// the line after the first `=` (nothing is trimmed); the first line is `eggtimer-record 1`.
/// Blank lines and lines starting with `#` are ignored, as are unknown keys (a later eggtimer may
/// add some without a new version); a key given twice makes the record corrupt. Free text that
/// could hold anything (the device name, `--on-done`) is written as `KEY=text` when it has no
/// control characters, else as `KEY_hex=` followed by its bytes in hex; the sound path, which is
/// bytes (``SoundFilePath``), is always `sound_hex=`. Times are decimal nanoseconds.
///
/// ```
/// eggtimer-record 1
/// label=tea                         the timer's label (its title for a plain countdown)
/// kind=egg                          plain | egg | pomodoro
/// preset=Soft                       egg only: the preset's name, for the title
/// total_ns=300000000000             the countdown's length, + and - included
/// state=counting                    counting | paused | snoozed | ringing
/// deadline_boot_ns=123…             CLOCK_BOOTTIME of the deadline (not when paused)
/// deadline_unix_ns=1764…            the same deadline as Unix time, UTC (not when paused)
/// remaining_ns=42000000000          paused only: the time left
/// boot_id=6f1c…                     /proc/sys/kernel/random/boot_id when written
/// pid=4242                          the process that wrote it
/// pid_start=123456                  its start, clock ticks after boot (/proc/PID/stat field 22)
/// device=default                    -D
/// fallback_device=default           --fallback-device, absent for none
/// sound_hex=2f686f6d65…             --sound, absent for the shipped sound
/// loops=3                           --loops, absent: until acknowledged
/// ring_for_ns=…  volume=100  ramp_ns=…  on_done=…      --ring-for, --volume, --ramp, --on-done
/// say=Pasta is ready  announce=yes  voice=de   --say (text or _hex), --announce, --voice; absent
///                                   when not given (records written before them read as none)
/// mqtt=mqtt://ann@hub:1883          --mqtt as given (it never holds a password); the other mqtt_
/// mqtt_node=kitchen                 keys only with it: the node the topics used (--node, else the
/// mqtt_prefix=eggtimer              host name then), --mqtt-prefix, --mqtt-keepalive,
/// mqtt_keepalive_ns=30000000000     --mqtt-cafile and --mqtt-password-file as absolute paths
/// mqtt_cafile=/etc/ssl/house.pem    (text or _hex). Never the password itself: one from
/// mqtt_password_file=/home/ann/.pw  EGGTIMER_MQTT_PASSWORD is read again from recover's environment.
/// ended=SIGTERM                     written as a signal ends the process and keeps the record
/// ```
///
/// A value type; encoding and decoding are pure.
package struct TimerRecord: Equatable, Sendable {
    /// The format this eggtimer writes and reads.
    package static let formatVersion = 1
    /// The first line of every record of ``formatVersion``.
    package static let header = "eggtimer-record \(formatVersion)"
    /// The largest record read, in bytes (a real one is under 1 KiB).
    package static let maximumBytes = 16384

    /// What the timer is for, which sets its title.
    package enum Kind: Equatable, Sendable {
        case plain
        /// An egg, by the preset's name (`Soft`).
        case egg(String)
        /// A pomodoro interval: recorded, but not recovered (see ``Recover``).
        case pomodoro
    }

    /// The timer's state, named as ``TimerState`` names it.
    package enum State: String, Equatable, Sendable, CaseIterable {
        case counting, paused, snoozed, ringing
    }

    /// The options that ring the timer, as given on its command line.
    package struct Alarm: Equatable, Sendable {
        package var device: String
        /// `--fallback-device`; nil for none (records written before it read as none).
        package var fallbackDevice: String?
        package var sound: SoundFilePath?
        package var loops: Int?
        package var ringFor: Duration?
        /// 0–100 as read (records written before issue 37 may hold less than the floor, 10;
        /// ``Resume`` raises it to the floor).
        package var volume: Int
        /// As read, up to the longest duration (``Resume`` cuts it to 60 s).
        package var ramp: Duration?
        package var onDone: String?
        /// `--say`'s text; nil for none.
        package var say: String?
        /// `--announce`.
        package var announce: Bool
        /// `--voice`; nil for espeak-ng's default.
        package var voice: String?

        /// The options as given; each left out is as when not given (device `default`, the
        /// shipped sound, until acknowledged, volume 100, no ramp, no command, no speech).
        package init(
            device: String = "default", fallbackDevice: String? = nil, sound: SoundFilePath? = nil, loops: Int? = nil,
            ringFor: Duration? = nil, volume: Int = 100, ramp: Duration? = nil, onDone: String? = nil,
            say: String? = nil, announce: Bool = false, voice: String? = nil
        ) {
            (self.device, self.fallbackDevice, self.sound, self.loops, self.ringFor, self.volume) =
                (device, fallbackDevice, sound, loops, ringFor, volume)
            (self.ramp, self.onDone, self.say, self.announce, self.voice) = (ramp, onDone, say, announce, voice)
        }
    }

    package var label: String
    package var kind: Kind
    /// The full length, including `+`/`-` adjustments; more than zero.
    package var total: Duration
    package var state: State
    /// The deadline as CLOCK_BOOTTIME nanoseconds; nil when paused.
    package var deadlineBootNanoseconds: Int64?
    /// The deadline as Unix time in nanoseconds (UTC); nil when paused.
    package var deadlineUnixNanoseconds: Int64?
    /// The time left; set when paused, nil otherwise.
    package var remaining: Duration?
    /// The kernel's boot id when written: whether the boot clock still counts from the same boot.
    package var bootID: String
    package var pid: Int32
    /// When ``pid`` started (`/proc/PID/stat` field 22, clock ticks after boot): in the same boot
    /// a live process with the pid is the writer only if it started then (pids are reused).
    ///
    /// Its key (`pid_start`) came later in version 1; nil in an older record.
    package var pidStart: UInt64? = nil
    package var alarm = Alarm()
    /// An alarm at a time (`eggtimer at`): its occurrence, local time and `--every`; nil for a
    /// countdown.
    ///
    /// Its keys (`alarm_unix_ns`, `alarm_date`, `alarm_time`, `every`) came later in
    /// version 1: an older eggtimer ignores them and recovers the alarm as a plain countdown.
    package var schedule: ScheduleRecord?
    /// The broker the timer joined (`--mqtt` and its options); nil without `--mqtt`.
    ///
    /// Its keys (`mqtt`, `mqtt_*`) came later in version 1: an older eggtimer ignores them and
    /// recovers the timer without MQTT. Holds no password, only where one is read from.
    package var bus: BusOptions?
    /// The signal that ended the process and kept the record (`SIGTERM`), written as it ends;
    /// nil while it runs, or when it never got to say (`kill -9`, a power cut).
    ///
    /// Key `ended`, added later in version 1: an older eggtimer ignores it.
    package var ended: String?

    /// The record as file content, ending with a newline.
    package var text: String {
        var lines = [Self.header]
        func add(_ key: String, _ value: String?) { if let value { lines.append(key + "=" + value) } }
        func addText(_ key: String, _ value: String?) {
            guard let value else { return }
            let plain = !value.containsControlCharacters  // C1 too: a record is read by people
            lines.append(plain ? key + "=" + value : key + "_hex=" + Hex.text(value.utf8))
        }
        addText("label", label)
        switch kind {
        case .plain: add("kind", "plain")
        case .pomodoro: add("kind", "pomodoro")
        case .egg(let preset):
            add("kind", "egg")
            addText("preset", preset)
        }
        add("total_ns", "\(total.nanoseconds)")
        add("state", state.rawValue)
        add("deadline_boot_ns", deadlineBootNanoseconds.map { "\($0)" })
        add("deadline_unix_ns", deadlineUnixNanoseconds.map { "\($0)" })
        add("remaining_ns", remaining.map { "\($0.nanoseconds)" })
        add("boot_id", bootID)
        add("pid", "\(pid)")
        add("pid_start", pidStart.map { "\($0)" })
        addText("device", alarm.device)
        addText("fallback_device", alarm.fallbackDevice)
        add("sound_hex", alarm.sound.map { Hex.text($0.bytes) })
        add("loops", alarm.loops.map { "\($0)" })
        add("ring_for_ns", alarm.ringFor.map { "\($0.nanoseconds)" })
        add("volume", "\(alarm.volume)")
        add("ramp_ns", alarm.ramp.map { "\($0.nanoseconds)" })
        addText("on_done", alarm.onDone)
        addText("say", alarm.say)
        add("announce", alarm.announce ? "yes" : nil)
        add("voice", alarm.voice)
        if let schedule {
            add("alarm_unix_ns", "\(schedule.occurrence.unixNanoseconds)")
            add("alarm_date", schedule.date.map { "\($0)" })
            let time = schedule.time
            add("alarm_time", "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))")
            addText("every", schedule.every)
        }
        if let bus, let url = bus.url {
            addText("mqtt", url)
            addText("mqtt_node", bus.node)
            addText("mqtt_prefix", bus.prefix)
            add("mqtt_keepalive_ns", "\(bus.keepalive.nanoseconds)")
            addText("mqtt_cafile", bus.caFile)
            addText("mqtt_password_file", bus.passwordFile)
        }
        add("ended", ended)
        return lines.joined(separator: "\n") + "\n"
    }

}
