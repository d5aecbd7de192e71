package import TimerText

/// What to do with a repeating alarm's occurrences that passed while nothing ran (the machine was
/// off, the process was killed): they are reported, not rung in a burst; only the latest rings at
/// once, and only if it is recent enough.
///
/// Pure: every instant is passed in (wall clock, UTC).
package struct MissedOccurrences: Hashable, Sendable {
    /// Occurrences that passed and will not ring, oldest first (the one in ``ringNow`` is not here).
    ///
    /// At most the oldest ``listLimit`` are listed; ``missedCount`` counts them all.
    package let missed: [WallInstant]
    /// How many occurrences passed without ringing, ``ringNow`` not included.
    package let missedCount: Int
    /// The latest passed occurrence, when it is within the window: ring it at once.
    package let ringNow: WallInstant?
    /// The first occurrence after `now`: arm it (after ``ringNow`` is acknowledged or missed).
    package let next: WallInstant

    /// The most occurrences ``missed`` lists.
    package static let listLimit = 100
    /// The window when `--ring-for` is not given.
    package static let defaultWindow: Duration = .seconds(3600)

    /// Sorts the occurrences from `scheduled` up to `now`.
    /// - Parameters:
    ///   - scheduled: The occurrence that was armed and never rang (from the record).
    ///   - now: The wall clock now.
    ///   - window: How late an occurrence may still ring: `--ring-for`, else ``defaultWindow``.
    ///     The latest passed occurrence rings when `now - occurrence <= window`.
    ///   - next: The occurrence after a given one, strictly later (``Recurrence/next(after:at:resolver:)``).
    /// - Precondition: `window >= .zero`; `next` always moves forward.
    /// - Complexity: One `next` call per passed occurrence, plus one.
    package init(
        scheduled: WallInstant, now: WallInstant, window: Duration = defaultWindow,
        next: (WallInstant) -> WallInstant
    ) {
        precondition(window >= .zero)
        var passed: [WallInstant] = []
        var count = 0
        var occurrence = scheduled
        var latest: WallInstant?
        while occurrence <= now {
            if let latest, passed.count < Self.listLimit { passed.append(latest) }
            if latest != nil { count += 1 }
            latest = occurrence
            let following = next(occurrence)
            precondition(following > occurrence, "a recurrence must move forward")
            occurrence = following
        }
        if let latest, latest.duration(to: now) <= window {
            self.ringNow = latest
        } else {
            if let latest {
                if passed.count < Self.listLimit { passed.append(latest) }
                count += 1
            }
            self.ringNow = nil
        }
        (self.missed, self.missedCount, self.next) = (passed, count, occurrence)
    }
}
