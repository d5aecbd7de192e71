import AlarmAudio
import Glibc
import TestSupport
import Testing

/// Issue 11 end to end: real timers with no terminal, file PCMs as devices, and the real
/// `eggtimer status|ack|cancel|snooze` commands in the same private runtime folder.
@Suite struct ControlTimerEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(15) }

    @Test func ackStopsTheAlarmAtOnceAndTheTimerExitsZero() {
        let house = House(sharesState: false)
        let timer = house.timer(["1s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"sounding""#, until: soon()))
        let sent = ContinuousClock.now
        let ack = house.command(["ack"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "tea: alarm stopped\n")
        #expect(timer.expect(#""event":"acknowledged""#, until: soon()))
        #expect(ContinuousClock.now - sent < .milliseconds(200) + .seconds(1), "includes the client's start-up")
        #expect(timer.stdout.contains(#""by":"shell""#), "a shell's ack names its front (control protocol 4)")
        #expect(timer.finish() == .exited(0))
    }

    @Test func twoRingingTimersAreAcknowledgedOneAtATime() {
        let house = House(sharesState: false)
        let tea = house.timer(["1s", "--label", "tea"], capture: "tea")
        let eggs = house.timer(["1s", "--label", "eggs"], capture: "eggs")
        #expect(tea.expect(#""event":"sounding""#, until: soon()) && eggs.expect(#""event":"sounding""#, until: soon()))

        let ambiguous = house.command(["ack"])
        #expect(ambiguous.termination == .exited(64))
        #expect(ambiguous.stderr.contains("eggs (ringing)") && ambiguous.stderr.contains("tea (ringing)"))

        #expect(house.command(["ack", "tea"]).termination == .exited(0))
        #expect(tea.finish() == .exited(0))
        // The other keeps ringing: its capture grows.
        let before = house.captured("eggs")
        eggs.readOutput(until: .now + .milliseconds(300))
        #expect(house.captured("eggs") > before)
        #expect(house.command(["ack"]).termination == .exited(0))  // the only one left
        #expect(eggs.finish() == .exited(0))
    }

    /// One `ack --all` stops every ringing alarm, a line each, and then finds none (exit 3).
    ///
    /// Issue 24; plain `ack` with two ringing still lists them, `cancel --all` ends the rest.
    @Test func ackAllStopsEveryRingingAlarmThenFindsNone() {
        let house = House(sharesState: false)
        let tea = house.timer(["1s", "--label", "tea"], capture: "tea")
        let eggs = house.timer(["1s", "--label", "eggs"], capture: "eggs")
        let soup = house.timer(["30s", "--label", "soup"], capture: "soup")
        #expect(tea.expect(#""event":"sounding""#, until: soon()) && eggs.expect(#""event":"sounding""#, until: soon()))
        #expect(soup.expect(#""event":"started""#, until: soon()))
        #expect(house.command(["ack"]).termination == .exited(64))

        let all = house.command(["ack", "--all"])
        #expect(all.termination == .exited(0), "\(all.stderr)")
        #expect(all.stdout == "eggs: alarm stopped\ntea: alarm stopped\n")
        #expect(tea.finish() == .exited(0) && eggs.finish() == .exited(0))

        let again = house.command(["ack", "--all"])
        #expect(again.termination == .exited(3))
        #expect(again.stderr == "eggtimer: no timer is ringing or snoozed\n")
        #expect(again.stdout.isEmpty)

        let cancel = house.command(["cancel", "--all"])
        #expect(cancel.termination == .exited(0), "\(cancel.stderr)")
        #expect(cancel.stdout == "soup: cancelled\n")
        #expect(soup.finish() == .exited(1))
        #expect(house.command(["cancel", "--all"]).termination == .exited(3))
    }

    /// One name everywhere: `status` lists the label the timer answers to (`1:30`, as its log and
    /// MQTT name it), and its socket is named so too (its key).
    @Test func statusListsTheLabelAsTypedAndItsSocketIsItsKey() {
        let house = House(sharesState: false)
        let timer = house.timer(["1:30"], capture: "t")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let status = house.command(["status"])
        #expect(status.stdout.contains("\n1:30 "), "\(status.stdout)")
        #expect(house.command(["status", "--json"]).stdout.contains(#""label":"1:30""#))
        #expect(house.command(["snooze", "1:30"]).stderr.contains("1:30 is counting, not ringing"))
        // Another label, another timer (issue 41: its socket is the key `1:30`, not `1-30`).
        #expect(house.command(["cancel", "1-30"]).termination == .exited(3))
        #expect(house.command(["cancel", "1:30"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
    }

    /// A duration typed as words (`eggtimer 1h 30`) is labelled as typed (`1h 30`); a control
    /// command joins its words into the label, so `cancel 1h 30` needs no quotes (issues 24, 41).
    @Test func aSpacedDurationsDefaultLabelNeedsNoQuotes() {
        let house = House(sharesState: false)
        let timer = house.timer(["1h", "30"], capture: "t")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        #expect(house.command(["status", "--json"]).stdout.contains(#""label":"1h 30""#))
        #expect(house.command(["cancel", "1h", "30"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
    }

    /// A label with a space and a letter beyond ASCII (issue 41): `status` shows it as given, and
    /// a command names it in any case, unquoted.
    @Test func aLabelPeopleUseIsMatchedByItsKey() {
        let house = House(sharesState: false)
        let timer = house.timer(["3m", "Roast", "Bäef"], capture: "t")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        #expect(house.command(["status", "--json"]).stdout.contains(#""label":"Roast Bäef""#))
        #expect(house.command(["pause", "roast", "BÄEF"]).termination == .exited(0))
        #expect(house.command(["cancel", "ROAST", "bäef"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
    }

    /// A timer stopped with Ctrl-Z (SIGTSTP) or SIGSTOP cannot answer: one line says so, with
    /// how to continue it, not "skipped" and then "no timer labelled".
    @Test func aStoppedTimerIsSaidToBeStopped() {
        let house = House(sharesState: false)
        let timer = house.timer(["30s", "--label", "jc"], capture: "jc")
        #expect(timer.expect(#""event":"started""#, until: soon()))
        kill(timer.pid, SIGSTOP)
        let cancel = house.command(["cancel", "jc"])
        #expect(cancel.termination == .exited(3))
        #expect(
            cancel.stderr
                == "eggtimer: jc: stopped (SIGSTOP or Ctrl-Z), not answering (pid \(timer.pid); "
                + "`fg` or `kill -CONT \(timer.pid)` continues it)\n")
        kill(timer.pid, SIGCONT)
        #expect(house.command(["cancel", "jc"]).termination == .exited(0))
        #expect(timer.finish() == .exited(1))
    }

    /// `status` with a stopped timer (issue 24): not "skipped" and then "no timers running", but
    /// counted as running and said to be stopped; plain `ack` says none answers, not none runs.
    @Test func statusCountsAStoppedTimerAsRunningAndSaysItIsStopped() {
        let house = House(sharesState: false)
        let stopped = house.timer(["30s", "--label", "jc"], capture: "jc")
        #expect(stopped.expect(#""event":"started""#, until: soon()))
        let stoppedLine =
            "  jc: stopped (SIGSTOP or Ctrl-Z), not answering (pid \(stopped.pid); "
            + "`fg` or `kill -CONT \(stopped.pid)` continues it)\n"
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let alone = house.command(["status"])
        #expect(alone.termination == .exited(0))
        #expect(alone.stderr == "")
        #expect(alone.stdout == "1 timer running, not answering:\n" + stoppedLine, "\(alone.stdout)")
        let ack = house.command(["ack"])
        #expect(ack.termination == .exited(3))
        #expect(ack.stderr.hasSuffix("eggtimer: no timer answering (1 running, not answering)\n"), "\(ack.stderr)")

        let tea = house.timer(["30s", "--label", "tea"], capture: "tea")
        #expect(tea.expect(#""event":"started""#, until: soon()))
        let both = house.command(["status"])
        #expect(both.stdout.hasPrefix("LABEL "), "\(both.stdout)")
        #expect(both.stdout.contains("\ntea "))
        #expect(both.stdout.hasSuffix("\n1 timer more running, not answering:\n" + stoppedLine), "\(both.stdout)")
        #expect(!both.stdout.contains("no timers running"))
        kill(stopped.pid, SIGCONT)
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        #expect(stopped.finish() == .exited(1) && tea.finish() == .exited(1))
    }

    /// A stopped timer whose record is kept is one timer, said once and by its label as typed
    /// (issue 41): not also "running without a control socket", as its socket is there; the same
    /// for `ack`'s failure.
    @Test func aStoppedTimerWithARecordIsNotAlsoCalledSocketless() {
        let house = House()
        let stopped = house.timer(["30s", "--label", "Jc Küche"], capture: "jc")
        #expect(stopped.expect(#""event":"started""#, until: soon()))
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let status = house.command(["status"])
        #expect(status.termination == .exited(0))
        #expect(
            status.stdout
                == "1 timer running, not answering:\n  Jc Küche: stopped (SIGSTOP or Ctrl-Z), not answering (pid \(stopped.pid); "
                + "`fg` or `kill -CONT \(stopped.pid)` continues it)\n", "\(status.stdout)")
        let ack = house.command(["ack"])
        #expect(ack.stderr.hasSuffix("eggtimer: no timer answering (1 running, not answering)\n"), "\(ack.stderr)")
        #expect(!ack.stderr.contains("without a control socket"), "\(ack.stderr)")
        kill(stopped.pid, SIGCONT)
        #expect(house.command(["cancel", "jc", "küche"]).termination == .exited(0))
        #expect(stopped.finish() == .exited(1))
    }

    @Test func aSecondTimerWithARunningLabelIsRefused() {
        let house = House(sharesState: false)
        let first = house.timer(["30s", "--label", "tea"], capture: "tea")
        #expect(first.expect(#""event":"started""#, until: soon()))
        let second = house.command(["5s", "--label", "tea", "-D", "null"])
        #expect(second.termination == .exited(64))
        #expect(second.stderr.contains("a timer labelled 'tea' is already running (pid \(first.pid))"))
        let shouted = house.command(["5s", "--label", "TEA", "-D", "null"])
        #expect(shouted.stderr.contains("a timer labelled 'tea' is already running"), "\(shouted.stderr)")
        #expect(house.command(["cancel", "tea"]).termination == .exited(0))
        #expect(first.finish() == .exited(1))
    }

    @Test func aStaleSocketLeftByAKilledTimerIsReplaced() {
        let house = House(sharesState: false)
        let killed = house.timer(["30s", "--label", "tea"], capture: "tea")
        #expect(killed.expect(#""event":"started""#, until: soon()))
        kill(killed.pid, SIGKILL)
        #expect(killed.finish() == .signaled(SIGKILL))
        #expect(access(house.runtime + "/eggtimer/tea.sock", F_OK) == 0)  // left behind
        let next = house.timer(["30s", "--label", "tea"], capture: "tea2")
        #expect(next.expect(#""event":"started""#, until: soon()))
        let status = house.command(["status"])
        #expect(status.stdout.contains("tea") && status.stdout.contains("\(next.pid)"))
        #expect(house.command(["cancel"]).termination == .exited(0))
        #expect(next.finish() == .exited(1))
    }

    @Test func snoozeSilencesTheAlarmAndItRingsAgain() {
        let house = House(sharesState: false)
        let timer = house.timer(["1s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"sounding""#, until: soon()))
        let snooze = house.command(["snooze", "--for", "1s"])
        #expect(snooze.termination == .exited(0))
        #expect(snooze.stdout.hasPrefix("tea: snoozed until "))
        #expect(timer.expect(#""event":"snoozed""#, until: soon()))
        let mark = timer.stdout.count
        #expect(timer.expect(#""event":"sounding""#, after: mark, until: soon()))  // rings again
        #expect(house.command(["ack", "tea"]).termination == .exited(0))
        #expect(timer.finish() == .exited(0))
    }

    @Test func ringForEndsAnUnacknowledgedAlarmAsMissed() {
        let house = House(sharesState: false)
        let timer = house.timer(["1s", "--ring-for", "2s"], capture: "missed")
        #expect(timer.finish(timeout: .seconds(20)) == .exited(2))
        #expect(timer.stdout.contains(#""event":"missed""#))
        #expect(house.captured("missed") > 0)
    }

    @Test func onDoneRunsAtTheDeadlineWithAnEmptySignalMaskAndNeverForACancelledTimer() throws {
        let house = House(sharesState: false)
        let mark = house.scratch + "/done"
        let command = "grep -E '^(SigBlk|SigIgn)' /proc/self/status > \(mark); ps -o pgid= -p $$ >> \(mark)"
        let done = house.timer(["1s", "--loops", "1", "--on-done", command], capture: "done")
        #expect(done.finish() == .exited(0))
        // The command runs beside the alarm: wait for its file (it is tiny).
        try eventually("the command wrote its file", deadline: .now + .seconds(10), every: .milliseconds(20)) {
            (readFile(mark)?.count ?? 0) >= 40
        }
        let lines = String(decoding: try #require(readFile(mark)), as: UTF8.self).split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        // No standard signal (1–31) ignored; 32 and 33 are glibc's own, which no program can reset.
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "SigIgn \(String(describing: ignored))")
        let group = lines.last.map { $0.trimmingPrefix(" ") }.map(String.init) ?? ""
        #expect(group != "\(getpgrp())", "the command runs in its own process group")

        let cancelledMark = house.scratch + "/cancelled"
        let cancelled = house.timer(["30s", "--label", "c", "--on-done", "touch \(cancelledMark)"], capture: "c")
        #expect(cancelled.expect(#""event":"started""#, until: soon()))
        #expect(house.command(["cancel", "c"]).termination == .exited(0))
        #expect(cancelled.finish() == .exited(1))
        #expect(access(cancelledMark, F_OK) != 0)
    }

    @Test func volumeFiftyHalvesTheCaptureAndTheRampRaisesIt() throws {
        let house = House(sharesState: false)
        let sound = try AlarmSound.decode(path: repositoryRoot + "/Sounds/alarm_sound.mp3")
        let half = house.timer(["1s", "--loops", "1", "--volume", "50"], capture: "half")
        #expect(half.finish() == .exited(0))
        let halfSamples = try #require(readFile(house.scratch + "/half.raw")).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        #expect(halfSamples == sound.samples.map { Int16((Int64($0) * 16384 + 16384) >> 15) })

        let ramp = house.timer(["1s", "--loops", "3", "--ramp", "3s"], capture: "ramp")
        #expect(ramp.finish() == .exited(0))
        let rampSamples = try #require(readFile(house.scratch + "/ramp.raw")).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        let pass = sound.samples.count
        #expect(rampSamples.count == 3 * pass)
        let peaks = (0..<3).map { index in
            rampSamples[(index * pass)..<((index + 1) * pass)].map { abs(Int($0)) }.max() ?? 0
        }
        #expect(peaks[0] < peaks[1] && peaks[1] < peaks[2], "peaks \(peaks)")
    }

    /// Issue 20, "The control socket cannot be exhausted": with far more idle connections open
    /// than the timer keeps, `ack` still succeeds on its first try (its latency is `make bench`'s).
    @Test func idleConnectionsBeyondTheLimitDoNotLockOutAck() {
        let house = House(sharesState: false)
        let timer = house.timer(["1s", "--label", "tea"], capture: "tea")
        #expect(timer.expect(#""event":"sounding""#, until: soon()))
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for _ in 0..<200 {
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
            let fd = socket(AF_UNIX, type, 0)
            if withUnixAddress(house.runtime + "/eggtimer/tea.sock", { connect(fd, $0, $1) }) == 0 {
                idle.append(fd)
            } else {
                close(fd)
            }
        }
        #expect(idle.count == 200, "the timer's queue took every connection")
        let ack = house.command(["ack"])
        #expect(ack.termination == .exited(0), "\(ack.stderr)")
        #expect(ack.stdout == "tea: alarm stopped\n")
        #expect(timer.finish() == .exited(0))
    }

    @Test func aPeerOfAnotherUserIsRefused() throws {
        // The timer runs as nobody (setpriv); root connects to its socket and gets no answer.
        let house = House(sharesState: false)
        #expect(chown(house.runtime, 65534, 65534) == 0)
        let timer = Eggtimer(
            ["30s", "--label", "tea", "--json", "-D", "null"], environment: house.environment,
            launcher: [SystemTool.setpriv.path, "--reuid=65534", "--regid=65534", "--clear-groups"]
        ).piped()
        #expect(timer.expect(#""event":"started""#, until: soon()))
        let socket = house.runtime + "/eggtimer/tea.sock"
        let answer = rawExchange(socket, "eggtimer/1\tstatus\n")
        #expect(answer == "", "a root peer got: \(answer)")
        kill(timer.pid, SIGTERM)
        #expect(timer.finish() == .exited(143))
    }
}

/// Connects to a Unix socket, sends `request`, and returns all it answers before closing.
private func rawExchange(_ path: String, _ request: String) -> String {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    let connected = withUnixAddress(path) { connect(fd, $0, $1) }
    guard connected == 0 else { return "connect failed: \(errno)" }
    _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var reply: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while poll(&ready, 1, 5000) > 0 {
        let count = read(fd, &chunk, chunk.count)
        if count <= 0 { break }
        reply += chunk[0..<count]
    }
    return String(decoding: reply, as: UTF8.self)
}
