import Glibc
import HouseBus
import TestSupport
import Testing

@testable import Kitchen
@testable import eggtimer

/// Issue 29 end to end: alarms through the HTTP API of a real kitchen, its timers ringing into a
/// file PCM: a paired client starts Soft and stops it; many event streams each see a ringing;
/// a client that trickles its request is dropped at the deadline and stops nobody's alarm.
@Suite struct KitchenWebAlarmEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(30) }

    @Test func aPairedPhoneStartsSoftSeesItRingAndStopsIt() throws {
        let web = try WebKitchen(config: "soft = 2s\n")
        try web.pair()
        let stream = try web.openStream()
        #expect(try stream.events(until: soon()).first?.event == "timers")

        let started = try web.request("POST", "/api/timers", json: "{\"start\":\"soft\"}")
        #expect(started.status == 201, "\(started.text)")
        let timer = WebKitchen.json(started)
        #expect(timer?["label"]?.stringValue == "Soft" && timer?["kind"]?.stringValue == "egg", "\(started.text)")
        #expect(timer?["preset"]?.stringValue == "Soft" && timer?["local"] == .bool(true), "\(started.text)")
        #expect(WebKitchen.awaitState("ringing", of: "Soft", on: stream, until: soon()), "the stream shows it ringing")
        try eventually(
            "the alarm is written to the file PCM", deadline: soon(), every: .milliseconds(50),
            meanwhile: { _ = stream.readSome(until: $0) }, { web.house.captured() > 0 })

        let ack = try web.request("POST", web.actionPath("Soft", "ack"), json: "{}")
        #expect(ack.status == 200 && WebKitchen.json(ack)?["state"]?.stringValue == "done", "\(ack.text)")
        #expect(WebKitchen.awaitState("done", of: "Soft", on: stream, until: soon()), "the stream shows it stopped")
        #expect(web.kitchen.expect("HTTP: Soft: alarm stopped", until: soon()), "\(web.kitchen.stdout)")
        // The phone's STOP reaches the timer as the phone's (control protocol 4), in its own log.
        let acknowledged = {
            web.house.log("Soft").split(separator: "\n").first { $0.contains(#""event":"acknowledged""#) }
        }
        try eventually("the timer logs its acknowledgement", deadline: soon()) { acknowledged() != nil }
        #expect(acknowledged()?.contains(#""by":"http""#) == true, "\(web.house.log("Soft"))")
        #expect(
            web.kitchen.stdout.contains("Soft: started, rings in 0:02") && web.kitchen.stdout.contains("(from HTTP)"))
    }

    @Test func aHundredEventStreamsEachSeeATimerRing() throws {
        let web = try WebKitchen()
        try web.pair()
        var streams: [HTTPTestConnection] = []
        for device in 1...100 {
            let stream = try web.openStream(from: "127.0.1.\(device)")
            let first = try stream.events(until: soon())
            #expect(first.first?.event == "timers", "stream \(streams.count) got its first picture")
            streams.append(stream)
        }
        try web.startTimer("tea", seconds: 1)
        var rang = 0
        for stream in streams where WebKitchen.awaitState("ringing", of: "tea", on: stream, until: soon()) { rang += 1 }
        #expect(rang == 100, "every stream saw tea ring")
        let ack = try web.request("POST", "/api/ack-all", json: "{}")
        #expect(
            ack.status == 200
                && ack.text == #"{"acknowledged":1,"stopped":["tea"],"silent":[],"message":"tea stopped"}"#,
            "\(ack.text)")
        #expect(WebKitchen.awaitState("done", of: "tea", on: streams[99], until: soon()), "the last stream saw it end")
    }

    @Test func theHundredAndTwentyNinthEventStreamIsRefused503AndAClosedOneFreesItsPlace() throws {
        let web = try WebKitchen()
        try web.pair()
        var streams: [HTTPTestConnection] = []
        for device in 1...KitchenWebFront.streamLimit {
            let stream = try web.openStream(from: "127.0.1.\(device)")
            #expect(try stream.events(until: soon()).first?.event == "timers")
            streams.append(stream)
        }
        let refused = try web.request("GET", "/api/events")
        #expect(refused.status == 503 && refused.header("Retry-After") == "5", "\(refused.status) \(refused.text)")
        streams.removeLast().close()
        // An idle stream's close shows when the kitchen next writes to it: new pictures (a
        // timer started, paused, resumed) are those writes; a new stream then gets the place.
        try web.startTimer("tea", seconds: 600)
        var admitted = false
        let deadline = soon()
        for action in ["pause", "resume", "pause", "resume"] where !admitted {
            #expect(try web.request("POST", web.actionPath("tea", action), json: "{}").status == 200)
            let stream = try web.openStream()
            admitted = try stream.readHead(until: deadline).status == 200
            if admitted { streams.append(stream) }
        }
        while !admitted, ContinuousClock.now < deadline {
            let stream = try web.openStream()
            let head = try stream.readHead(until: deadline)
            admitted = head.status == 200
            if admitted { streams.append(stream) } else { _ = stream.waitClosed(until: .now + .milliseconds(50)) }
        }
        #expect(admitted, "a freed place is taken again")
    }

    @Test func aClientTricklingItsRequestIsDroppedAtTheDeadlineWhileAnotherStopsAnAlarm() throws {
        let web = try WebKitchen()
        try web.pair()
        try web.startTimer("rice", seconds: 1)
        let stream = try web.openStream()
        #expect(WebKitchen.awaitState("ringing", of: "rice", on: stream, until: soon()))

        let slow = try HTTPTestConnection(port: web.port)
        let opened = ContinuousClock.now
        let request = Array("GET /api/timers HTTP/1.1\r\nHost: \(web.host)\r\nCookie: \(web.cookie)\r\n\r\n".utf8)
        var sent = 0
        var ackTook: Duration?
        while !slow.isClosed, sent < request.count, ContinuousClock.now < opened + .seconds(40) {
            _ = slow.send([request[sent]])
            sent += 1
            if sent == 3 {
                let asked = ContinuousClock.now
                let ack = try web.request("POST", web.actionPath("rice", "ack"), json: "{}")
                ackTook = ContinuousClock.now - asked
                #expect(ack.status == 200 && WebKitchen.json(ack)?["state"]?.stringValue == "done", "\(ack.text)")
            }
            // One byte a second: the wait ends early only when the kitchen closes the socket.
            let next = ContinuousClock.now + .seconds(1)
            while !slow.isClosed, ContinuousClock.now < next { _ = slow.readSome(until: next) }
        }
        let lasted = ContinuousClock.now - opened
        #expect(slow.isClosed, "the trickling client was dropped")
        #expect(sent < request.count, "before its request was whole")
        #expect(lasted >= .seconds(9) && lasted < .seconds(20), "at the 10 s deadline: \(lasted)")
        #expect(
            (ackTook ?? .seconds(99)) < .seconds(2),
            "the other client was answered meanwhile: \(String(describing: ackTook))")
        #expect(WebKitchen.awaitState("done", of: "rice", on: stream, until: soon()), "the stream saw it end")
    }
}
