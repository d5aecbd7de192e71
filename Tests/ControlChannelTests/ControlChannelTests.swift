import ControlChannel
import Dispatch
import Glibc
import SystemKit
import Testing
import TimerModel

/// A fresh private folder for one test.
private func privateFolder() -> String {
    var template = Array("/tmp/eggtimer-control-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

/// Removes a test folder and what is in it.
private func removeFolder(_ path: String) {
    for label in ControlClient.labels(in: path) { unlink(path + "/" + label + ".sock") }
    unlink(path + "/link")
    rmdir(path + "/eggtimer")
    rmdir(path)
}

@Suite struct RuntimeFolderTests {
    @Test(
        arguments: [
            ("/run/user/1000", UInt32(1000), true, "/run/user/1000/eggtimer"),
            (nil, 1000, true, "/run/user/1000/eggtimer"),
            (nil, 1000, false, "/tmp/eggtimer-1000"),
            ("relative/dir", 0, false, "/tmp/eggtimer-0"),  // the spec wants an absolute path
        ] as [(String?, UInt32, Bool, String)])
    func theFolderFollowsXDGThenRunUserThenTmp(variable: String?, uid: UInt32, runUser: Bool, expected: String) {
        #expect(RuntimeFolder.path(runtimeDirectory: variable, uid: uid, runUserExists: runUser) == expected)
    }

    @Test func prepareMakesAPrivateFolderAndRefusesUnsafeOnes() throws {
        let base = privateFolder()
        defer { removeFolder(base) }
        let folder = base + "/eggtimer"
        try RuntimeFolder.prepare(folder)
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        try RuntimeFolder.prepare(folder)  // again: fine

        #expect(symlink(folder, base + "/link") == 0)
        #expect(throws: ControlError.unsafeFolder(path: base + "/link", reason: "it is a symbolic link")) {
            try RuntimeFolder.prepare(base + "/link")
        }
        chmod(folder, 0o755)
        #expect(throws: ControlError.unsafeFolder(path: folder, reason: "others may use it (mode 755)")) {
            try RuntimeFolder.prepare(folder)
        }
    }
}

@Suite struct ControlSocketTests {
    /// Serves one request on `server` from another thread with `reply`.
    private func serveOnce(_ server: ControlServer, reply: @escaping @Sendable (String) -> String) -> DispatchSemaphore
    {
        let done = DispatchSemaphore(value: 0)
        let descriptor = server.descriptor
        nonisolated(unsafe) let server = server
        DispatchQueue.global().async {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 5000)
            if let connection = server.accept() {
                for _ in 0..<100 {
                    var readable = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&readable, 1, 100)
                    if case .line(let line) = connection.read() {
                        connection.reply(reply(line))
                        break
                    }
                }
            }
            done.signal()
        }
        return done
    }

    @Test func aClientGetsTheTimersReply() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "soft")
        var info = stat()
        #expect(stat(server.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let status = TimerStatus(
            label: "soft", pid: 42, state: .counting, remaining: .seconds(61), deadlineUnixMilliseconds: 1)
        let done = serveOnce(server) { line in ControlRequest(line: line) == .status ? status.line : "error\tbad" }
        let answer = try ControlClient.exchange(ControlRequest.status.line, label: "soft", folder: folder)
        done.wait()
        #expect(TimerStatus(line: answer) == status)
        #expect(ControlClient.labels(in: folder) == ["soft"])
    }

    @Test func aSecondTimerWithTheSameLabelIsRefused() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let first = try ControlServer(folder: folder, label: "tea")
        #expect(throws: ControlError.labelInUse(label: "tea")) { try ControlServer(folder: folder, label: "tea") }
        _ = first
    }

    @Test func aStaleSocketLeftByAKilledTimerIsReplaced() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        // A socket file that nobody listens on, as a kill -9 leaves it.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((folder + "/eggs.sock").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(stale)
        let server = try ControlServer(folder: folder, label: "eggs")
        #expect(server.path == folder + "/eggs.sock")
    }

    /// Issue 21: a timer between bind() and listen() refuses connections; a client meeting that
    /// must not delete its socket, and a second timer with its label must not start meanwhile.
    @Test func aTimerBetweenBindAndListenKeepsItsSocketAndItsLabel() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        var client: ControlError?
        var second: ControlError?
        let server = try ControlServer(folder: folder, label: "tea") {
            do throws(ControlError) {
                _ = try ControlClient.exchange(ControlRequest.status.line, label: "tea", folder: folder)
            } catch { client = error }
            do throws(ControlError) { _ = try ControlServer(folder: folder, label: "tea") } catch { second = error }
        }
        #expect(client == .system(call: "connect", code: ECONNREFUSED))
        #expect(second == .labelInUse(label: "tea"))
        let status = TimerStatus(
            label: "tea", pid: 42, state: .counting, remaining: .seconds(61), deadlineUnixMilliseconds: 1)
        let done = serveOnce(server) { _ in status.line }
        let answer = try ControlClient.exchange(ControlRequest.status.line, label: "tea", folder: folder)
        done.wait()
        #expect(TimerStatus(line: answer) == status, "the socket is still there and still its own")
    }

    @Test func closingTheServerRemovesItsSocket() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        do { _ = try ControlServer(folder: folder, label: "gone") }
        #expect(ControlClient.labels(in: folder).isEmpty)
    }

    /// A timer that ends while asked closes the connection without a word (issue 41: `cancel --all`
    /// said one timer both "cancelled" and "answered something that is not eggtimer's"): that is
    /// an ending timer, not a foreign answer.
    @Test func aTimerThatClosesWithoutAnsweringIsEndingNotForeign() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let listener = server
        DispatchQueue.global().async {
            var ready = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 5000)
            if let connection = listener.accept() {
                var readable = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&readable, 1, 5000)
                _ = connection.read()
            }  // dropped: closed unanswered
            done.signal()
        }
        #expect(throws: ControlError.closedUnanswered(path: folder + "/tea.sock")) {
            try ControlClient.exchange(ControlRequest.status.line, label: "tea", folder: folder, timeout: .seconds(5))
        }
        done.wait()
        #expect(
            ControlError.closedUnanswered(path: "/r/tea.sock").description
                == "/r/tea.sock closed without answering: it is ending")
    }

    @Test func noTimerOrAStaleOneIsAConnectFailureNotAHang() {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        #expect(throws: ControlError.system(call: "connect", code: ENOENT)) {
            try ControlClient.exchange(ControlRequest.status.line, label: "none", folder: folder, timeout: .seconds(1))
        }
    }

    @Test func onlyTheSameUserMayControlATimer() {
        #expect(ControlServer.accepts(peerUID: 1000, ownUID: 1000))
        #expect(!ControlServer.accepts(peerUID: 0, ownUID: 1000))
        #expect(!ControlServer.accepts(peerUID: 1001, ownUID: 1000))
        // The kernel's record of a real peer: this process, on both ends of a socket pair.
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        var peer = PeerCredentials()
        #expect(peerCredentials(pair[0], &peer) == 0)
        #expect(peer.uid == getuid() && peer.pid == getpid())
        close(pair[0])
        close(pair[1])
    }
}

/// A socket's name is its label's key (issue 41): injective on labels that are not one timer.
@Suite struct SocketNameTests {
    @Test(arguments: [
        ("soft", "soft"), ("Soft", "soft"), ("tea.2", "tea.2"), ("1:30", "1:30"), ("1h 30m", "1h 30m"),
        ("90", "90"), ("Küche", "küche"), ("Roast Beef", "roast beef"), ("_x", "_x"),
    ])
    func aSocketIsNamedByTheLabelsKey(label: String, name: String) {
        #expect(ControlServer.socketName(for: label) == name)
        #expect(ControlServer.socketName(for: name) == name, "a socket name names itself")
    }

    static let tricky = [
        "1:30", "1-30", "1_30", "1.30", "1+30", ":", "+", "-x", "_", "'", "Küche", "küche", "Kuche", "roast beef",
        "roast_beef", "roast-beef", "roastbeef", "a'b", "a b", "ab", "寿司", "_hidden",
    ]

    @Test func twoLabelsShareASocketOnlyWhenTheyAreOneTimer() {
        for label in Self.tricky where LabelRule.isValid(label) {
            for other in Self.tricky where LabelRule.isValid(other) {
                let shared = ControlServer.socketName(for: label) == ControlServer.socketName(for: other)
                #expect(shared == LabelRule.same(label, other), "\(label) and \(other)")
            }
        }
        #expect(ControlServer.socketName(for: "Küche") == ControlServer.socketName(for: "küche"))
        #expect(ControlServer.socketName(for: "1:30") != ControlServer.socketName(for: "1-30"))
    }

    @Test func aLongNonASCIILabelIsRefusedBeforeItsSocketPathWouldNotFit() throws {
        let label = String(repeating: "ü", count: 32)  // 64 bytes
        #expect(LabelRule.isValid(label))
        let folder = "/run/user/1000/eggtimer"
        #expect(ControlServer.unreachableReason(label: label, folder: folder) == nil)
        let deep = "/" + String(repeating: "d", count: 40)
        let reason = try #require(ControlServer.unreachableReason(label: label, folder: folder + deep))
        #expect(reason.contains("more than the 107"), "\(reason)")
    }
}

@Suite struct ControlMessageTests {
    @Test(arguments: [
        (Command.status, "eggtimer/1\tstatus"), (.acknowledge, "eggtimer/1\tack"),
        (.cancel, "eggtimer/1\tcancel"),
        (.snooze(nil), "eggtimer/1\tsnooze"), (.snooze(.seconds(600)), "eggtimer/1\tsnooze\t600"),
        (.pause, "eggtimer/2\tpause"), (.resume, "eggtimer/2\tresume"), (.add(.seconds(60)), "eggtimer/2\tadd\t60"),
        (.add(.seconds(-60)), "eggtimer/2\tadd\t-60"), (.add(.seconds(86_400)), "eggtimer/2\tadd\t86400"),
        (.add(.seconds(-86_400)), "eggtimer/2\tadd\t-86400"),
    ])
    func requestsRoundTrip(command: Command, line: String) {
        #expect(ControlRequest.command(command).line == line)
        #expect(ControlRequest(line: line) == .command(command))
    }

    /// Version 4: a command with the front it came through, last; the one older timers refuse.
    @Test(arguments: [
        (Command.acknowledge, Origin.shell, "eggtimer/4\tack\tby=shell"),
        (.cancel, .http, "eggtimer/4\tcancel\tby=http"), (.snooze(nil), .keypad, "eggtimer/4\tsnooze\tby=keypad"),
        (.snooze(.seconds(600)), .voice, "eggtimer/4\tsnooze\t600\tby=voice"),
        (.add(.seconds(-60)), .mqtt, "eggtimer/4\tadd\t-60\tby=mqtt"), (.status, .http, "eggtimer/4\tstatus\tby=http"),
    ])
    func commandsWithAnOriginRoundTripUnderVersion4(command: Command, origin: Origin, line: String) {
        let request = ControlRequest.command(command, by: origin)
        #expect(request.line == line)
        #expect(ControlRequest(line: line) == request)
        #expect(request.withoutOrigin == .command(command))
        #expect(request.withoutOrigin.line == ControlRequest.command(command).line)
    }

    @Test(arguments: [
        "eggtimer/4\tack", "eggtimer/4\tack\tby=", "eggtimer/4\tack\tby=key", "eggtimer/4\tack\tby=signal",
        "eggtimer/4\tack\tby=control", "eggtimer/4\tack\tby=HTTP", "eggtimer/4\tby=http\tack",
        "eggtimer/4\tack\tby=http\tby=http", "eggtimer/1\tack\tby=http", "eggtimer/4\tsnooze\t0\tby=http",
        "eggtimer/4\twatch\tby=http", "eggtimer/4\tstart\tsoft\tby=http", "eggtimer/4\tpair\tby=http",
        "eggtimer/4\tby=http",
    ])
    func malformedVersion4LinesAreRefused(line: String) {
        #expect(ControlRequest(line: line) == nil)
    }

    @Test func anOlderTimersAnswerIsRecognised() {
        #expect(ControlRequest.isOlderTimerRefusal("error\tnot a request of eggtimer/1"))
        #expect(!ControlRequest.isOlderTimerRefusal("error\tsoft is counting, not ringing"))
    }

    @Test func watchRoundTrips() {
        #expect(ControlRequest.watch.line == "eggtimer/2\twatch")
        #expect(ControlRequest(line: "eggtimer/2\twatch") == .watch)
    }

    @Test(arguments: [
        "", "status", "eggtimer/2\tstatus", "eggtimer/1\tstatus\textra", "eggtimer/1\tsnooze\t-5",
        "eggtimer/1\tsnooze\tten", "eggtimer/1\tlaunch", "eggtimer/1\tsnooze\t99999999999",
        // `watch` is version 2's alone, and takes no argument.
        "eggtimer/1\twatch", "eggtimer/2\twatch\t", "eggtimer/2\twatch\tall", "eggtimer/3\twatch", "eggtimer/2\tack",
        "eggtimer/2\tpause\t5", "eggtimer/2\tresume\textra", "eggtimer/2\tadd", "eggtimer/2\tadd\t1\t2",
        "eggtimer/2\tPAUSE", "eggtimer/2\tadd 60",
        // pause, resume and add are version 2's: a request names the lowest version that has its verb.
        "eggtimer/1\tpause", "eggtimer/1\tresume", "eggtimer/1\tadd\t60",
    ])
    func malformedRequestsAreRejected(line: String) {
        #expect(ControlRequest(line: line) == nil)
    }

    /// Boundary numbers in a `snooze` request: only 1...999 h of whole seconds is a request.
    @Test(arguments: [
        "0", "-0", "-1", "3596401", "2147483647", "2147483648", "-2147483648", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1e999", "1e3", "NaN", "nan", "inf", "-inf", "0x10", "1.5", " 5",
        "",
    ])
    func boundarySnoozeLengthsAreRejected(seconds: String) {
        #expect(ControlRequest(line: "eggtimer/1\tsnooze\t" + seconds) == nil)
    }

    @Test(arguments: [("1", Int64(1)), ("+1", 1), ("3596400", 3_596_400)])
    func boundarySnoozeLengthsInRangeAreTaken(seconds: String, value: Int64) {
        #expect(ControlRequest(line: "eggtimer/1\tsnooze\t" + seconds) == .command(.snooze(.seconds(value))))
    }

    /// Boundary numbers in an `add` request: only whole seconds in -86400...86400, not 0, are a
    /// request (a range check: `abs(Int64.min)` would trap).
    @Test(arguments: [
        "0", "-0", "+0", "86401", "-86401", "2147483648", "-2147483648", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "1e3", "nan", "inf", "0x10", "1.5", " 5", "",
    ])
    func boundaryAddAmountsAreRejected(seconds: String) {
        #expect(ControlRequest(line: "eggtimer/2\tadd\t" + seconds) == nil)
    }

    @Test(arguments: [("1", Int64(1)), ("-1", -1), ("+1", 1), ("86400", 86_400), ("-86400", -86_400)])
    func boundaryAddAmountsInRangeAreTaken(seconds: String, value: Int64) {
        #expect(ControlRequest(line: "eggtimer/2\tadd\t" + seconds) == .command(.add(.seconds(value))))
    }

    /// Boundary numbers in a reply: a deadline the client could not do calendar arithmetic on, or
    /// a negative time left, is not a reply (a stranger's socket can send anything).
    @Test(arguments: [
        "remaining_ns=-1", "remaining_ns=-9223372036854775808", "remaining_ns=9223372036854775808",
        "remaining_ns=1e999", "remaining_ns=NaN", "remaining_ns=1\tdeadline_ms=9223372036854775807",
        "remaining_ns=1\tdeadline_ms=-9223372036854775808", "remaining_ns=1\tdeadline_ms=-1",
        "remaining_ns=1\tdeadline_ms=253402300800000", "remaining_ns=1\tdeadline_ms=inf",
        "remaining_ns=1\tdeadline_ms=",
    ])
    func outOfRangeReplyNumbersAreRejected(fields: String) {
        #expect(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=counting\t" + fields) == nil)
    }

    @Test(arguments: [
        ("remaining_ns=0", nil), ("remaining_ns=9223372036854775807\tdeadline_ms=0", Int64(0)),
        ("remaining_ns=-0\tdeadline_ms=253402300799999", 253_402_300_799_999),
    ])
    func boundaryReplyNumbersInRangeAreTaken(fields: String, deadline: Int64?) throws {
        let status = try #require(TimerStatus(line: "ok\tlabel=x\tpid=1\tstate=counting\t" + fields))
        #expect(status.deadlineUnixMilliseconds == deadline)
    }

    @Test func statusRepliesRoundTripAndRejectGarbage() {
        let status = TimerStatus(
            label: "1h30", pid: 7, state: .snoozed, remaining: .nanoseconds(1_500_000_001),
            deadlineUnixMilliseconds: nil)
        #expect(TimerStatus(line: status.line) == status)
        var ended = status
        ended.endedBy = "SIGTERM"
        #expect(ended.line.hasSuffix("\tended=SIGTERM"))
        #expect(TimerStatus(line: ended.line) == ended)
        for garbage in ["sigterm", "SIG", "SIGTERMINATE", "TERM", "SIGTERM1"] {
            #expect(TimerStatus(line: status.line + "\tended=" + garbage) == status, "\(garbage): left off")
        }
        var started = status
        started.requestID = RequestID("3f2a-retry.1:x")
        #expect(started.line.hasSuffix("\trequest=3f2a-retry.1:x"))
        #expect(TimerStatus(line: started.line) == started)
        for garbage in ["", "a b", "<x>", String(repeating: "a", count: RequestID.limit + 1)] {
            #expect(TimerStatus(line: status.line + "\trequest=" + garbage) == status, "\(garbage): left off")
        }
        #expect(TimerStatus(line: "error\tno") == nil)
        #expect(TimerStatus(line: "ok\tlabel=x") == nil)
    }
}
