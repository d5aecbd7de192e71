import HouseBus
import SystemKit
import Testing
import TextCoding
import TimerModel

@testable import KitchenWeb

/// Issue 43, a bounded picture: one house timer's row in the picture's JSON has a largest size,
/// computed here from its parts at their largest, and a `silent` reason from MQTT is cut short.
@Suite struct PictureRowBytesTests {
    /// Labels of 64 bytes by the label rule, in 1-, 2-, 3- and 4-byte characters, with a
    /// combining mark and the marks the rule allows.
    static let longLabels = [
        String(repeating: "a", count: 64), String(repeating: "é", count: 32),
        String(repeating: "e\u{301}", count: 21) + "a", String(repeating: "語", count: 21) + "a",
        String(repeating: "𐐀", count: 16), "roast beef's-soft_x.y:z+" + String(repeating: "b", count: 40),
    ]

    /// `silent` reasons: at the limit, past it, in characters that JSON escapes in two bytes or
    /// six (a control character, U+2028), and in multi-byte characters across the cut; each fits
    /// a state's 4096 bytes.
    static let reasons = [
        String(repeating: "\"", count: WebTimer.silentLimit), String(repeating: "\"", count: 1500),
        String(repeating: "\\", count: 1500), String(repeating: "\u{1}", count: 600),
        String(repeating: "\u{2028}", count: 600), String(repeating: "x", count: 127) + "語",
        "cannot open audio device 'hw:0': No such file or directory",
    ]

    /// The largest numbers and deadline a state's parser takes.
    static func worstPayload(state: String, label: String, silent: String?) throws -> TimerStatePayload {
        let latest = try #require(UTCTimestamp.unixMilliseconds("9999-12-31T23:59:59.999Z"))
        let seconds = TimerStatePayload.secondsLimit - 0.001
        return TimerStatePayload(
            state: state, label: label, node: String(repeating: "n", count: LabelRule.limit),
            durationSeconds: seconds, remainingSeconds: seconds, deadlineUnixMilliseconds: latest, silent: silent)
    }

    @Test func theLargestHouseRowIsTheDocumentedBytes() throws {
        var largest = 0
        for state in KitchenAPI.stateWords where state != "menu" {
            for label in Self.longLabels {
                #expect(LabelRule.isValid(label) && label.utf8.count == LabelRule.limit, "\(label)")
                for silent in Self.reasons + [nil] {
                    let payload = try Self.worstPayload(state: state, label: label, silent: silent)
                    // Through the state's own text, as the broker hands it over.
                    let parsed = try #require(TimerStatePayload.parse(payload.json()))
                    let timer = try #require(KitchenAPI.timer(parsed))
                    largest = max(largest, KitchenAPI.json(timer).count)
                }
            }
        }
        #expect(largest == KitchenAPI.houseRowBytes)
    }

    @Test(arguments: reasons)
    func aSilentReasonIsCutToItsLimitWithoutControlCharacters(reason: String) throws {
        let short = try #require(KitchenAPI.shortReason(reason))
        #expect(short.utf8.count <= WebTimer.silentLimit)
        #expect(!short.containsControlCharacters)
        if reason.utf8.count <= WebTimer.silentLimit {
            #expect(short == reason.controlCharactersAsSpaces)
        } else {
            #expect(short.hasSuffix("\u{2026}"))
            #expect(reason.controlCharactersAsSpaces.hasPrefix(short.dropLast()))
        }
    }

    @Test func aHouseTimersSilentReasonIsCutAsItComesFromMQTT() throws {
        let payload = try Self.worstPayload(
            state: "silent", label: "bread", silent: String(repeating: "x", count: 3500))
        let parsed = try #require(TimerStatePayload.parse(payload.json()))
        let timer = try #require(KitchenAPI.timer(parsed))
        #expect(timer.silentReason == String(repeating: "x", count: WebTimer.silentLimit - 3) + "\u{2026}")
        #expect(KitchenAPI.shortReason(nil) == nil)
    }
}
