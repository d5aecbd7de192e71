package import AlarmAudio

extension Controller {
    /// The time is up and the alarm sounds until acknowledged, until its `--loops` passes end, or
    /// (the last pomodoro interval without `--wait`) until its one pass ends.
    package struct Ringing: Equatable {
        package var run: Run
        /// The deadline, when ringing began.
        package let since: ContinuousClock.Instant
        /// Passes after which the ringing ends by itself; nil: until acknowledged.
        package let loops: Int?
        /// When ringing unacknowledged ends it as missed (`--ring-for`); nil: never.
        package var until: ContinuousClock.Instant? = nil
        /// Since when a device has been accepting this ringing's audio; nil while none does.
        package var playingSince: ContinuousClock.Instant?
        /// Whether this ringing has been heard: a device played it for ``Controller/heardAfter``
        /// without failing, played every requested pass, or was still playing when acknowledged.
        package var sounded = false
        /// The last fallback-bell slot (whole bell periods since the deadline) that rang.
        package var lastBellSlot = -1

        /// Whole bell periods from the deadline to `now`.
        package func bellSlot(at now: ContinuousClock.Instant, period: Duration) -> Int {
            Int((since.duration(to: now) / period).rounded(.down))
        }
    }

    /// How long a device must keep accepting audio before a later failure no longer makes the
    /// alarm count as unheard: five 100 ms buffers, so frames have certainly left the buffer.
    package static let heardAfter: Duration = .milliseconds(500)

    package mutating func handleAudio(_ report: AlarmPlayer.Event, at now: Instant) {
        switch report {
        case .firstFrame(let instant):
            // After a failure (a busy device got at last): `device_recovered` once it proves it plays.
            if audio.silent { audio.returning = true }
            audio.silent = false
            audio.notice = nil
            if case .counting(let counting) = mode, let previous = counting.previousAlarm {
                // The ended interval's one pass, sounding while the next interval counts.
                var sounding = event(
                    .sounding, previous.run, at: instant, extra: [("deadline_t_mono_ns", .instant(previous.deadline))])
                if let index = sounding.extra.firstIndex(where: { $0.key == "phase" }) {
                    sounding.extra[index].value = .text(previous.phase.rawValue)
                }
                emit(sounding)
            }
            guard case .ringing(var ringing) = mode else { return }
            ringing.playingSince = instant
            mode = .ringing(ringing)
            emit(
                event(.sounding, ringing.run, at: instant, extra: [("deadline_t_mono_ns", .instant(ringing.since))]))
        case .deviceUnavailable(let error):
            deviceFailed(error, at: now)
        case .deviceRecovered(let device):
            if case .ringing(var ringing) = mode {
                ringing.playingSince = now
                mode = .ringing(ringing)
            }
            if audio.silent || audio.returning {
                emit(event(.deviceRecovered, currentRun, at: now, extra: [("device", .text(device))]))
            }
            audio.silent = false
            audio.returning = false
            audio.notice = nil
        case .finished:
            handleAudioEnd(stoppedAt: nil)
            if case .counting(var counting) = mode {
                counting.previousAlarm = nil
                mode = .counting(counting)
            }
            guard case .ringing(var ringing) = mode else { return }
            if ringing.playingSince != nil { ringing.sounded = true }  // every pass was played and drained
            mode = .ringing(ringing)
            if ringing.loops != nil { acknowledge(ringing, by: "loops", at: now) }
        case .stopped(let report):
            handleAudioEnd(stoppedAt: report.stoppedAt)
        case .stalled(let error):
            // The device stopped taking audio when the call that stalled began, not when the stall
            // was declared: frames queued since then were not heard. The player tries again.
            deviceFailed(error, at: now, stalledSince: now.advanced(by: .zero - AlarmPlayer.answerLimit))
        case .hung(let error):
            // A stop went unanswered: as for a stall, and the ringing is over.
            deviceFailed(error, at: now, stalledSince: now.advanced(by: .zero - AlarmPlayer.answerLimit))
            handleAudioEnd(stoppedAt: nil, hung: true)
        }
    }

    /// A device failed (or hung): the bell takes over while ringing; reported once per problem.
    /// - Parameters:
    ///   - error: What failed, logged as the `device_unavailable` event's reason.
    ///   - now: The current instant, on the boot clock.
    ///   - stalledSince: When the device stopped playing, if earlier than `now`.
    private mutating func deviceFailed(_ error: AlarmError, at now: Instant, stalledSince: Instant? = nil) {
        if case .ringing(var ringing) = mode {
            if let since = ringing.playingSince, (stalledSince ?? now) >= since.advanced(by: Self.heardAfter) {
                ringing.sounded = true
            }
            ringing.playingSince = nil
            mode = .ringing(ringing)
        }
        // Once per problem: a retry that fails the same way (the device is tried again 1.5 s
        // before the deadline) is not news.
        // Logged at once, even ahead of an acknowledgement waiting for its stop: it happened first.
        if !audio.silent, error != audio.notice {
            perform(
                .emit(event(.deviceUnavailable, recentRun, at: now, extra: [("reason", .text("\(error)"))]))
            )
        }
        audio.silent = true
        audio.returning = false
        audio.notice = error
    }

    /// The fallback bell once a period while no device works, the end of a silent `--loops` (not
    /// while the device is busy: the player plays them when it gets it), and the end of `--ring-for`.
    package mutating func advanceRinging(_ ringing: Ringing, to now: Instant) {
        if let until = ringing.until, now >= until {
            miss(ringing, at: now)
            return
        }
        guard audio.silent else { return }
        var ringing = ringing
        let slot = ringing.bellSlot(at: now, period: configuration.bellPeriod)
        if slot != ringing.lastBellSlot {
            ringing.lastBellSlot = slot
            mode = .ringing(ringing)
            perform(.bell)
        }
        // A busy device is waited for: its passes are played once the other process lets it go.
        if let loops = ringing.loops, !audio.waitsForBusyDevice,
            now >= ringing.since.advanced(by: configuration.soundLength * loops)
        {
            acknowledge(ringing, by: "loops", at: now)
        }
    }

    /// Ends `ringing` as acknowledged by `source` (`key`, `signal`, `loops`): the state changes at
    /// once, the player is asked to stop, and the event is logged once it has.
    ///
    /// The alarm counts as unheard (exit 69) only when a device failed before the acknowledgement
    /// (at start, when opened before the deadline, or while ringing), has not played since, and
    /// did not play this ringing for ``heardAfter``. An acknowledgement before the first frame on
    /// a working device (a quick key, a process stalled across the deadline) is not a failure.
    /// The `acknowledged` event of an unheard alarm carries `silent`: why (``silenceReason``).
    package mutating func acknowledge(_ ringing: Ringing, by source: String, at now: Instant) {
        // Proven heard already, or a device is taking the audio now: confirmed by its clean stop
        // (see `logAcknowledgement`). A stall goes unnoticed for at most `answerLimit`, so audio
        // taken before that is proven.
        var extra: [(String, TimerEvent.Value)] = [("by", .text(source))]
        let (proven, playing) = markUnheard(ringing, at: now, into: &extra)
        logAcknowledgement(event(.acknowledged, ringing.run, at: now, extra: extra), unproven: !proven && playing)
        if pomodoro != nil {
            nextInterval(skipped: false, at: now)
        } else {
            leaveOrRepeat(.done, at: now)
        }
    }

    /// Whether `ringing`'s alarm was heard, by the rule ``acknowledge(_:by:at:)`` states.
    ///
    /// An unheard one sets the exit status to 69 and adds `silent` (why) to `extra`, the ending
    /// event's fields. Shared by every ending of a ringing (acknowledged, missed).
    /// - Returns: Whether it is proven heard, and whether a device takes the audio now.
    mutating func markUnheard(
        _ ringing: Ringing, at now: Instant, into extra: inout [(String, TimerEvent.Value)]
    ) -> (proven: Bool, playing: Bool) {
        // Proven heard already, or a device is taking the audio now: confirmed by its clean stop
        // (see `logAcknowledgement`). A stall goes unnoticed for at most `answerLimit`, so audio
        // taken before that is proven.
        let playing = ringing.playingSince != nil && !audio.silent
        let proven =
            ringing.sounded
            || (playing && ringing.playingSince!.advanced(by: Self.heardAfter + AlarmPlayer.answerLimit) <= now)
        let failedBefore = audio.silent || audio.notice != nil
        if !proven, !playing, failedBefore {
            audio.alarmFailed = true
            extra.append(("silent", .text(silenceReason)))  // the end line says it was never heard, and why
        }
        return (proven, playing)
    }
}
