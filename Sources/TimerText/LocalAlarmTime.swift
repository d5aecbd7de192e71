public import TextCoding

/// When an alarm should ring, as the user wrote it, before any time zone is applied.
///
/// ``AlarmTimeParser`` makes it; ``LocalTimeResolver`` turns it into a wall-clock instant in the
/// process's time zone (`TZ`). A plain value.
public enum LocalAlarmTime: Hashable, Sendable {
    /// A time of day on the local clock: today if still ahead, else tomorrow (`14:30`, `7pm`).
    case timeOfDay(TimeOfDay)
    /// A time of day tomorrow, by the local calendar (`tomorrow 07:00`).
    case tomorrow(TimeOfDay)
    /// A local date and time (`2026-12-24 18:00`, `2026-12-24T18:00`).
    case date(CivilDate, TimeOfDay)
    /// An absolute instant, from a written UTC offset (`2026-12-24T18:00Z`, `…+01:00`); no zone applies.
    case instant(WallInstant)
}
