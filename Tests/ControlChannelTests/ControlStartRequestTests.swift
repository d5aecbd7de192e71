import ControlChannel
import Testing

/// The kitchen's `start` request (protocol version 3, issue 26): its text carried as one word,
/// never parsed here, and refused when it could not be one line of a start request.
@Suite struct ControlStartRequestTests {
    @Test(arguments: ["soft", "450s pasta", "7m --on-done x", String(repeating: "a", count: 160)])
    func aStartRequestRoundTripsUnderVersionThree(text: String) {
        let line = ControlRequest.start(text).line
        #expect(line == "eggtimer/3\tstart\t" + text)
        #expect(ControlRequest(line: line) == .start(text))
    }

    @Test(arguments: [
        "eggtimer/3\tstart", "eggtimer/3\tstart\t", "eggtimer/2\tstart\tsoft", "eggtimer/1\tstart\tsoft",
        "eggtimer/3\tstart\tsoft\textra", "eggtimer/3\tSTART\tsoft", "eggtimer/3\tstart\tso\u{1}ft",
        "eggtimer/3\tstart\tsoft\u{7F}", "eggtimer/3\tstart\t" + String(repeating: "a", count: 161),
        // Version 3 has only `start`, `pair` and `unpair`: the other verbs stay under their own versions.
        "eggtimer/3\tstatus", "eggtimer/3\tack", "eggtimer/3\twatch",
    ])
    func aMalformedStartRequestIsNoRequest(line: String) {
        #expect(ControlRequest(line: line) == nil)
    }

    @Test func pairAndUnpairAreVersionThreeVerbsWithoutArguments() {
        #expect(ControlRequest.pair.line == "eggtimer/3\tpair")
        #expect(ControlRequest.unpair.line == "eggtimer/3\tunpair")
        #expect(ControlRequest(line: "eggtimer/3\tpair") == .pair)
        #expect(ControlRequest(line: "eggtimer/3\tunpair") == .unpair)
        for line in [
            "eggtimer/2\tpair", "eggtimer/1\tunpair", "eggtimer/3\tpair\t123456", "eggtimer/3\tPAIR",
            "eggtimer/3\tunpair\t", "eggtimer/3\tpair ",
        ] {
            #expect(ControlRequest(line: line) == nil, "\(line)")
        }
    }
}
