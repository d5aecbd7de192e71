import Glibc
import HouseBus
import TestSupport
import Testing

@testable import KitchenWeb
@testable import eggtimer

/// Issue 43 end to end: the phone's STOP gets through a real kitchen's HTTP API whatever others
/// send: junk cookies from the household's address.
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
}
