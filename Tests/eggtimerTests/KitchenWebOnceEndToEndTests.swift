import Glibc
import TestSupport
import Testing

/// Issue 42 over the real HTTP API: a start acts once per `Idempotency-Key` (or the page form's
/// `id`), and a client that half-closes its connection is answered or not acted on.
@Suite struct KitchenWebOnceEndToEndTests {

    @Test func aStartRepeatedWithOneIdempotencyKeyGivesOneTimerAndTheFirstAnswer() throws {
        let web = try WebKitchen()
        try web.pair()
        let key = [HTTPTestField("Idempotency-Key", "page-0123abcd")]
        let first = try web.request("POST", "/api/timers", json: #"{"start":"10m","label":"tea"}"#, headers: key)
        let again = try web.request("POST", "/api/timers", json: #"{"start":"10m","label":"tea"}"#, headers: key)
        #expect(first.status == 201, "\(first.text)")
        #expect(again.status == first.status && again.text == first.text, "\(again.text)")
        #expect(web.house.runningLabels() == ["tea"])
        // The same key for another start starts nothing.
        let other = try web.request("POST", "/api/timers", json: #"{"start":"11m","label":"tea"}"#, headers: key)
        #expect(other.status == 409 && other.text.contains("was given to another start"), "\(other.text)")
        let bad = try web.request(
            "POST", "/api/timers", json: #"{"start":"10m","label":"rice"}"#,
            headers: [HTTPTestField("Idempotency-Key", "a b")])
        #expect(bad.status == 400 && bad.text.contains("Idempotency-Key 'a b': give 1 to 64 letters"), "\(bad.text)")
        // Two ids: either could be the one a retry sends. Two header fields are refused by the
        // one rule for single fields (issue 43), one value twice too.
        for keys in [["k9", "k10"], ["k9", "k9"]] {
            let two = try web.request(
                "POST", "/api/timers", json: #"{"start":"10m","label":"rice"}"#,
                headers: keys.map { HTTPTestField("Idempotency-Key", $0) })
            #expect(two.status == 400 && two.text.contains("more than one Idempotency-Key header field"), "\(two.text)")
        }
        let mixed = try web.request(
            "POST", "/api/timers", json: #"{"start":"10m","label":"rice","id":"k8"}"#,
            headers: [HTTPTestField("Idempotency-Key", "k7")])
        #expect(mixed.status == 400 && mixed.text.contains("two different request ids"), "\(mixed.text)")
        #expect(web.house.runningLabels() == ["tea"])
    }

    /// The page without JavaScript: its start forms carry a fresh id, so the same form sent
    /// again (a reload after a failure) is one start; a new page is a new id.
    @Test func thePagesFormCarriesAnIdSoThatItsRepeatIsOneStart() throws {
        let web = try WebKitchen()
        try web.pair()
        let page = try web.request("GET", "/")
        let field = #"<input type="hidden" name="id" value=""#
        let ids = page.text.split(separator: field).dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(ids.count == 2 && ids[0].count == 32 && ids[0] == ids[1], "\(ids)")
        let form = "csrf=\(web.csrf)&id=\(ids[0])&start=soft"
        let first = try web.request("POST", "/api/timers", form: form, withCSRF: false)
        let again = try web.request("POST", "/api/timers", form: form, withCSRF: false)
        #expect(first.status == 303 && again.status == 303, "\(first.status) \(again.status)")
        #expect(web.house.runningLabels() == ["Soft"], "not Soft and Soft-2")
        let next = try web.request("GET", "/")
        #expect(!next.text.contains(ids[0]), "a new page, a new id")
    }

    /// A client that sends its POST and shuts its side for writing (as `nc -N` does) is
    /// answered, or its start is not acted on: never a timer nobody is told of.
    @Test func aHalfClosedStartIsAnsweredOrNotActedOn() throws {
        let web = try WebKitchen()
        try web.pair()
        let connection = try HTTPTestConnection(port: web.port)
        let body = Array(#"{"start":"10m","label":"tea"}"#.utf8)
        try connection.sendRequest(
            method: "POST", path: "/api/timers",
            headers: [
                HTTPTestField("Cookie", web.cookie), HTTPTestField("X-CSRF-Token", web.csrf),
                HTTPTestField("Content-Type", "application/json"),
            ], body: body)
        #expect(shutdown(connection.descriptor, Int32(SHUT_WR)) == 0)
        let answer = try? connection.readResponse(until: .now + .seconds(15))
        // Something after it, to wait on: a start the kitchen answers.
        try web.startTimer("rice", seconds: 600)
        if let answer {
            #expect(answer.status == 201, "\(answer.text)")
            #expect(web.house.runningLabels() == ["rice", "tea"])
        } else {
            #expect(web.house.runningLabels() == ["rice"], "a timer nobody was told of")
        }
    }
}
