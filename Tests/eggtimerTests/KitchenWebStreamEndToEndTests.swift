import Glibc
import HouseBus
import TestSupport
import Testing

@testable import Kitchen
@testable import eggtimer

/// Issue 43 end to end: event streams whose readers sleep, close or come back do not hold a real
/// kitchen's connections: a stream whose reader takes nothing for a keepalive interval is closed
/// (a short one here, by the hidden `--http-keepalive`), a session's new stream replaces its old
/// one, and a stream its reader closed frees its place at once.
@Suite struct KitchenWebStreamEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(30) }

    /// Reads `stream` until a block with the comment `keepalive` came.
    private func awaitKeepalive(on stream: HTTPTestConnection, until deadline: ContinuousClock.Instant) -> Bool {
        while ContinuousClock.now < deadline {
            guard let events = try? stream.events(until: deadline), !events.isEmpty else { return false }
            if events.contains(where: { $0.comments.contains("keepalive") }) { return true }
        }
        return false
    }

    /// A reader that stops reading (a phone asleep: here a client that never reads again, with a
    /// small receive buffer) is closed within two keepalive intervals of the kitchen's writes
    /// filling it (a timer's pictures); a reader that reads, of another phone, keeps its stream.
    ///
    /// Loopback acknowledges for a stopped reader until its receive buffer is full, as a phone
    /// asleep on the network does; one off the network acknowledges nothing from the start.
    @Test func aFrozenReaderIsClosedWithinTwoKeepalivesAndAReadingOneIsKept() throws {
        let interval = Duration.seconds(1)
        let web = try WebKitchen { _ in ["--http-keepalive", "1s"] }
        try web.pair()
        let other = try web.pairDevice()
        let reading = try web.openStream(from: "127.0.5.1", cookie: other.cookie)
        #expect(try reading.events(until: soon()).first?.event == "timers")
        let frozen = try web.openStream(from: "127.0.5.2", receiveBuffer: 1024)
        #expect(try frozen.readHead(until: soon()).status == 200)
        // It reads nothing more from here; a timer's pictures fill its buffer.
        try web.startTimer("tea", seconds: 600)
        for action in ["pause", "resume", "pause", "resume"] {
            #expect(try web.request("POST", web.actionPath("tea", action), json: "{}").status == 200)
        }
        let stopped = ContinuousClock.now
        let line = "HTTP: 1 event stream closed: its reader took nothing for 1 s"
        // The other phone reads on meanwhile (its keepalives), so its stream never looks stopped.
        while !web.kitchen.expect(line, until: .now + .milliseconds(100)), ContinuousClock.now < stopped + .seconds(30)
        {
            _ = awaitKeepalive(on: reading, until: .now + .milliseconds(100))
        }
        let took = ContinuousClock.now - stopped
        #expect(web.kitchen.stdout.contains(line), "\(web.kitchen.stdout)")
        // Within two intervals, and what a loaded machine adds to the loop's ticks.
        #expect(took < interval * 2 + .seconds(4), "closed after \(took)")
        #expect(frozen.waitClosed(until: soon()), "the frozen reader's connection is closed")
        #expect(awaitKeepalive(on: reading, until: soon()), "the reading stream goes on")
        #expect(!reading.isClosed)
        let closings = web.kitchen.stdout.split(separator: "\n").filter { $0.contains("event stream closed") }
        #expect(closings.count == 1, "only the frozen one: \(closings)")
    }

    /// A session's new stream replaces its older one: a reader that reads gets `replaced` and
    /// the end of the stream; a phone that reopens its page many times without reading the old
    /// streams (asleep in between) holds one stream, not its address's every connection, so its
    /// STOP from that address is answered.
    @Test func aSessionsNewStreamReplacesItsOldOnes() throws {
        let web = try WebKitchen()
        try web.pair()
        let old = try web.openStream()
        #expect(try old.events(until: soon()).first?.event == "timers")
        let new = try web.openStream()
        #expect(try new.events(until: soon()).first?.event == "timers", "the new stream gets the picture")
        let last = try old.events(until: soon(), count: 2)
        #expect(last.map(\.event) == ["replaced"], "the old one is told, then ends: \(last)")
        #expect(old.waitClosed(until: soon()))

        try web.startTimer("tea", seconds: 1)
        #expect(WebKitchen.awaitState("ringing", of: "tea", on: new, until: soon()))
        let phone = "127.0.6.1"
        var reopened: [HTTPTestConnection] = []
        for _ in 0..<20 {
            let stream = try web.openStream(from: phone, receiveBuffer: 1024)
            #expect(try stream.readHead(until: soon()).status == 200)
            reopened.append(stream)  // never read again: the page reopened, the old one asleep
        }
        let stop = try web.request("POST", web.actionPath("tea", "ack"), json: "{}", from: phone)
        #expect(stop.status == 200 && WebKitchen.json(stop)?["state"]?.stringValue == "done", "\(stop.text)")
        #expect(WebKitchen.awaitState("done", of: "tea", on: reopened[19], until: soon()), "the newest stream is live")
    }

    /// A stream whose reader closes it frees its connection at once, not at the kitchen's next
    /// write to it (a keepalive 15 s later): with the address's other 15 places held, a new
    /// request from it is answered.
    @Test func aStreamItsReaderClosedFreesItsPlaceAtOnce() throws {
        let web = try WebKitchen()
        try web.pair()
        let phone = "127.0.7.1"
        let stream = try web.openStream(from: phone)
        #expect(try stream.events(until: soon()).first?.event == "timers")
        // The address's other places, held by connections that send nothing (each would be
        // dropped at its 10 s deadline).
        let held = try (1..<16).map { _ in try HTTPTestConnection(port: web.port, source: phone) }
        stream.close()
        // Refused at the accept (closed at once) while the place is still taken; within 5 s is
        // well before a keepalive (15 s) or the others' deadline (10 s).
        try eventually("a request from the address is answered", deadline: .now + .seconds(5), every: .milliseconds(20))
        {
            (try? web.request("GET", "/api/timers", json: "", from: phone))?.status == 200
        }
        #expect(held.allSatisfy { !$0.isClosed })
    }
}
