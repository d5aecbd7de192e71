import HouseBus
import Testing

@Suite struct TimerStatePayloadTests {
    static let counting = TimerStatePayload(
        state: "counting", label: "eggs", node: "kitchen", durationSeconds: 360, remainingSeconds: 299.5,
        deadlineUnixMilliseconds: 1_796_036_523_123)

    @Test func jsonHasTheDocumentedKeysAndAUTCDeadline() {
        let text = String(decoding: Self.counting.json(), as: UTF8.self)
        #expect(
            text == "{\"state\":\"counting\",\"label\":\"eggs\",\"node\":\"kitchen\",\"duration_s\":360,"
                + "\"remaining_s\":299.5,\"deadline\":\"2026-11-30T11:02:03.123Z\"}")
    }

    @Test(arguments: [
        counting,
        TimerStatePayload(
            state: "paused", label: "tea", node: "garden", durationSeconds: 180, remainingSeconds: 12.25,
            deadlineUnixMilliseconds: nil),
        TimerStatePayload(
            state: "ringing", label: "quote\"back\\slash", node: "new\nline\u{1}tab\t", durationSeconds: 0.001,
            remainingSeconds: 0, deadlineUnixMilliseconds: 0),
        TimerStatePayload(
            state: "done", label: "caf\u{E9} \u{1F95A}", node: "k\u{7F}", durationSeconds: 86_400,
            remainingSeconds: 0, deadlineUnixMilliseconds: 951_782_400_000),  // 2000-02-29
    ])
    func payloadsRoundTrip(payload: TimerStatePayload) {
        #expect(TimerStatePayload.parse(payload.json()) == payload)
    }

    @Test func controlCharactersAreEscaped() {
        let payload = TimerStatePayload(
            state: "done", label: "a\"b\\c\nd\u{1}", node: "n", durationSeconds: 1, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        let text = String(decoding: payload.json(), as: UTF8.self)
        #expect(text.contains(#""label":"a\"b\\c\nd\u0001""#))
        #expect(!payload.json().contains { $0 < 0x20 })
    }

    @Test func secondsAreRoundedToMilliseconds() throws {
        let payload = TimerStatePayload(
            state: "counting", label: "l", node: "n", durationSeconds: 10, remainingSeconds: 9.876_54,
            deadlineUnixMilliseconds: nil)
        #expect(try #require(TimerStatePayload.parse(payload.json())).remainingSeconds == 9.877)
    }

    @Test(arguments: [
        "", "null", "[]", "{", "{\"state\":\"counting\"}", "not json",
        #"{"state":"counting","label":"l","node":"n","duration_s":"60","remaining_s":1,"deadline":null}"#,
        #"{"state":"counting","label":"l","node":"n","duration_s":60,"remaining_s":1,"deadline":"tomorrow"}"#,
        #"{"state":"counting","label":"l","node":"n","duration_s":60,"remaining_s":1,"deadline":"2026-02-30T00:00:00Z"}"#,
        #"{"state":"counting","label":"l","node":"n","duration_s":60,"remaining_s":1,"deadline":5}"#,
        #"{"state":"counting","label":"l","node":"n","duration_s":60,"remaining_s":1} trailing"#,
        #"{"state":"counting","label":"l","node":"n","duration_s":01,"remaining_s":1}"#,
        #"{"state":"counting","label":"\ud800","node":"n","duration_s":1,"remaining_s":1}"#,
    ])
    func malformedPayloadsAreRefused(text: String) {
        #expect(TimerStatePayload.parse(Array(text.utf8)) == nil)
    }

    /// Boundary numbers in `duration_s` and `remaining_s`: beyond ±1e10 s the state is refused
    /// (a `remaining_s` of 1e300 once trapped `status --mqtt` turning it into milliseconds).
    @Test(arguments: [
        "1e300", "-1e300", "1e10000000000", "9223372036854775807", "-9223372036854775808", "1.7976931348623157e308",
        "-1.7976931348623157e308", "10000000001", "-10000000001",
    ])
    func outOfRangeSecondsAreRefused(number: String) {
        for key in ["duration_s", "remaining_s"] {
            let other = key == "duration_s" ? "remaining_s" : "duration_s"
            let text =
                #"{"state":"paused","label":"l","node":"n",""# + key + #"":"# + number + #",""# + other
                + #"":1,"deadline":null}"#
            #expect(TimerStatePayload.parse(Array(text.utf8)) == nil, "\(key)=\(number)")
        }
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", 0.0), ("1e-300", 1e-300), ("1e10", 1e10), ("-1e10", -1e10), ("2147483648", 2_147_483_648),
        ("-4.9e-324", -4.9e-324), ("-1", -1),
    ])
    func inRangeSecondsAreTaken(number: String, seconds: Double) throws {
        let text = #"{"state":"paused","label":"l","node":"n","duration_s":1,"remaining_s":"# + number + "}"
        #expect(try #require(TimerStatePayload.parse(Array(text.utf8))).remainingSeconds == seconds)
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "nan", "0x10", "+1", ".5", "1.", "01"])
    func numbersJSONDoesNotHaveAreRefused(number: String) {
        let text = #"{"state":"paused","label":"l","node":"n","duration_s":1,"remaining_s":"# + number + "}"
        #expect(TimerStatePayload.parse(Array(text.utf8)) == nil)
    }

    @Test func extraKeysAndAMissingDeadlineAreTolerated() throws {
        let text =
            #" {"extra":{"a":[1,2,{"b":null}]},"state":"silent","label":"l","node":"n","duration_s":6e1,"remaining_s":-0.5} "#
        let payload = try #require(TimerStatePayload.parse(Array(text.utf8)))
        #expect(payload.state == "silent" && payload.durationSeconds == 60 && payload.deadlineUnixMilliseconds == nil)
    }

    @Test func oversizedPayloadsAreRefused() {
        let base = Self.counting.json()
        let padding = Array(",\"pad\":\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 4096) + Array("\"}".utf8)
        let oversized = Array(base.dropLast()) + padding
        #expect(oversized.count > TimerStatePayload.byteLimit)
        #expect(TimerStatePayload.parse(oversized) == nil)
        let justFits =
            Array(base.dropLast()) + Array(",\"pad\":\"".utf8)
            + Array(repeating: UInt8(ascii: "x"), count: TimerStatePayload.byteLimit - base.count - 9)
            + Array("\"}".utf8)
        #expect(justFits.count == TimerStatePayload.byteLimit)
        #expect(TimerStatePayload.parse(justFits) == Self.counting)
    }

    @Test func deeplyNestedJSONIsRefused() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100) + Array(repeating: UInt8(ascii: "]"), count: 100)
        #expect(JSONValue.parse(deep) == nil)
        #expect(JSONValue.parse(Array("[[[1]]]".utf8)) == .array([.array([.array([.number(1)])])]))
    }

    @Test func unicodeEscapesAndSurrogatePairsDecode() {
        #expect(JSONValue.parse(Array(#""\u00e9\ud83e\udd5a\/""#.utf8)) == .string("\u{E9}\u{1F95A}/"))
        #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil)  // invalid UTF-8
    }
}

/// A retained state not refreshed within three of its promised intervals is stale (issue 20).
///
/// Judged on the reader's clock only while it is synchronised. Every instant here is given, none read.
@Suite struct StaleStateTests {
    /// Published 2026-11-30T11:00:00Z with a 60 s interval: stale after 11:03:00.000.
    static let published: Int64 = 1_796_036_400_000
    static let ringing = TimerStatePayload(
        state: "ringing", label: "tea", node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
        deadlineUnixMilliseconds: nil, instance: "00ff00ff00ff00ff", publishedUnixMilliseconds: published,
        publisherClockSynchronised: true, intervalSeconds: 60)

    @Test func theNewFieldsAreWrittenAndReadBack() throws {
        let text = String(decoding: Self.ringing.json(), as: UTF8.self)
        #expect(
            text.hasSuffix(
                #","instance":"00ff00ff00ff00ff","published":"2026-11-30T11:00:00.000Z","clock_synced":true,"interval_s":60}"#
            ), "\(text)")
        #expect(TimerStatePayload.parse(Self.ringing.json()) == Self.ringing)
        var final = Self.ringing
        final.state = "done"
        final.intervalSeconds = nil
        #expect(String(decoding: final.json(), as: UTF8.self).hasSuffix(#""interval_s":null}"#))
        #expect(TimerStatePayload.parse(final.json()) == final)
    }

    @Test(arguments: [
        #"{"state":"ringing","label":"l","node":"n","duration_s":1,"remaining_s":0,"published":"yesterday"}"#,
        #"{"state":"ringing","label":"l","node":"n","duration_s":1,"remaining_s":0,"published":5}"#,
        #"{"state":"ringing","label":"l","node":"n","duration_s":1,"remaining_s":0,"clock_synced":"yes"}"#,
        #"{"state":"ringing","label":"l","node":"n","duration_s":1,"remaining_s":0,"interval_s":"60"}"#,
        #"{"state":"ringing","label":"l","node":"n","duration_s":1,"remaining_s":0,"instance":7}"#,
    ])
    func mistypedNewFieldsAreRefused(text: String) {
        #expect(TimerStatePayload.parse(Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        (0 as Int64, true, false),
        (179_999, true, false),
        (180_000, true, false),  // exactly three intervals: not yet
        (180_001, true, true),
        (86_400_000, true, true),
        (180_001, false, false),  // the reader's clock is not synchronised: published is not trusted
        (-3_600_000, true, false),  // published ahead of the reader's clock
    ])
    func aStateIsStaleAfterThreeIntervalsOnASynchronisedClock(after: Int64, synchronised: Bool, stale: Bool) {
        #expect(
            Self.ringing.isStale(atUnixMilliseconds: Self.published + after, clockSynchronised: synchronised) == stale)
    }

    @Test(arguments: [
        (nil, true, Double?.some(60)),  // no published
        (published, false, 60),  // the publisher's clock was not synchronised
        (published, true, nil),  // no interval promised (a final state, an older eggtimer)
        (published, true, 0),
        (published, true, -60),
        (published, true, .infinity),
        (published, true, .nan),
        (published, true, 86_401),  // longer than a day: not believed
    ])
    func aStateThatCannotSayIsNeverStale(published: Int64?, publisherSynchronised: Bool, interval: Double?) {
        var state = Self.ringing
        state.publishedUnixMilliseconds = published
        state.publisherClockSynchronised = publisherSynchronised
        state.intervalSeconds = interval
        #expect(state.staleAfterUnixMilliseconds == nil)
        #expect(!state.isStale(atUnixMilliseconds: Int64.max, clockSynchronised: true))
    }

    @Test func theLimitOfALongIntervalIsThreeOfThem() {
        var state = Self.ringing
        state.intervalSeconds = 86_400
        #expect(state.staleAfterUnixMilliseconds == Self.published + 259_200_000)
    }
}
