package import TimerEngine
package import TimerModel

/// The view's own animation timing: the flashing title while ringing, the flash of a picked menu
/// entry, and the once-a-second clock. All are worked out from instants the controller gives out
/// (the snapshot's deadline, the ``ScreenExtras``' pick and ringing instants), so the view stays pure.
extension View {
    /// How often a flashing title toggles while ringing.
    static let flashPeriod: Duration = .milliseconds(500)
    /// How long a picked menu entry flashes.
    static let pickFlashLength: Duration = .milliseconds(600)
    /// How many times a picked entry toggles on and off while it flashes (three flashes).
    static let pickFlashToggles = 6

    /// Whether the title shows "on" (reverse video) at `now` while ringing.
    func flashOn(_ screen: ScreenExtras, at now: ContinuousClock.Instant) -> Bool {
        guard let since = screen.ringingSince else { return false }
        return Int((since.duration(to: now) / Self.flashPeriod).rounded(.down)) % 2 == 0
    }

    /// The menu entry flashing after a pick at `now` and whether it shows highlighted; nil once the
    /// flash is over.
    func flashingEntry(_ screen: ScreenExtras, at now: ContinuousClock.Instant) -> (entry: Int, on: Bool)? {
        guard let toggle = pickFlashToggle(screen, at: now), let entry = screen.pickedEntry else { return nil }
        return (entry, toggle.index % 2 == 0)
    }

    /// While a picked entry flashes: when the pick was and which toggle (0 on, 1 off, …) shows.
    private func pickFlashToggle(_ screen: ScreenExtras, at now: ContinuousClock.Instant) -> (
        since: ContinuousClock.Instant, index: Int
    )? {
        guard screen.pickedEntry != nil, let pickedAt = screen.pickedAt,
            now < pickedAt.advanced(by: Self.pickFlashLength)
        else { return nil }
        let length = Self.pickFlashLength / Self.pickFlashToggles
        return (pickedAt, Int((pickedAt.duration(to: now) / length).rounded(.down)))
    }

    /// The next instant after `now` at which the lines change by time alone: a flash toggle, or
    /// the clock and spinner stepping (on whole seconds of the time left).
    /// - Returns: nil when nothing on screen moves by itself (the menu, a paused timer).
    package func nextChange(
        _ snapshot: TimerSnapshot, _ screen: ScreenExtras, at now: ContinuousClock.Instant
    ) -> ContinuousClock.Instant? {
        var changes: [ContinuousClock.Instant] = []
        if let toggle = pickFlashToggle(screen, at: now) {
            changes.append(toggle.since.advanced(by: Self.pickFlashLength / Self.pickFlashToggles * (toggle.index + 1)))
        }
        if let since = screen.ringingSince {
            let flashes = Int((since.duration(to: now) / Self.flashPeriod).rounded(.down)) + 1
            changes.append(since.advanced(by: Self.flashPeriod * flashes))
        } else if Self.showsRun(snapshot, screen), let deadline = snapshot.deadline {
            changes.append(nextStep(before: deadline, every: Self.spinnerStep, after: now))
        }
        return changes.min()
    }
}

/// The first instant after `now` that lies a whole number of `step`s before `deadline` (or the
/// deadline itself): where a display of the time left, rounded to `step`, changes.
/// - Precondition: `step > .zero`.
package func nextStep(
    before deadline: ContinuousClock.Instant, every step: Duration, after now: ContinuousClock.Instant
) -> ContinuousClock.Instant {
    let left = now.duration(to: deadline)
    guard left > .zero else { return deadline }
    let whole = step * Int((left / step).rounded(.down))
    let boundary = deadline.advanced(by: .zero - whole)
    return boundary > now ? boundary : boundary.advanced(by: step)
}
