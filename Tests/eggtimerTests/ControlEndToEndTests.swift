import ControlChannel
import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing
import TimerModel

/// A private `XDG_RUNTIME_DIR` for one test; its `eggtimer` folder is made only on request.
private struct RuntimeDirectory: ~Copyable {
    let base: String
    var folder: String { base + "/eggtimer" }
    /// The child's environment: this runtime directory, and a fixed zone one hour east of UTC.
    var environment: [String: String] { ["XDG_RUNTIME_DIR": base, "TZ": "UTC-1"] }

    init(withFolder: Bool = true) throws {
        var template = Array("/tmp/eggtimer-cli-XXXXXX".utf8CString)
        base = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        if withFolder { try RuntimeFolder.prepare(base + "/eggtimer") }
    }

    deinit {
        for label in ControlClient.labels(in: folder) { unlink(folder + "/" + label + ".sock") }
        rmdir(folder)
        unlink(base + "/clock")  // a wall-clock seam's offset file, where a test made one
        rmdir(base)
    }
}

/// What a fake timer was asked; `done` is signalled when it has served all it was told to.
private final class Served: Sendable {
    let done = DispatchSemaphore(value: 0)
    let lines = Mutex<[String]>([])
}

/// Answers `count` connections on `server` from another thread, one request line each, with
/// `reply(line)`; gives up on a connection or request that does not come within 10 s.
private func serve(_ server: ControlServer, count: Int, reply: @escaping @Sendable (String) -> String) -> Served {
    let served = Served()
    let descriptor = server.descriptor
    nonisolated(unsafe) let server = server  // used by that thread alone until `done`
    DispatchQueue.global().async {
        for _ in 0..<count {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) == 1, let connection = server.accept() else { break }
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                var readable = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&readable, 1, 100)
                let result = connection.read()
                if case .line(let line) = result {
                    served.lines.withLock { $0.append(line) }
                    connection.reply(reply(line))
                    break
                }
                if result == .closed { break }
            }
        }
        served.done.signal()
    }
    return served
}

/// 2026-11-30T08:12:03Z (09:12:03 at UTC+1), in milliseconds since the epoch.
private let nineTwelve: Int64 = 1_796_026_323_000

private func status(_ label: String, _ state: TimerState, deadline: Int64? = nineTwelve) -> TimerStatus {
    TimerStatus(
        label: label, pid: 4242, state: state, remaining: .milliseconds(299_500), deadlineUnixMilliseconds: deadline)
}

/// The short-lived client (`eggtimer status|ack|cancel|snooze`) against fake timers: real
/// `ControlServer`s in a private runtime folder, answering from a background thread.
@Suite struct ControlEndToEndTests {
    @Test func statusWithNoTimersSaysSoAndSucceeds() throws {
        let runtime = try RuntimeDirectory(withFolder: false)
        let result = runEggtimer(["status"], environment: runtime.environment)
        #expect(result.termination == .exited(0))
        #expect(result.stdout == "no timers running\n" && result.stderr == "")
        #expect(access(runtime.folder, F_OK) != 0, "a client must not create the runtime folder")
        #expect(runEggtimer(["list", "--json"], environment: runtime.environment).stdout == "[]\n")
    }

    /// The client's wall clock is fixed at 09:07:03 on the deadline's day (the preload seam): the
    /// deadline shows as a time of day, without its date, on any day the test runs.
    @Test func statusListsARunningTimer() throws {
        let runtime = try RuntimeDirectory()
        let server = try ControlServer(folder: runtime.folder, label: "soft")
        let served = serve(server, count: 1) { _ in status("soft", .counting).line }
        var environment = runtime.environment
        let fiveMinutesBefore = Duration.milliseconds(nineTwelve) - .seconds(300)
        environment.merge(try RealtimeShift.environment(file: runtime.base + "/clock", now: fiveMinutesBefore)) { $1 }
        let result = runEggtimer(["status"], environment: environment)
        served.done.wait()
        #expect(result.termination == .exited(0))
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                LABEL   PID  STATE     REMAINING  RINGS AT
                soft   4242  counting       5:00  09:12:03

                """)
        #expect(served.lines.withLock { $0 } == [ControlRequest.status.line])
    }

    @Test func statusJSONIsAnArrayWithLocalDeadlines() throws {
        let runtime = try RuntimeDirectory()
        let soft = try ControlServer(folder: runtime.folder, label: "soft")
        let tea = try ControlServer(folder: runtime.folder, label: "tea")
        let servedSoft = serve(soft, count: 1) { _ in status("soft", .ringing).line }
        let servedTea = serve(tea, count: 1) { _ in status("tea", .paused, deadline: nil).line }
        let result = runEggtimer(["status", "--json"], environment: runtime.environment)
        servedSoft.done.wait()
        servedTea.done.wait()
        #expect(result.termination == .exited(0))
        #expect(
            result.stdout
                == "[{\"label\":\"soft\",\"pid\":4242,\"state\":\"ringing\",\"remaining_s\":299.5,"
                + "\"deadline\":\"2026-11-30T09:12:03+01:00\"},"
                + "{\"label\":\"tea\",\"pid\":4242,\"state\":\"paused\",\"remaining_s\":299.5,\"deadline\":null}]\n")
    }

    @Test func ackWithTwoRingingAndNoLabelListsThemAndActsOnNone() throws {
        let runtime = try RuntimeDirectory()
        let soft = try ControlServer(folder: runtime.folder, label: "soft")
        let tea = try ControlServer(folder: runtime.folder, label: "tea")
        let servedSoft = serve(soft, count: 1) { _ in status("soft", .ringing).line }
        let servedTea = serve(tea, count: 1) { _ in status("tea", .ringing).line }
        let result = runEggtimer(["ack"], environment: runtime.environment)
        servedSoft.done.wait()
        servedTea.done.wait()
        #expect(result.termination == .exited(64))
        #expect(
            result.stderr
                == "eggtimer: 2 timers are running: soft (ringing), tea (ringing); name one: eggtimer ack LABEL\n")
        #expect(result.stdout == "")
        #expect(servedSoft.lines.withLock { $0 } == [ControlRequest.status.line])
        #expect(servedTea.lines.withLock { $0 } == [ControlRequest.status.line])
    }

    @Test func ackWithALabelSendsTheAckToThatTimerOnly() throws {
        let runtime = try RuntimeDirectory()
        let soft = try ControlServer(folder: runtime.folder, label: "soft")
        let tea = try ControlServer(folder: runtime.folder, label: "tea")
        let served = serve(tea, count: 2) { line in
            ControlRequest(line: line) == .command(.acknowledge, by: .shell)
                ? status("tea", .done).line : status("tea", .ringing).line
        }
        let result = runEggtimer(["ack", "tea"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(0))
        #expect(result.stdout == "tea: alarm stopped\n" && result.stderr == "")
        #expect(
            served.lines.withLock { $0 } == [
                ControlRequest.status.line, ControlRequest.command(.acknowledge, by: .shell).line,
            ])
        #expect(soft.accept() == nil, "the other timer was not contacted")
    }

    /// A timer older than control protocol 4 (running across a package upgrade) answers the
    /// origin's line with its error line; the command is sent again without it, once.
    @Test func aTimerOlderThanTheOriginIsAskedAgainWithoutIt() throws {
        let runtime = try RuntimeDirectory()
        let tea = try ControlServer(folder: runtime.folder, label: "tea")
        let served = serve(tea, count: 3) { line in
            switch ControlRequest(line: line) {
            case .status: status("tea", .ringing).line
            case .command(.acknowledge, nil): status("tea", .done).line
            default: ControlRequest.olderTimerRefusal
            }
        }
        let result = runEggtimer(["ack", "tea"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(0), "\(result.stderr)")
        #expect(result.stdout == "tea: alarm stopped\n" && result.stderr == "")
        #expect(
            served.lines.withLock { $0 } == [
                ControlRequest.status.line, "eggtimer/4\tack\tby=shell", "eggtimer/1\tack",
            ])
    }

    /// `eggtimer soft` is labelled `Soft` (the preset's name); `eggtimer cancel soft` finds it.
    @Test func aLabelDifferingInCaseAloneFindsTheTimer() throws {
        let runtime = try RuntimeDirectory()
        let server = try ControlServer(folder: runtime.folder, label: "Soft")
        let served = serve(server, count: 2) { _ in status("Soft", .counting).line }
        let result = runEggtimer(["cancel", "soft"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(0))
        #expect(result.stdout == "Soft: cancelled\n" && result.stderr == "")
        #expect(
            served.lines.withLock { $0 } == [
                ControlRequest.status.line, ControlRequest.command(.cancel, by: .shell).line,
            ])
    }

    @Test func snoozeSendsItsDurationAndSaysWhenItRingsAgain() throws {
        let runtime = try RuntimeDirectory()
        let server = try ControlServer(folder: runtime.folder, label: "soft")
        let served = serve(server, count: 2) { line in
            ControlRequest(line: line) == .status
                ? status("soft", .ringing).line : status("soft", .snoozed, deadline: nineTwelve + 600_000).line
        }
        let result = runEggtimer(["snooze", "--for", "90s"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(0))
        #expect(result.stdout == "soft: snoozed until 09:22:03\n")
        #expect(served.lines.withLock { $0 }.last == "eggtimer/4\tsnooze\t90\tby=shell")
    }

    @Test func aRefusalIsPrintedWithTheNothingToActOnStatus() throws {
        let runtime = try RuntimeDirectory()
        let server = try ControlServer(folder: runtime.folder, label: "soft")
        let served = serve(server, count: 2) { line in
            ControlRequest(line: line) == .status
                ? status("soft", .counting).line : "error\tsoft is counting, not ringing"
        }
        let result = runEggtimer(["ack"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(3))
        #expect(result.stderr == "eggtimer: soft is counting, not ringing\n" && result.stdout == "")
    }

    @Test(arguments: [["ack"], ["cancel", "tea"], ["snooze", "tea", "--for", "1m"]])
    func nothingToActOnIsOneLineAndStatus3(arguments: [String]) throws {
        let runtime = try RuntimeDirectory()
        let result = runEggtimer(arguments, environment: runtime.environment)
        #expect(result.termination == .exited(3))
        let expected = arguments.count == 1 ? "no timers running" : "no timer labelled 'tea' is running"
        #expect(result.stderr == "eggtimer: \(expected)\n" && result.stdout == "")
    }

    /// A runtime folder so deep that a timer's socket path passes the 107 bytes of `sun_path`: a
    /// command naming the timer says so in one line and exits 78 (EX_CONFIG), no timer could
    /// listen there; it trapped (exit 132) in the client's address code before.
    @Test(arguments: [["ack", "tea"], ["cancel", "tea"], ["snooze", "tea"], ["snooze", "tea", "--for", "1m"]])
    func aSocketPathTooLongForAnAddressIsOneLineAndStatus78(arguments: [String]) throws {
        let runtime = try RuntimeDirectory(withFolder: false)
        let deep = runtime.base + "/" + String(repeating: "d", count: 90)
        #expect(mkdir(deep, 0o700) == 0)
        defer {
            rmdir(deep + "/eggtimer")
            rmdir(deep)
        }
        try RuntimeFolder.prepare(deep + "/eggtimer")
        let path = deep + "/eggtimer/tea.sock"
        let result = runEggtimer(arguments, environment: ["XDG_RUNTIME_DIR": deep, "TZ": "UTC-1"])
        #expect(result.termination == .exited(78))
        #expect(
            result.stderr
                == "eggtimer: tea: the socket path \(path) is \(path.utf8.count) bytes, more than the 107 a socket "
                + "address holds: give a shorter label or XDG_RUNTIME_DIR\n")
        #expect(result.stdout.isEmpty)
    }

    /// A socket left by a killed timer refuses connections: skipped without a word, and removed.
    @Test func aStaleSocketIsSkippedAndLeftForItsLabelsNextTimer() throws {
        let runtime = try RuntimeDirectory()
        let path = runtime.folder + "/old.sock"
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnixAddress(path) { bind(stale, $0, $1) }
        try #require(bound == 0)
        close(stale)
        let server = try ControlServer(folder: runtime.folder, label: "soft")
        let served = serve(server, count: 1) { _ in status("soft", .counting).line }
        let result = runEggtimer(["status"], environment: runtime.environment)
        served.done.wait()
        #expect(result.termination == .exited(0))
        #expect(result.stderr == "")
        #expect(result.stdout.contains("soft") && !result.stdout.contains("old"))
        #expect(access(path, F_OK) == 0, "only the holder of the label's lock removes a socket")
        let successor = try ControlServer(folder: runtime.folder, label: "old")
        #expect(successor.path == path)
    }

    /// A timer that never answers (stopped, hung) costs the answer limit and one line: `status`
    /// counts it as running, not answering (issue 24: not "skipped" and then "no timers running").
    @Test func aTimerThatDoesNotAnswerIsCountedAsNotAnswering() throws {
        let runtime = try RuntimeDirectory()
        let mute = try ControlServer(folder: runtime.folder, label: "mute")  // listens, never accepts
        let result = runEggtimer(["status"], environment: runtime.environment)
        #expect(result.termination == .exited(0))
        // The listener is this test process (SO_PEERCRED), running, not stopped.
        #expect(
            result.stdout == "1 timer running, not answering:\n  mute: no answer within 1 s (pid \(getpid()))\n")
        #expect(result.stderr == "")
        let json = runEggtimer(["status", "--json"], environment: runtime.environment)
        #expect(json.stdout == "[]\n")
        #expect(json.stderr == "eggtimer: mute: no answer within 1 s (pid \(getpid())); skipped\n")
        _ = mute
    }
}
