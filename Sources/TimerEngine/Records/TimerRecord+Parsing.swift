import AlarmAudio
import HouseBus
import SystemKit
package import TextCoding
import TimerCore
package import TimerText

extension TimerRecord {
    /// Reads a record from a file's content (see ``TimerRecord`` for the format).
    /// - Parameter content: The file's bytes.
    /// - Throws: ``RecordError/unknownVersion(_:)`` when the first line is not ``header``;
    ///   ``RecordError/corrupt(line:reason:)`` naming the first bad line or the missing key.
    package init(parsing content: [UInt8]) throws(RecordError) {
        guard content.count <= Self.maximumBytes else {
            throw .corrupt(line: 0, reason: "larger than \(Self.maximumBytes) bytes")
        }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw .corrupt(line: 0, reason: "not UTF-8 text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header) else {
            throw .unknownVersion(String(lines.first?.prefix(40) ?? ""))
        }
        var fields = Fields()
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty && !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else {
                throw .corrupt(line: index + 1, reason: "no '=' in '\(line.prefix(40))'")
            }
            let key = String(line[..<equals])
            guard fields.values[key] == nil else { throw .corrupt(line: index + 1, reason: "'\(key)' given twice") }
            fields.values[key] = (line[line.index(after: equals)...], index + 1)
        }
        try self.init(fields)
    }

    /// The key=value lines of one record, with their line numbers.
    private struct Fields {
        package var values: [String: (value: Substring, line: Int)] = [:]

        package func required(_ key: String) throws(RecordError) -> Substring {
            guard let field = values[key] else { throw .corrupt(line: 0, reason: "no '\(key)'") }
            return field.value
        }

        /// `key=text`, or `key_hex=` decoded as UTF-8.
        package func text(_ key: String) throws(RecordError) -> String? {
            if let field = values[key] { return String(field.value) }
            guard let field = values[key + "_hex"] else { return nil }
            guard let bytes = Hex.bytes(field.value), let text = String(validating: bytes, as: UTF8.self)
            else { throw .corrupt(line: field.line, reason: "'\(key)_hex' is not hex of UTF-8 text") }
            return text
        }

        /// A decimal integer within `range`, or nil when absent.
        package func integer(_ key: String, in range: ClosedRange<Int64>) throws(RecordError) -> Int64? {
            guard let field = values[key] else { return nil }
            guard field.value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }), let number = Int64(field.value),
                range.contains(number)
            else {
                throw .corrupt(
                    line: field.line, reason: "'\(key)' is not a number from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return number
        }

        /// Nanoseconds within `(positive ? 1 : 0)...limit`, or nil when absent.
        package func duration(_ key: String, positive: Bool = true, atMost limit: Int64 = TimerRecord.nanosecondsLimit)
            throws(RecordError) -> Duration?
        {
            try integer(key, in: (positive ? 1 : 0)...limit).map { .nanoseconds($0) }
        }
    }

    private init(_ fields: Fields) throws(RecordError) {
        guard let label = try fields.text("label"), !label.isEmpty, label.utf8.count <= 256 else {
            throw .corrupt(line: 0, reason: "no 'label'")
        }
        // A label is one line naming a timer, never a path: `../../etc` is not one eggtimer wrote.
        guard !label.contains("/"), label != ".", label != "..",
            !label.unicodeScalars.contains(where: { $0.isControlCharacter })
        else {
            throw .corrupt(line: 0, reason: "'label' is not a timer's label")
        }
        self.label = label
        switch try fields.required("kind") {
        case "plain": kind = .plain
        case "pomodoro": kind = .pomodoro
        case "egg":
            guard let preset = try fields.text("preset") else {
                throw .corrupt(line: 0, reason: "an egg without 'preset'")
            }
            kind = .egg(preset)
        case let other: throw .corrupt(line: fields.values["kind"]!.line, reason: "unknown kind '\(other.prefix(20))'")
        }
        guard let total = try fields.duration("total_ns") else { throw .corrupt(line: 0, reason: "no 'total_ns'") }
        self.total = total
        let stateText = try fields.required("state")
        guard let state = State(rawValue: String(stateText)) else {
            throw .corrupt(line: fields.values["state"]!.line, reason: "unknown state '\(stateText.prefix(20))'")
        }
        self.state = state
        deadlineBootNanoseconds = try fields.integer("deadline_boot_ns", in: 0...Self.nanosecondsLimit)
        deadlineUnixNanoseconds = try fields.integer("deadline_unix_ns", in: 0...Self.nanosecondsLimit)
        remaining = try fields.duration("remaining_ns", positive: false, atMost: Self.longestNanoseconds)
        if state == .paused {
            guard remaining != nil else { throw .corrupt(line: 0, reason: "paused without 'remaining_ns'") }
        } else if deadlineBootNanoseconds == nil || deadlineUnixNanoseconds == nil {
            throw .corrupt(line: 0, reason: "\(state.rawValue) without 'deadline_boot_ns' and 'deadline_unix_ns'")
        }
        bootID = String(try fields.required("boot_id"))
        pid = Int32(try fields.integer("pid", in: 1...Int64(Int32.max)) ?? 0)
        guard pid > 0 else { throw .corrupt(line: 0, reason: "no 'pid'") }
        pidStart = try fields.integer("pid_start", in: 0...Int64.max).map { UInt64($0) }
        alarm = try Self.alarm(fields)
        schedule = try Self.schedule(fields)
        bus = try Self.bus(fields)
        if let field = fields.values["ended"] {
            // A signal's name, as eggtimer writes it (`SIGTERM`).
            guard (1...16).contains(field.value.utf8.count), field.value.utf8.allSatisfy({ (65...90).contains($0) })
            else { throw .corrupt(line: field.line, reason: "'ended' is not a signal's name") }
            ended = String(field.value)
        }
    }

    /// The largest time in a record, in nanoseconds (about 126 years).
    ///
    /// It bounds a `total_ns`, a deadline on either clock and an `alarm_unix_ns`: any two of them add or subtract without overflowing `Int64`,
    /// and a Unix time this large (2096) is still a `WallInstant`. A record with a larger one, or a
    /// negative one, is corrupt, as eggtimer never writes it.
    package static let nanosecondsLimit: Int64 = 4_000_000_000_000_000_000

    /// The longest `remaining_ns`, `ring_for_ns` and `ramp_ns`, in nanoseconds: the longest duration
    /// (999:59:59), beyond which no countdown's time left and no option goes.
    package static let longestNanoseconds = DurationParser.maximum.nanoseconds

    /// The last `alarm_date` a record may name: the day before the one holding ``nanosecondsLimit``.
    package static var latestDate: CivilDate {
        CivilDate(daysSinceEpoch: Int(nanosecondsLimit / 86_400_000_000_000) - 1)
    }

    /// The `mqtt` and `mqtt_*` keys; nil when there is no `mqtt`.
    ///
    /// They are checked as the command line checks them: a URL with a password, a node or prefix that is not one makes
    /// the record corrupt.
    private static func bus(_ fields: Fields) throws(RecordError) -> BusOptions? {
        guard let url = try fields.text("mqtt") else { return nil }
        func line(_ key: String) -> Int { fields.values[key]?.line ?? fields.values[key + "_hex"]?.line ?? 0 }
        do { _ = try BrokerAddress.parse(url) } catch {
            throw .corrupt(line: line("mqtt"), reason: "'mqtt' \(error.message)")
        }
        var bus = BusOptions(url: url)
        bus.node = try fields.text("mqtt_node")
        if let node = bus.node, !LabelRule.isValid(node) {
            throw .corrupt(line: line("mqtt_node"), reason: "'mqtt_node' is not a node name")
        }
        if let prefix = try fields.text("mqtt_prefix") {
            guard BusOptions.isValidPrefix(prefix) else {
                throw .corrupt(line: line("mqtt_prefix"), reason: "'mqtt_prefix' is not a topic prefix")
            }
            bus.prefix = prefix
        }
        let keepalive = try fields.integer("mqtt_keepalive_ns", in: 5_000_000_000...65_535_000_000_000)
        if let keepalive { bus.keepalive = .nanoseconds(keepalive) }
        bus.caFile = try fields.text("mqtt_cafile")
        bus.passwordFile = try fields.text("mqtt_password_file")
        return bus
    }

    /// The `alarm_*` and `every` keys of an alarm at a time; nil when there is no `alarm_unix_ns`.
    private static func schedule(_ fields: Fields) throws(RecordError) -> ScheduleRecord? {
        guard let occurrence = try fields.integer("alarm_unix_ns", in: 0...nanosecondsLimit) else { return nil }
        let timeParts = fields.values["alarm_time"].map { $0.value.split(separator: ":").compactMap { Int($0) } } ?? []
        guard timeParts.count == 3, let time = TimeOfDay(hour: timeParts[0], minute: timeParts[1], second: timeParts[2])
        else { throw .corrupt(line: fields.values["alarm_time"]?.line ?? 0, reason: "'alarm_time' is not HH:MM:SS") }
        var date: CivilDate?
        if let field = fields.values["alarm_date"] {
            let parts = field.value.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, let day = CivilDate(year: parts[0], month: parts[1], day: parts[2]) else {
                throw .corrupt(line: field.line, reason: "'alarm_date' is not YYYY-MM-DD")
            }
            // The zone is asked about the days around it, as Unix nanoseconds: within the record's times.
            guard (1..<Int(nanosecondsLimit / 86_400_000_000_000)).contains(day.daysSinceEpoch) else {
                throw .corrupt(line: field.line, reason: "'alarm_date' is not from 1970-01-02 to \(Self.latestDate)")
            }
            date = day
        }
        let every = try fields.text("every")
        if let every, (try? Recurrence.parse(every)) == nil {
            throw .corrupt(line: fields.values["every"]?.line ?? 0, reason: "'every' is not a recurrence")
        }
        return ScheduleRecord(
            occurrence: WallInstant(unixNanoseconds: occurrence), date: date, time: time, every: every)
    }

    private static func alarm(_ fields: Fields) throws(RecordError) -> Alarm {
        var alarm = Alarm()
        guard let device = try fields.text("device"), !device.isEmpty else {
            throw .corrupt(line: 0, reason: "no 'device'")
        }
        alarm.device = device
        if let fallback = try fields.text("fallback_device") {
            // As the command line takes it (a hand-made record must not carry more).
            guard ValueRule.deviceNameProblem(fallback) == nil else {
                throw .corrupt(line: 0, reason: "'fallback_device' is no device name")
            }
            alarm.fallbackDevice = fallback
        }
        if let field = fields.values["sound_hex"] {
            guard let bytes = Hex.bytes(field.value), !bytes.isEmpty else {
                throw .corrupt(line: field.line, reason: "'sound_hex' is not hex")
            }
            alarm.sound = SoundFilePath(bytes: bytes)
        }
        alarm.loops = try fields.integer("loops", in: 1...Int64(ValueRule.countLimit)).map { Int($0) }
        alarm.ringFor = try fields.duration("ring_for_ns", atMost: longestNanoseconds)
        alarm.volume = Int(try fields.integer("volume", in: 0...100) ?? 100)
        alarm.ramp = try fields.duration("ramp_ns", atMost: longestNanoseconds)
        alarm.onDone = try fields.text("on_done")
        if let say = try fields.text("say") {
            guard ValueRule.isValidSay(say) else { throw .corrupt(line: 0, reason: "'say' is no line to speak") }
            alarm.say = say
        }
        if let field = fields.values["announce"] {
            guard field.value == "yes" else { throw .corrupt(line: field.line, reason: "'announce' is not yes") }
            alarm.announce = true
        }
        if let field = fields.values["voice"] {
            guard ValueRule.isValidVoice(String(field.value)) else {
                throw .corrupt(line: field.line, reason: "'voice' is no voice name")
            }
            alarm.voice = String(field.value)
        }
        return alarm
    }
}
