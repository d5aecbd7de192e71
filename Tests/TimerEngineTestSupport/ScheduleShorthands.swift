import TextCoding
package import TimerEngine
public import TimerText

// Shorthands of the tests of alarms at a time of day (TimerEngineTests' ScheduleTests,
// TerminalUITests' AlarmViewTests, the executable's AlarmRecoveryControllerTests): one copy.

/// The wall-clock instant of a UTC date and time, from Unix seconds checked against `date -u`.
/// - Precondition: The date is valid.
public func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> WallInstant {
    let date = CivilDate(year: year, month: month, day: day)!
    return WallInstant(unixSeconds: Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60))
}

/// A time of day, from fields known to be valid.
public func clock(_ hour: Int, _ minute: Int, _ second: Int = 0) -> TimeOfDay {
    TimeOfDay(hour: hour, minute: minute, second: second)!
}

/// Runs `body` in Europe/Berlin, then restores `TZ` (process-global: under the `TZ` lock of
/// ``withTimeZone(_:_:)``).
public func inBerlin<T>(_ body: () throws -> T) rethrows -> T { try withTimeZone("Europe/Berlin", body) }

/// The events among `effects`.
package func events(_ effects: [Effect]) -> [TimerEvent] {
    effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
}

/// The text of `event`'s extra field `key`.
package func field(_ event: TimerEvent?, _ key: String) -> String? {
    event?.extra.first { $0.key == key }.map { "\($0.value)" }
}
