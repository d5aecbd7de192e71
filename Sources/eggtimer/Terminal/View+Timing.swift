/// The view's own animation timing: the flashing title while ringing, the flash of a picked menu
/// entry, and the once-a-second clock. All are worked out from instants the controller keeps
/// (the deadline, when a countdown started), so the view stays pure.
extension View {
    /// How often a flashing title toggles while ringing.
    static let flashPeriod: Duration = .milliseconds(500)
    /// How long a picked menu entry flashes.
    static let pickFlashLength: Duration = .milliseconds(600)
    /// How many times a picked entry toggles on and off while it flashes (three flashes).
    static let pickFlashToggles = 6

    /// Whether the title shows "on" (reverse video) at `now` while ringing.
    func flashOn(_ controller: Controller, at now: ContinuousClock.Instant) -> Bool {
        guard case .ringing(let ringing) = controller.mode else { return false }
        return Int((ringing.since.duration(to: now) / Self.flashPeriod).rounded(.down)) % 2 == 0
    }

    /// The menu entry flashing after a pick at `now` and whether it shows highlighted; nil once the
    /// flash is over.
    func flashingEntry(_ controller: Controller, at now: ContinuousClock.Instant) -> (entry: Int, on: Bool)? {
        guard let toggle = pickFlashToggle(controller, at: now), case .counting(let counting) = controller.mode,
            let entry = counting.pickedEntry
        else { return nil }
        return (entry, toggle.index % 2 == 0)
    }

    /// While a picked entry flashes: when the pick was and which toggle (0 on, 1 off, …) shows.
    private func pickFlashToggle(_ controller: Controller, at now: ContinuousClock.Instant) -> (
        since: ContinuousClock.Instant, index: Int
    )? {
        guard case .counting(let counting) = controller.mode, counting.pickedEntry != nil,
            now < counting.startedAt.advanced(by: Self.pickFlashLength)
        else { return nil }
        let length = Self.pickFlashLength / Self.pickFlashToggles
        return (counting.startedAt, Int((counting.startedAt.duration(to: now) / length).rounded(.down)))
    }

    /// The next instant after `now` at which the lines change by time alone: a flash toggle, or
    /// the clock and spinner stepping (on whole seconds of the time left).
    /// - Returns: nil when nothing on screen moves by itself (the menu, a paused timer).
    func nextChange(_ controller: Controller, at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var changes: [ContinuousClock.Instant] = []
        if let toggle = pickFlashToggle(controller, at: now) {
            changes.append(toggle.since.advanced(by: Self.pickFlashLength / Self.pickFlashToggles * (toggle.index + 1)))
        }
        switch controller.mode {
        case .counting(let counting):
            if let deadline = counting.run.countdown.deadline {
                changes.append(nextStep(before: deadline, every: Self.spinnerStep, after: now))
            }
        case .ringing(let ringing):
            let flashes = Int((ringing.since.duration(to: now) / Self.flashPeriod).rounded(.down)) + 1
            changes.append(ringing.since.advanced(by: Self.flashPeriod * flashes))
        case .menu, .exited:
            break
        }
        return changes.min()
    }
}

/// The first instant after `now` that lies a whole number of `step`s before `deadline` (or the
/// deadline itself): where a display of the time left, rounded to `step`, changes.
/// - Precondition: `step > .zero`.
func nextStep(
    before deadline: ContinuousClock.Instant, every step: Duration, after now: ContinuousClock.Instant
) -> ContinuousClock.Instant {
    let left = now.duration(to: deadline)
    guard left > .zero else { return deadline }
    let whole = step * Int((left / step).rounded(.down))
    let boundary = deadline.advanced(by: .zero - whole)
    return boundary > now ? boundary : boundary.advanced(by: step)
}
