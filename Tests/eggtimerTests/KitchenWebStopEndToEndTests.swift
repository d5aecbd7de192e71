import Glibc
import HouseBus
import TestSupport
import Testing

@testable import KitchenWeb
@testable import eggtimer

/// Issue 43 end to end: the phone's STOP gets through a real kitchen's HTTP API whatever others
/// send: junk cookies from the household's address, STOPs tapped at once, a STOP that comes
/// after the alarm stopped, and a request whose body's length is ambiguous.
@Suite struct KitchenWebStopEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(30) }

    /// Starts `label` for a second and waits on a stream of its own until it rings.
    private func ringing(_ label: String, in web: WebKitchen) throws {
        let stream = try web.openStream()
        try web.startTimer(label, seconds: 1)
        try #require(WebKitchen.awaitState("ringing", of: label, on: stream, until: soon()), "\(label) rings")
    }

    /// The limit is per credential: junk cookies from the address the paired phone shares (a
    /// kiosk on the box, a NAT) are refused 429 while the phone's own STOP from it is 200.
    @Test func junkCookiesFromTheHouseholdsAddressLeaveAPairedPhonesStopAnswered() throws {
        let web = try WebKitchen()
        try web.pair()
        try ringing("tea", in: web)
        let junk = [
            HTTPTestField("Cookie", "eggtimer_session=" + String(repeating: "0", count: 64)),
            HTTPTestField("X-CSRF-Token", web.csrf),
        ]
        var statuses: [Int] = []
        for _ in 0..<(Pairing.failureLimit + 2) {
            statuses.append(
                try web.request("POST", web.actionPath("tea", "ack"), json: "{}", session: false, headers: junk).status)
        }
        #expect(
            statuses == Array(repeating: 401, count: Pairing.failureLimit) + [429, 429],
            "the junk is limited per address: \(statuses)")
        let stop = try web.request("POST", web.actionPath("tea", "ack"), json: "{}")
        #expect(stop.status == 200 && WebKitchen.json(stop)?["state"]?.stringValue == "done", "\(stop.text)")
        let read = try web.request("GET", "/api/timers")
        #expect(read.status == 200, "the phone reads too: \(read.status)")
        let stillJunk = try web.request("GET", "/api/timers", session: false, headers: junk)
        #expect(stillJunk.status == 429, "the junk is still refused: \(stillJunk.status)")
    }

    /// Three taps at once (two STOPs of the timer and one "stop all") each answer 200; the STOPs
    /// both say it is done.
    @Test func simultaneousStopsAreAllAnswered200() throws {
        let web = try WebKitchen()
        try web.pair()
        try ringing("tea", in: web)
        var taps: [HTTPTestConnection] = []
        for path in [web.actionPath("tea", "ack"), web.actionPath("tea", "ack"), "/api/ack-all"] {
            let tap = try HTTPTestConnection(port: web.port)
            try tap.sendRequest(
                method: "POST", path: path,
                headers: [
                    HTTPTestField("Cookie", web.cookie), HTTPTestField("X-CSRF-Token", web.csrf),
                    HTTPTestField("Content-Type", "application/json"),
                ], body: Array("{}".utf8))
            taps.append(tap)
        }
        let answers = try taps.map { try $0.readResponse(until: soon()) }
        #expect(answers.map(\.status) == [200, 200, 200], "\(answers.map(\.text))")
        for answer in answers.prefix(2) {
            #expect(WebKitchen.json(answer)?["state"]?.stringValue == "done", "\(answer.text)")
        }
        #expect(web.kitchen.expect("HTTP: tea: alarm stopped", until: soon()), "\(web.kitchen.stdout)")
    }

    /// STOP on an alarm already stopped answers 200 with the timer's state.
    ///
    /// Right after, and once its timer exited; a cancelled timer's too. A counting one still
    /// refuses (409).
    @Test func aStopOnAStoppedAlarmIs200WithItsState() throws {
        let web = try WebKitchen()
        try web.pair()
        try ringing("tea", in: web)
        let ack = web.actionPath("tea", "ack")
        let first = try web.request("POST", ack, json: "{}")
        #expect(first.status == 200 && WebKitchen.json(first)?["state"]?.stringValue == "done", "\(first.text)")
        let again = try web.request("POST", ack, json: "{}")
        #expect(again.status == 200 && WebKitchen.json(again)?["state"]?.stringValue == "done", "\(again.text)")
        #expect(web.kitchen.expect("tea: ended", until: soon()), "the kitchen saw tea's timer exit")
        #expect(web.state("tea") == nil, "tea's timer is gone")
        let late = try web.request("POST", ack, json: "{}")
        #expect(late.status == 200 && WebKitchen.json(late)?["state"]?.stringValue == "done", "\(late.text)")
        #expect(WebKitchen.json(late)?["label"]?.stringValue == "tea", "\(late.text)")

        try web.startTimer("rice", seconds: 600)
        let counting = try web.request("POST", web.actionPath("rice", "ack"), json: "{}")
        #expect(counting.status == 409, "a counting timer never rang: \(counting.text)")
        let cancel = try web.request("POST", web.actionPath("rice", "cancel"), json: "{}")
        #expect(cancel.status == 200, "\(cancel.text)")
        let cancelled = try web.request("POST", web.actionPath("rice", "ack"), json: "{}")
        #expect(
            cancelled.status == 200 && WebKitchen.json(cancelled)?["state"]?.stringValue == "cancelled",
            "\(cancelled.text)")
        let never = try web.request("POST", web.actionPath("nothing", "ack"), json: "{}")
        #expect(never.status == 404, "\(never.text)")
    }

    /// STOP of an alarm SIGTERM ended (its record kept, which would bring it back at the
    /// kitchen's next start) answers 200 and removes that record, with one line.
    @Test func aStopOfAnAlarmSIGTERMEndedForgetsItsKeptRecord() throws {
        let web = try WebKitchen()
        try web.pair()
        try ringing("tea", in: web)
        let pid = try #require(web.house.status("tea")?.pid)
        #expect(kill(pid, SIGTERM) == 0)
        #expect(web.kitchen.expect("tea: ended by SIGTERM", until: soon()), "\(web.kitchen.stdout)")
        #expect(web.house.record("tea") != nil, "SIGTERM kept tea's record")
        let stop = try web.request("POST", web.actionPath("tea", "ack"), json: "{}")
        #expect(stop.status == 200, "\(stop.text)")
        #expect(
            web.kitchen.expect("tea: stopped; its kept record is removed", until: soon()), "\(web.kitchen.stdout)")
        #expect(web.house.record("tea") == nil, "the record that would ring again is gone")
        let again = try web.request("POST", web.actionPath("tea", "ack"), json: "{}")
        #expect(again.status == 200, "\(again.text)")
    }

    /// "Stop all" with the only ringing timer hung (SIGSTOP) answers 409 naming it, as its own
    /// STOP does, never "nothing rings"; once it runs again, its STOP answers it done.
    @Test func stopAllWithAHungRingingTimerSaysItDidNotAnswer() throws {
        let web = try WebKitchen()
        try web.pair()
        try ringing("tea", in: web)
        let pid = try #require(web.house.status("tea")?.pid)
        #expect(kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        let hung = try web.request("POST", "/api/ack-all", json: "{}")
        let error = WebKitchen.json(hung)?["error"]?.stringValue ?? ""
        #expect(hung.status == 409 && error.hasPrefix("tea: "), "\(hung.status) \(hung.text)")
        #expect(!web.kitchen.stdout.contains("nothing rings"), "\(web.kitchen.stdout)")
        #expect(kill(pid, SIGCONT) == 0)
        let stop = try web.request("POST", web.actionPath("tea", "ack"), json: "{}")
        #expect(stop.status == 200 && WebKitchen.json(stop)?["state"]?.stringValue == "done", "\(stop.text)")
    }

    /// Two differing `Content-Length` fields are refused 400 and the connection closed, so that
    /// no request hides in the body (libmicrohttpd alone read the first and served the rest as a
    /// second request); two equal ones are one length.
    @Test func twoDifferingContentLengthFieldsAre400AndSmuggleNothing() throws {
        let web = try WebKitchen()
        try web.pair()
        let start = #"{"seconds":600,"label":"smug"}"#
        let smuggled =
            "POST /api/timers HTTP/1.1\r\nHost: \(web.host)\r\nCookie: \(web.cookie)\r\n"
            + "X-CSRF-Token: \(web.csrf)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(start.utf8.count)\r\nConnection: close\r\n\r\n" + start
        let body = "{}" + smuggled
        for lengths in [("2", "\(body.utf8.count)"), ("\(body.utf8.count)", "2")] {
            let connection = try HTTPTestConnection(port: web.port)
            let head =
                "POST /api/ack-all HTTP/1.1\r\nHost: \(web.host)\r\nCookie: \(web.cookie)\r\n"
                + "X-CSRF-Token: \(web.csrf)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(lengths.0)\r\nContent-Length: \(lengths.1)\r\n\r\n"
            #expect(connection.send(head + body))
            let answer = try connection.readResponse(until: soon())
            #expect(answer.status == 400, "\(lengths): \(answer.status) \(answer.text)")
            #expect(answer.text.contains("Content-Length"), "\(answer.text)")
            #expect(connection.waitClosed(until: soon()), "\(lengths): the connection is closed")
        }
        #expect(web.state("smug") == nil, "nothing was started by a request in a body")
        let listed = try web.request("GET", "/api/timers")
        #expect(WebKitchen.state(of: "smug", in: WebKitchen.json(listed)) == nil, "\(listed.text)")

        let same = try HTTPTestConnection(port: web.port)
        #expect(
            same.send(
                "POST /api/ack-all HTTP/1.1\r\nHost: \(web.host)\r\nCookie: \(web.cookie)\r\n"
                    + "X-CSRF-Token: \(web.csrf)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
        let answered = try same.readResponse(until: soon())
        #expect(answered.status == 200, "two equal fields are one length: \(answered.status) \(answered.text)")
    }
}
