import ControlChannel
import Testing
import TimerCore
import TimerModel
import TimerText

@testable import Kitchen
@testable import TimerEngine

/// The kitchen's decisions (issue 26), without processes: the limit, a label in use, a start
/// answered by its timer's first status, by its child's end or by the start limit, on instants
/// passed in.
@Suite struct KitchenCoreTests {
    private let t0 = ContinuousClock.now  // any instant: nothing sleeps
    private let shell = KitchenCore.Origin.shell(connection: 7)

    private func status(_ label: String, pid: Int32, state: TimerState = .counting) -> TimerStatus {
        TimerStatus(
            label: label, pid: pid, state: state, remaining: .seconds(300), deadlineUnixMilliseconds: 1_000_000)
    }

    private func request(_ text: String) throws -> StartRequest {
        try StartRequest.parse(text, presets: Preset.eggs.map(\.name))
    }

    /// Issue 37: a followed timer that begins to ring on no device is said once, with why; its
    /// end line says it rang unheard.
    @Test func aTimerRingingSilentIsSaidOnceAndItsEndSaysSoWithWhy() {
        var core = KitchenCore(maxTimers: 12)
        var silent = status("pasta", pid: 42, state: .silent)
        (silent.deviceDown, silent.silentReason) = (true, "cannot open audio device 'hw:0': ENOENT")
        #expect(core.status(socket: "pasta", status("pasta", pid: 42)) == [.say("following pasta (pid 42, counting)")])
        #expect(
            core.status(socket: "pasta", silent) == [
                .event(KitchenEvent(kind: .finished, label: "pasta")),
                .ringsUnheard(label: "pasta", reason: "cannot open audio device 'hw:0': ENOENT"),
            ])
        #expect(core.status(socket: "pasta", silent).isEmpty, "once per ringing")
        var done = silent
        done.state = .done
        #expect(core.status(socket: "pasta", done) == [.event(KitchenEvent(kind: .acknowledged, label: "pasta"))])
        #expect(
            core.ended(socket: "pasta") == [
                .say("pasta: ended (pid 42, done, silent: cannot open audio device 'hw:0': ENOENT)")
            ])
        #expect(core.status(socket: "tea", status("tea", pid: 43, state: .ringing)).count == 1, "only following")
    }

    /// Issue 37: what a press stopped, from each timer's reply (its verdict once over) or, for an
    /// older timer's bare `ok`, from its state at the press; worded once for the log and the page.
    @Test func whatAnAcknowledgementStoppedIsNamedWithTheSilentOnes() {
        var unheard = status("pasta", pid: 42, state: .done)
        unheard.deviceDown = true
        let heard = status("Soft", pid: 43, state: .done)
        let stopped = [
            KitchenCore.stopped(label: "Soft", before: status("Soft", pid: 43, state: .ringing), reply: heard.line),
            KitchenCore.stopped(label: "pasta", before: status("pasta", pid: 42, state: .ringing), reply: unheard.line),
            KitchenCore.stopped(label: "rice", before: status("rice", pid: 44, state: .silent), reply: "ok"),
            KitchenCore.stopped(label: "tea", before: nil, reply: "ok"),
        ]
        #expect(stopped.map(\.silent) == [false, true, true, false])
        #expect(
            KitchenCore.stoppedText(stopped)
                == "Soft, pasta, rice and tea stopped; pasta and rice never reached their speakers")
        #expect(KitchenCore.stoppedText([]) == nil)
    }

    @Test func aPresetIsLabelledAsTheTimerLabelsItAndSpawnedWithTypedArgumentsOnly() throws {
        let core = KitchenCore(maxTimers: 12)
        #expect(
            core.admit(try request("soft"), from: shell) == .spawn(label: "Soft", arguments: ["soft"], origin: shell))
        #expect(
            core.admit(try request("7m30s pasta"), from: .bus(id: nil))
                == .spawn(label: "pasta", arguments: ["450s", "--label", "pasta"], origin: .bus(id: nil)))
    }

    @Test func aStartIsAnsweredByItsTimersFirstStatusNotByAnotherProcesss() throws {
        var core = KitchenCore(maxTimers: 12)
        #expect(core.spawned(label: "tea", pid: 42, origin: shell, log: "/l", at: t0).isEmpty)
        // Another process's status on that socket (a timer started from a shell) answers nothing.
        #expect(core.status(socket: "tea", status("tea", pid: 41)) == [.say("following tea (pid 41, counting)")])
        #expect(
            core.status(socket: "tea", status("tea", pid: 42)) == [.answer(shell, .started(status("tea", pid: 42)))])
        #expect(core.timers["tea"]?.pid == 42)
        #expect(core.nextCheck == nil)
    }

    @Test func theStartOverTheLimitIsRefusedAsBusyCountingStartsNotAnsweredYet() throws {
        var core = KitchenCore(maxTimers: 2)
        _ = core.status(socket: "a", status("a", pid: 1))
        _ = core.spawned(label: "b", pid: 2, origin: shell, log: "/l", at: t0)
        #expect(core.running == 2)
        let refused = core.admit(try request("1m c"), from: shell)
        #expect(
            refused
                == .answer(
                    shell,
                    .refused(
                        .init(
                            kind: .busy, text: "c: not started: 2 timers run already (the most: max-timers)",
                            label: "c"))))
        // One ends: there is room again.
        _ = core.ended(socket: "a")
        #expect(
            core.admit(try request("1m c"), from: shell)
                == .spawn(label: "c", arguments: ["60s", "--label", "c"], origin: shell))
    }

    @Test func aLabelRunningOrStartingOrTheKitchensOwnIsRefused() throws {
        var core = KitchenCore(maxTimers: 12)
        _ = core.status(socket: "tea", status("tea", pid: 5))
        _ = core.spawned(label: "rice", pid: 6, origin: .bus(id: nil), log: "/l", at: t0)
        #expect(
            core.admit(try request("1m tea"), from: shell)
                == .answer(
                    shell,
                    .refused(.init(kind: .usage, text: "tea: a timer with this label is running (pid 5)", label: "tea"))
                ))
        #expect(
            core.admit(try request("1m rice"), from: shell)
                == .answer(
                    shell,
                    .refused(.init(kind: .usage, text: "rice: a timer with this label is starting", label: "rice"))))
        #expect(
            core.admit(try request("1m kitchen"), from: shell)
                == .answer(
                    shell, .refused(.init(kind: .usage, text: "'kitchen': the kitchen's own label", label: "kitchen"))))
    }

    /// Two soft eggs (the keypad's 1 pressed twice, a Home Assistant button twice): the second is
    /// `Soft-2`, the third `Soft-3`; a duration's own label likewise; a label the request chose is
    /// refused as before (above).
    @Test func aSecondTimerOfADefaultLabelIsNumberedAndAChosenLabelIsNot() throws {
        var core = KitchenCore(maxTimers: 12)
        _ = core.status(socket: "soft", status("Soft", pid: 5))  // its socket: the key
        #expect(
            core.admit(try request("soft"), from: .bus(id: nil))
                == .spawn(label: "Soft-2", arguments: ["soft", "--label", "Soft-2"], origin: .bus(id: nil)))
        _ = core.spawned(label: "Soft-2", pid: 6, origin: .bus(id: nil), log: "/l", at: t0)
        #expect(
            core.admit(try request("SOFT"), from: shell)
                == .spawn(label: "Soft-3", arguments: ["soft", "--label", "Soft-3"], origin: shell))
        #expect(
            core.admit(try request("soft Soft"), from: shell)
                == .spawn(label: "Soft-3", arguments: ["soft", "--label", "Soft-3"], origin: shell))
        _ = core.status(socket: "7m30s", status("7m30s", pid: 7))
        #expect(
            core.admit(try request("7m30s"), from: shell)
                == .spawn(label: "7m30s-2", arguments: ["450s", "--label", "7m30s-2"], origin: shell))
        // A spaced duration is numbered as one word: `5 min-2` would begin with a number (issue 41).
        _ = core.status(socket: "5 min", status("5 min", pid: 9))
        let spaced = core.admit(try request("5 min"), from: shell)
        #expect(spaced == .spawn(label: "5min-2", arguments: ["300s", "--label", "5min-2"], origin: shell))
        #expect(try StartRequest.parse("300s", label: "5min-2", presets: []).label == "5min-2", "the timer takes it")
        // A label that reads as another length is ambiguous: the grammar refuses it (issue 41).
        #expect(throws: (any Error).self) { try request("1m 7m30s") }
        // One timer per key: `Tea` is refused while `tea` runs.
        _ = core.status(socket: "tea", status("tea", pid: 8))
        #expect(
            core.admit(try request("1m Tea"), from: shell)
                == .answer(
                    shell,
                    .refused(.init(kind: .usage, text: "Tea: a timer with this label is running (pid 8)", label: "Tea"))
                ))
        #expect(KitchenCore.numbered(String(repeating: "a", count: 63), isTaken: { _ in false }) == nil)
        #expect(KitchenCore.numbered("tea", isTaken: { $0 != "tea-4" }) == "tea-4")
    }

    @Test func aChildThatExitsBeforeItRunsFailsItsStartNamingItsLogAndA64IsAUsageError() {
        var core = KitchenCore(maxTimers: 12)
        _ = core.spawned(label: "tea", pid: 9, origin: shell, log: "/s/tea.log", at: t0)
        #expect(core.childExited(pid: 8, status: 0).isEmpty)
        _ = core.spawned(label: "rice", pid: 10, origin: .bus(id: nil), log: "/s/rice.log", at: t0)
        #expect(
            core.childExited(pid: 10, status: 70)
                == [
                    .answer(
                        .bus(id: nil),
                        .refused(
                            .init(
                                kind: .failed,
                                text: "rice: not started: eggtimer exited with status 70; see /s/rice.log",
                                label: "rice")))
                ])
        #expect(
            core.childExited(pid: 9, status: 64)
                == [
                    .answer(
                        shell,
                        .refused(
                            .init(
                                kind: .usage, text: "tea: not started: eggtimer exited with status 64; see /s/tea.log",
                                label: "tea")
                        ))
                ])
        #expect(core.running == 0)
    }

    @Test func aStartNotAnsweredWithinTheLimitIsGivenUpAsUnavailable() {
        var core = KitchenCore(maxTimers: 12)
        _ = core.spawned(label: "tea", pid: 9, origin: shell, log: "/l", at: t0)
        #expect(core.nextCheck == t0 + KitchenCore.startLimit)
        #expect(core.expire(at: t0 + KitchenCore.startLimit - .milliseconds(1)).isEmpty)
        let given = core.expire(at: t0 + KitchenCore.startLimit)
        #expect(given.count == 1)
        guard case .answer(let origin, .refused(let refusal)) = given.first else {
            Issue.record("not a refusal: \(given)")
            return
        }
        #expect(origin == shell && refusal.kind == .unavailable && refusal.text.hasPrefix("tea: started (pid 9)"))
        #expect(core.nextCheck == nil)
    }

    /// Issue 40: a start whose timer's socket path would pass 107 bytes is refused (64) before
    /// anything is spawned; one byte less is started.
    @Test(arguments: [(31, true), (32, false)])
    func aStartWhoseSocketWouldNotFitIsRefusedBeforeItRuns(labelBytes: Int, fits: Bool) throws {
        // FOLDER/LABEL.sock: 107 bytes with a 31-byte label, the most a socket address holds.
        let folder = "/" + String(repeating: "f", count: 107 - 1 - 5 - 31 - 1)
        let core = KitchenCore(maxTimers: 12, socketFolder: folder)
        let label = String(repeating: "l", count: labelBytes)
        let effect = core.admit(try request("10m \(label)"), from: .keypad)
        if fits {
            #expect(effect == .spawn(label: label, arguments: try request("10m \(label)").arguments, origin: .keypad))
        } else {
            guard case .answer(.keypad, .refused(let refusal)) = effect else {
                Issue.record("not a refusal: \(effect)")
                return
            }
            #expect(refusal.kind == .usage)
            #expect(
                refusal.text.hasPrefix("\(label): not started: the socket path \(folder)/\(label).sock is 108 bytes"))
        }
    }

    @Test func anEndedTimerDropsOutOfThePicture() {
        var core = KitchenCore(maxTimers: 12)
        _ = core.status(socket: "tea", status("tea", pid: 5, state: .done))
        #expect(core.ended(socket: "tea") == [.say("tea: ended (pid 5, done)")])
        #expect(core.timers.isEmpty && core.ended(socket: "tea").isEmpty)
    }

    /// Issue 40: a timer whose watch ends in a state that is not final died by a signal; the
    /// kitchen recovers it from its record, three times in a row at most; a final state, or the
    /// menu (which has no record), is not recovered, and a final state clears the count.
    @Test(arguments: [TimerState.counting, .paused, .ringing, .silent, .snoozed])
    func aTimerThatDiedIsRecoveredThreeTimesInARowAtMost(state: TimerState) {
        var core = KitchenCore(maxTimers: 12)
        for attempt in 1...3 {
            _ = core.status(socket: "tea", status("tea", pid: Int32(attempt), state: state))
            let effects = core.ended(socket: "tea")
            #expect(effects.last == .recover(label: "tea"))
            #expect(
                effects.first
                    == .say(
                        "tea: died (pid \(attempt), \(state.rawValue)): recovering it from its record (\(attempt) of 3)"
                    ))
        }
        _ = core.status(socket: "tea", status("tea", pid: 4, state: state))
        #expect(
            core.ended(socket: "tea") == [
                .say(
                    "tea: died (pid 4, \(state.rawValue)); not recovered: it died 3 times in a row "
                        + "(`eggtimer recover tea` starts it)")
            ])
        _ = core.status(socket: "tea", status("tea", pid: 5, state: .done))
        _ = core.ended(socket: "tea")
        _ = core.status(socket: "tea", status("tea", pid: 6, state: state))
        #expect(core.ended(socket: "tea").last == .recover(label: "tea"), "a final state cleared the count")
        // Giving up forgets the count: a recovery by hand is supervised again.
        for pid in Int32(7)...10 {
            _ = core.status(socket: "tea", status("tea", pid: pid, state: state))
            _ = core.ended(socket: "tea")
        }
        _ = core.status(socket: "tea", status("tea", pid: 11, state: state))
        #expect(core.ended(socket: "tea").last == .recover(label: "tea"), "giving up forgot the count")
    }

    /// Issue 41: one a signal ended is said so, not "cancelled", with what its kept record means.
    @Test func aTimerEndedByASignalIsSaidSoWithItsRecord() {
        var core = KitchenCore(maxTimers: 12)
        var last = status("roast beef", pid: 5, state: .cancelled)
        last.endedBy = "SIGTERM"
        _ = core.status(socket: "roast beef", last)
        #expect(
            core.ended(socket: "roast beef") == [
                .say(
                    "roast beef: ended by SIGTERM (pid 5); its record is kept: `eggtimer recover roast beef` "
                        + "starts it again, `eggtimer cancel roast beef` forgets it")
            ])
        last.endedBy = "SIGINT"
        (last.deviceDown, last.silentReason) = (true, "cannot open audio device 'hw:0': ENOENT")
        _ = core.status(socket: "roast beef", last)
        #expect(
            core.ended(socket: "roast beef") == [
                .say("roast beef: ended by SIGINT (pid 5, silent: cannot open audio device 'hw:0': ENOENT)")
            ])
    }

    @Test(arguments: [TimerState.done, .cancelled, .missed, .menu])
    func aTimerThatEndedOrTheMenuIsNotRecovered(state: TimerState) {
        var core = KitchenCore(maxTimers: 12)
        _ = core.status(socket: "tea", status("tea", pid: 5, state: state))
        #expect(core.ended(socket: "tea") == [.say("tea: ended (pid 5, \(state.rawValue))")])
    }

    @Test(arguments: [
        KitchenCore.Outcome.refused(.init(kind: .busy, text: "c: not started")),
        .refused(.init(kind: .usage, text: "'-x': a start request takes no options")),
        .refused(.init(kind: .unavailable, text: "x")), .refused(.init(kind: .failed, text: "x\ty")),
    ])
    func aReplyLineReadsBackAsItsOutcome(outcome: KitchenCore.Outcome) {
        #expect(KitchenCore.Outcome(line: outcome.line) == outcome)
    }

    @Test func aStartedReplyIsTheTimersStatusLineAndGarbageIsNoReply() {
        let started = KitchenCore.Outcome.started(status("Soft", pid: 3))
        #expect(started.line.hasPrefix("ok\tlabel=Soft\tpid=3\t"))
        #expect(KitchenCore.Outcome(line: started.line) == started)
        for line in ["", "ok", "error\tbusy", "error\tlater\tx", "refused\tbusy\tx"] {
            #expect(KitchenCore.Outcome(line: line) == nil, "\(line)")
        }
    }

    @Test(arguments: [
        (KitchenCore.Refusal.Kind.busy, Int32(75)), (.usage, 64), (.unavailable, 69), (.failed, 70),
        (.configuration, 78), (.noInput, 66), (.dataError, 65), (.system, 71),
    ])
    func eachRefusalEndsAShellWithItsStatus(kind: KitchenCore.Refusal.Kind, code: Int32) {
        #expect(kind.exitStatus.code == code)
        #expect(KitchenCore.Outcome(line: KitchenCore.Outcome.refused(.init(kind: kind, text: "t")).line) != nil)
    }

    /// Issue 41: a timer that exits before it runs passes on its status where it names a cause
    /// (78 for its config file), and its own line; a crash or an unknown status is 70.
    @Test(arguments: [
        (Int32(64), KitchenCore.Refusal.Kind.usage), (65, .dataError), (66, .noInput), (69, .unavailable),
        (71, .system), (78, .configuration), (70, .failed), (1, .failed), (75, .failed), (134, .failed),
    ])
    func aTimerThatExitsFirstPassesOnTheStatusThatNamesItsCause(status: Int32, kind: KitchenCore.Refusal.Kind) {
        var core = KitchenCore(maxTimers: 12)
        _ = core.spawned(label: "tea", pid: 9, origin: shell, log: "/s/tea.log", at: t0)
        #expect(core.startingLog(pid: 9) == "/s/tea.log")
        #expect(core.startingLog(pid: 8) == nil)
        #expect(
            core.childExited(pid: 9, status: status, said: "/c:2: frob: unknown key")
                == [
                    .answer(
                        shell,
                        .refused(.init(kind: kind, text: "tea: not started: /c:2: frob: unknown key", label: "tea")))
                ])
    }
}
