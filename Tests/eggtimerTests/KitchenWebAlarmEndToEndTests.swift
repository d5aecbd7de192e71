import Glibc
import HouseBus
import KitchenWeb
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end: alarms through the HTTP API of a real kitchen, its timers ringing into a
/// file PCM: a paired client starts Soft and stops it; every paired device's event stream sees a
/// ringing; a client that trickles its request is dropped at the deadline and stops nobody's alarm.
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

    /// Every paired device's stream sees a timer ring.
    ///
    /// As many devices as may be paired, each from its own address. A session has one stream
    /// at a time (issue 43), so these are the most streams a kitchen serves.
    @Test func everyPairedDevicesStreamSeesATimerRing() throws {
        let web = try WebKitchen()
        try web.pair()
        var cookies = [web.cookie]
        while cookies.count < Pairing.deviceLimit { cookies.append(try web.pairDevice().cookie) }
        var streams: [HTTPTestConnection] = []
        for (device, cookie) in cookies.enumerated() {
            let stream = try web.openStream(from: "127.0.1.\(device + 1)", cookie: cookie)
            let first = try stream.events(until: soon())
            #expect(first.first?.event == "timers", "stream \(streams.count) got its first picture")
            streams.append(stream)
        }
        try web.startTimer("tea", seconds: 1)
        var rang = 0
        for stream in streams where WebKitchen.awaitState("ringing", of: "tea", on: stream, until: soon()) { rang += 1 }
        #expect(rang == Pairing.deviceLimit, "every stream saw tea ring")
        let ack = try web.request("POST", "/api/ack-all", json: "{}")
        #expect(
            ack.status == 200
                && ack.text == #"{"acknowledged":1,"stopped":["tea"],"silent":[],"message":"tea stopped"}"#,
            "\(ack.text)")
        #expect(
            WebKitchen.awaitState("done", of: "tea", on: streams.last!, until: soon()), "the last stream saw it end")
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
