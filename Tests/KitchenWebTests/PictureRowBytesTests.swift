import HouseBus
import SystemKit
import Testing
import TextCoding
import TimerModel

@testable import KitchenWeb

/// Issue 43, a bounded picture: one house timer's row in the picture's JSON has a largest size,
/// computed here from its parts at their largest, and a `silent` reason from MQTT is cut short.
@Suite struct PictureRowBytesTests {
    /// Names of 64 bytes a house timer's node or label may be (`KitchenAPI.canShow(houseName:)`):
    /// first those JSON writes in twice their bytes, the worst (`"`, `\`, U+2028, U+2029, mixed),
    /// then markup (written as it is), letters of 1 to 4 bytes and a combining mark.
    static let longNames = [
        String(repeating: "\"", count: 64), String(repeating: "\\", count: 64),
        String(repeating: "\u{2028}", count: 21) + "\"", String(repeating: "\u{2029}", count: 21) + "\\",
        String(repeating: "\"\\\u{2028}", count: 12) + "\"\\\"\\",
        String(repeating: "<b id=\"x\">&amp;</b>", count: 3) + "<br />'", String(repeating: "a", count: 64),
        String(repeating: "é", count: 32), String(repeating: "e\u{301}", count: 21) + "a",
        String(repeating: "語", count: 21) + "a", String(repeating: "𐐀", count: 16),
    ]

    /// The bytes JSON writes `name` in, quotes left out.
    static func escapedBytes(_ name: String) -> Int { JSONText.quoted(name).utf8.count - 2 }

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
    static func worstPayload(
        state: String, node: String = String(repeating: "n", count: LabelRule.limit), label: String, silent: String?
    ) throws -> TimerStatePayload {
        let latest = try #require(UTCTimestamp.unixMilliseconds("9999-12-31T23:59:59.999Z"))
        let seconds = TimerStatePayload.secondsLimit - 0.001
        return TimerStatePayload(
            state: state, label: label, node: node, durationSeconds: seconds, remainingSeconds: seconds,
            deadlineUnixMilliseconds: latest, silent: silent)
    }

    @Test func theWorstNamesAreWrittenInTwiceTheirBytes() {
        for name in Self.longNames {
            #expect(KitchenAPI.canShow(houseName: name) && name.utf8.count == LabelRule.limit, "\(name)")
        }
        #expect(Self.longNames.prefix(5).allSatisfy { Self.escapedBytes($0) == 2 * LabelRule.limit })
        #expect(Self.longNames.allSatisfy { Self.escapedBytes($0) <= 2 * LabelRule.limit })
    }

    /// The bytes of one house timer's object made from a state with the largest numbers, through
    /// the state's own text, as the broker hands it over.
    static func rowBytes(state: String, node: String, label: String, silent: String?) throws -> Int {
        let payload = try worstPayload(state: state, node: node, label: label, silent: silent)
        let parsed = try #require(TimerStatePayload.parse(payload.json()))
        return KitchenAPI.json(try #require(KitchenAPI.timer(parsed))).count
    }

    @Test func theLargestHouseRowIsTheDocumentedBytes() throws {
        var largest = 0
        // Every node with every label, and every state and reason with the worst names.
        for node in Self.longNames {
            for label in Self.longNames {
                let silent = Self.reasons[0]
                largest = max(largest, try Self.rowBytes(state: "cancelled", node: node, label: label, silent: silent))
            }
        }
        for state in KitchenAPI.stateWords where state != "menu" {
            for silent in Self.reasons + [nil] {
                let (node, label) = (Self.longNames[0], Self.longNames[1])
                largest = max(largest, try Self.rowBytes(state: state, node: node, label: label, silent: silent))
            }
        }
        #expect(largest == KitchenAPI.houseRowBytes)
    }

    /// Names a house timer may have: any text of 1 to 64 bytes without a control character,
    /// whatever the label rule says of it.
    @Test(arguments: [
        "<b id=\"bold\">tea</b><img src=x id=\"injected\">", "<i>attic</i>", "say \"hi\"", "C:\\eggs", "a/b",
        "two  words ", "-attic", ".", "%41", "+#", "Küche 🍳", "\u{2028}", String(repeating: "\"", count: 64),
    ])
    func aHouseNameWithMarkupQuotesOrAnyScriptCanBeShown(name: String) {
        #expect(KitchenAPI.canShow(houseName: name))
    }

    /// Names a house timer may not have: empty, over 64 bytes, or with a control character of
    /// C0, DEL or C1 anywhere.
    @Test(arguments: [
        "", String(repeating: "x", count: 65), String(repeating: "é", count: 32) + "x", "tea\u{0}", "\u{1}tea",
        "te\na", "te\ta", "tea\u{7F}", "tea\u{85}", "tea\u{9B}2J", "tea\u{9F}",
    ])
    func aHouseNameThatIsEmptyTooLongOrHoldsAControlCharacterCannotBeShown(name: String) {
        #expect(!KitchenAPI.canShow(houseName: name))
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
