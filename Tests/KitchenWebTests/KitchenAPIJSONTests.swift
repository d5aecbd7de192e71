import ControlChannel
import HouseBus
import SystemKit
import Testing
import TextCoding
import TimerCore
import TimerModel

@testable import KitchenWeb

/// The JSON of the kitchen's HTTP API (issue 29): the picture, one timer's object, errors, and
/// the states pinned to the shared vocabulary.
@Suite struct KitchenAPIJSONTests {
    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theStatesAreTheSharedVocabularyInItsOrder() {
        #expect(
            KitchenAPI.stateWords == [
                "menu", "counting", "paused", "ringing", "silent", "snoozed", "done", "cancelled", "missed",
            ])
        #expect(KitchenAPI.stateWords == TimerState.allCases.map(\.rawValue))
    }

    static let soft = TimerStatus(
        label: "Soft", pid: 42, state: .counting, remaining: .milliseconds(312_500),
        deadlineUnixMilliseconds: 1_796_150_400_000, total: .seconds(360), kind: .egg("Soft"))

    @Test func aLocalEggIsTheSpecsObject() {
        let timer = KitchenAPI.timer(Self.soft, node: "kitchen-pi")
        #expect(
            Self.text(KitchenAPI.json(timer))
                == #"{"node":"kitchen-pi","label":"Soft","state":"counting","remaining_s":312.5,"duration_s":360,"#
                + #""deadline":"2026-12-01T18:40:00.000Z","kind":"egg","preset":"Soft","phase":null,"device":"ok","#
                + #""silent":null,"local":true}"#)
    }

    @Test(arguments: [
        (TimerSnapshot.Kind.plain, #""kind":"plain","preset":null,"phase":null"#),
        (.alarm, #""kind":"alarm","preset":null,"phase":null"#),
        (.pomodoro(phase: "short break"), #""kind":"pomodoro","preset":null,"phase":"short break""#),
    ])
    func eachKindSaysItsWords(kind: TimerSnapshot.Kind, members: String) {
        var status = Self.soft
        status.kind = kind
        #expect(Self.text(KitchenAPI.json(KitchenAPI.timer(status, node: "n"))).contains(members))
    }

    @Test func anOlderTimerHasNullsAndAPausedOneNoDeadline() {
        let status = TimerStatus(
            label: "tea", pid: 7, state: .paused, remaining: .nanoseconds(1_999_999), deadlineUnixMilliseconds: nil)
        #expect(
            Self.text(KitchenAPI.json(KitchenAPI.timer(status, node: "n")))
                == #"{"node":"n","label":"tea","state":"paused","remaining_s":0.001,"duration_s":null,"deadline":null,"#
                + #""kind":null,"preset":null,"phase":null,"device":"ok","silent":null,"local":true}"#)
    }

    @Test func aSilentAlarmSaysItsDeviceIsDown() {
        var status = Self.soft
        (status.state, status.deviceDown) = (.silent, true)
        #expect(Self.text(KitchenAPI.json(KitchenAPI.timer(status, node: "n"))).contains(#""device":"down""#))
    }

    /// Issue 37: why the alarm reaches no device travels from the timer's status line and from a
    /// house timer's MQTT state, while it runs and once it is over unheard.
    @Test(arguments: [
        (TimerState.counting, "cannot open audio device 'hw:0': No such file or directory"),
        (.silent, "lost audio device 'x': Input/output error"),
        (.done, "cannot open audio device 'hw:0': No such file or directory"),
    ])
    func aSilentAlarmSaysWhyFromTheStatusLineAndFromMQTT(state: TimerState, reason: String) throws {
        var status = Self.soft
        (status.state, status.deviceDown, status.silentReason) = (state, true, reason)
        let line = try #require(TimerStatus(line: status.line))
        let local = Self.text(KitchenAPI.json(KitchenAPI.timer(line, node: "n")))
        #expect(
            local.contains(#""device":"down","silent":"# + JSONText.quoted(reason) + #","local":true}"#), "\(local)")
        let payload = TimerStatePayload(
            state: state.rawValue, label: "Soft", node: "attic", durationSeconds: 360, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil, silent: reason)
        let parsed = try #require(TimerStatePayload.parse(payload.json()))
        let house = try #require(KitchenAPI.timer(parsed))
        let json = Self.text(KitchenAPI.json(house))
        #expect(json.contains(#""device":"down","silent":"# + JSONText.quoted(reason) + #","local":false}"#), "\(json)")
    }

    /// Issue 37: ack-all's answer names the timers stopped and the silent ones, with the page's message.
    @Test func ackAllNamesWhatItStoppedAndWhichWereSilent() {
        let message = "Soft and Pasta stopped; Pasta never reached its speaker"
        #expect(
            Self.text(KitchenAPI.acknowledged(3, stopped: ["Soft", "Pasta"], silent: ["Pasta"], message: message))
                == #"{"acknowledged":3,"stopped":["Soft","Pasta"],"silent":["Pasta"],"#
                + #""message":"Soft and Pasta stopped; Pasta never reached its speaker"}"#)
        #expect(
            Self.text(KitchenAPI.acknowledged(0, stopped: [], silent: [], message: nil))
                == #"{"acknowledged":0,"stopped":[],"silent":[],"message":null}"#)
    }

    @Test func namesAreDataNeverMarkup() {
        let payload = TimerStatePayload(
            state: "ringing", label: "<script>\"x\"</script>\u{2028}", node: "a\\b\n", durationSeconds: 60,
            remainingSeconds: 0, deadlineUnixMilliseconds: nil)
        let timer = try? #require(KitchenAPI.timer(payload))
        let json = Self.text(KitchenAPI.json(timer!))
        #expect(json.contains(#""label":"<script>\"x\"</script>\u2028""#))
        #expect(json.contains(#""node":"a\\b\n""#))
        #expect(json.hasSuffix(#""local":false}"#))
        #expect(JSONValue.parse(Array(json.utf8), byteLimit: 4096)?["label"]?.stringValue == payload.label)
    }

    @Test(arguments: ["offline", "stale", "menu", "Ringing"])
    func aHouseStateOutsideTheVocabularyIsLeftOut(word: String) {
        let payload = TimerStatePayload(
            state: word, label: "x", node: "n", durationSeconds: 1, remainingSeconds: 1, deadlineUnixMilliseconds: nil)
        #expect(KitchenAPI.timer(payload) == nil)
    }

    @Test func theHousesNumbersAreClampedBeforeArithmetic() throws {
        let payload = TimerStatePayload(
            state: "counting", label: "x", node: "n", durationSeconds: TimerStatePayload.secondsLimit,
            remainingSeconds: -5, deadlineUnixMilliseconds: nil)
        let timer = try #require(KitchenAPI.timer(payload))
        #expect(timer.remaining == .zero)
        #expect(timer.total == .seconds(Int64(TimerStatePayload.secondsLimit)))
    }

    @Test func thePictureListsThisBoxFirstThenTheHouseEachSorted() {
        func timer(_ node: String, _ label: String, local: Bool) -> WebTimer {
            WebTimer(
                node: node, label: label, state: .counting, remaining: .seconds(1), total: nil,
                deadlineUnixMilliseconds: nil, kind: nil, deviceDown: false, isLocal: local)
        }
        let picture = KitchenAPI.picture(
            node: "kitchen-pi", presets: Preset.eggs,
            local: [timer("kitchen-pi", "tea", local: true), timer("kitchen-pi", "Soft", local: true)],
            house: [
                timer("zz", "a", local: false), timer("attic", "b", local: false), timer("attic", "a", local: false),
            ])
        #expect(
            picture.timers.map { "\($0.node)/\($0.label)" } == [
                "kitchen-pi/Soft", "kitchen-pi/tea", "attic/a", "attic/b", "zz/a",
            ])
        let json = Self.text(KitchenAPI.json(WebPicture(node: "kitchen-pi", presets: picture.presets, timers: [])))
        #expect(
            json
                == #"{"node":"kitchen-pi","states":["menu","counting","paused","ringing","silent","snoozed","done","#
                + #""cancelled","missed"],"presets":[{"name":"Soft","seconds":300},{"name":"Medium","seconds":420},"#
                + #"{"name":"Hard","seconds":720}],"timers":[]}"#)
    }

    @Test func anErrorIsOneJSONMemberWithTheAPIHeaders() {
        let response = KitchenAPI.error(409, "pasta: a timer with this label is running (pid 4)")
        #expect(response.status == 409)
        #expect(Self.text(response.body) == #"{"error":"pasta: a timer with this label is running (pid 4)"}"#)
        for header in [
            "Content-Type: application/json", "Cache-Control: no-store", "X-Content-Type-Options: nosniff",
            "Referrer-Policy: no-referrer",
        ] {
            #expect(response.headers.map { "\($0.name): \($0.value)" }.contains(header))
        }
    }
}
