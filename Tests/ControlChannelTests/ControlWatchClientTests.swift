import ControlChannel
import Dispatch
import Glibc
import Testing
import TimerModel

/// `ControlClient.watch` against fake timers: real `ControlServer`s in a private folder, served
/// from another thread, which sends `lines` (waiting for `go` before each after the first) and
/// then closes.
@Suite struct ControlWatchClientTests {
    private final class FakeTimer: Sendable {
        let done = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
    }

    private func serve(_ server: ControlServer, lines: [String]) -> FakeTimer {
        let fake = FakeTimer()
        let descriptor = server.descriptor
        nonisolated(unsafe) let server = server  // that thread's alone until `done`
        DispatchQueue.global().async {
            defer { fake.done.signal() }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5000) == 1, let connection = server.accept() else { return }
            for _ in 0..<100 {
                var readable = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&readable, 1, 100)
                guard case .line = connection.read() else { continue }
                for (index, line) in lines.enumerated() {
                    if index > 0 { fake.go.wait() }
                    connection.reply(line)
                }
                return
            }
        }
        return fake
    }

    private func folder() -> String {
        var template = Array("/tmp/eggtimer-watch-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Removes a test folder, with the socket and lock file its server may leave behind.
    private func remove(_ folder: String) {
        unlink(folder + "/tea.sock")
        unlink(folder + "/tea.lock")
        rmdir(folder)
    }

    private func status(_ state: TimerState) -> String {
        TimerStatus(label: "tea", pid: 7, state: state, remaining: .seconds(5), deadlineUnixMilliseconds: 1).line
    }

    @Test func aWatchYieldsTheFirstLineThenEachLineAsItComesAndNeverHangsBetween() throws {
        let folder = folder()
        defer { remove(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        let fake = serve(server, lines: [status(.counting), status(.paused)])
        let watch = try ControlClient.watch(label: "tea", folder: folder)
        #expect(try watch.next(until: .now) == .line(status(.counting)))
        let start = ContinuousClock.now
        #expect(try watch.next(until: .now + .milliseconds(100)) == .quiet)
        #expect(ContinuousClock.now - start < .seconds(2), "a stalled timer costs the deadline, no more")
        #expect(try watch.next(until: .now) == .quiet)
        fake.go.signal()
        #expect(try watch.next(until: .now + .seconds(5)) == .line(status(.paused)))
        fake.done.wait()
        #expect(try watch.next(until: .now + .seconds(5)) == .ended)
        #expect(try watch.next(until: .now) == .ended)
    }

    /// A timer of protocol version 1 answers `watch` with its error line: one clear error.
    @Test func aWatchOnAnOlderTimerSaysItIsOlder() throws {
        let folder = folder()
        defer { remove(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        let fake = serve(server, lines: ["error\tnot a request of eggtimer/1"])
        let path = folder + "/tea.sock"
        #expect(throws: ControlError.olderTimer(path: path)) { try ControlClient.watch(label: "tea", folder: folder) }
        fake.done.wait()
        #expect(
            ControlError.olderTimer(path: path).description
                == "the timer at \(path) speaks eggtimer/1 only, which has no watch: it was started before an upgrade")
    }

    @Test func aRefusedWatchCarriesTheTimersReason() throws {
        let folder = folder()
        defer { remove(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        let fake = serve(server, lines: ["error\tthis timer has 16 watchers already"])
        #expect(throws: ControlError.refused(path: folder + "/tea.sock", reason: "this timer has 16 watchers already"))
        {
            try ControlClient.watch(label: "tea", folder: folder)
        }
        fake.done.wait()
    }

    @Test func aWatchedTimerThatSendsSomethingElseIsABadAnswer() throws {
        let folder = folder()
        defer { remove(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        let fake = serve(server, lines: [status(.counting), "hello"])
        let watch = try ControlClient.watch(label: "tea", folder: folder)
        #expect(try watch.next(until: .now) == .line(status(.counting)))
        fake.go.signal()
        #expect(throws: ControlError.badAnswer(path: folder + "/tea.sock")) {
            try watch.next(until: .now + .seconds(5))
        }
        fake.done.wait()
    }

    @Test func aTimerThatNeverAnswersTheWatchCostsTheTimeout() throws {
        let folder = folder()
        defer { remove(folder) }
        let mute = try ControlServer(folder: folder, label: "tea")  // listens, never accepts
        let start = ContinuousClock.now
        #expect(throws: ControlError.noAnswer(path: folder + "/tea.sock", peerPID: getpid())) {
            try ControlClient.watch(label: "tea", folder: folder, timeout: .milliseconds(200))
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        _ = mute
    }
}
