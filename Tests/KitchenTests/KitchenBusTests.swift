import ControlChannel
import HouseBus
import HouseLink
import TestSupport
import Testing
import TextCoding
import TimerEngine
import TimerModel
import TimerText

@testable import Kitchen

/// The kitchen's MQTT side as a pure reducer (issue 26): broker reports in, starts, messages and
/// log lines out, with no broker and no client.
@Suite struct KitchenBusTests {
    static let node = NodeTopics(prefix: "eggtimer", node: "kitchen")
    static let presets = ["Soft", "Medium", "Hard"]

    /// A reducer that holds the node's starts: alone on the broker, its claim came back.
    func fresh() -> KitchenBus {
        var bus = KitchenBus(topics: Self.node, presets: Self.presets, instance: "a1")
        _ = bus.handle(.connected)
        _ = bus.handle(.message(topic: bus.probe, payload: Array("probe".utf8)))
        _ = bus.handle(.message(topic: "eggtimer/kitchen/kitchen/instance", payload: Array("a1".utf8)))
        return bus
    }

    /// The log line and the result of a start `event` that starts nothing, the line checked to
    /// name the start topic and `fragment`.
    /// - Throws: When the effects are not exactly a log line, a result and a `refused` event
    ///   (issue 45) with the result's reason and id.
    private func refused(_ event: BusEvent, fragment: String) throws -> (String, BusMessage) {
        var bus = fresh()
        let effects = bus.handle(event)
        try #require(effects.count == 3)
        guard case .log(let line) = effects[0], case .publish(let result) = effects[1],
            case .publish(let fired) = effects[2]
        else {
            throw TestFailure("not a log line, a result and an event: \(effects)")
        }
        let answer = try #require(JSONValue.parse(result.payload))
        let json = try #require(JSONValue.parse(fired.payload))
        #expect(fired.topic == "eggtimer/kitchen/kitchen/event" && !fired.retain)
        #expect(json["event_type"] == .string("refused"))
        #expect(json["reason"] == answer["text"] && json["request_id"] == answer["id"])
        #expect(line.hasPrefix("ignored MQTT start on eggtimer/kitchen/start: "))
        #expect(line.contains(fragment), "\(line)")
        return (line, result)
    }

    /// A start message (not retained unless said) on the node's start topic.
    static func start(_ payload: [UInt8], retained: Bool = false) -> BusEvent {
        .message(topic: "eggtimer/kitchen/start", payload: payload, retained: retained)
    }

    static func start(_ text: String, retained: Bool = false) -> BusEvent {
        start(Array(text.utf8), retained: retained)
    }

    @Test func itSubscribesThenPublishesItsEntitiesRetainedAndOnlineOnlyOnceItHoldsTheStarts() {
        let effects = KitchenBus(topics: Self.node, presets: Self.presets, instance: "a1").start()
        let configs = HomeAssistantDiscovery.kitchenConfigs(
            for: Self.node, presets: Self.presets,
            text: HomeAssistantDiscovery.StartText(limit: 160, pattern: StartRequest.pattern))
        #expect(
            effects
                == [
                    .subscribe("eggtimer/kitchen/start"), .subscribe("eggtimer/kitchen/kitchen/availability"),
                    .subscribe("eggtimer/kitchen/kitchen/instance"), .subscribe("eggtimer/kitchen/+/state"),
                    .subscribe("eggtimer/kitchen/+/availability"), .subscribe("eggtimer/kitchen/ringing"),
                    .subscribe("eggtimer/probe/a1"),
                ] + configs.map(KitchenBusEffect.publish)
                + HomeAssistantDiscovery.kitchenSummaryConfigs(for: Self.node).map(KitchenBusEffect.publish)
                + [.publish(KitchenBus.eventConfig(Self.node))]
                + HomeAssistantDiscovery.nodeConfigs(for: Self.node).map(KitchenBusEffect.publish))
        #expect(configs.map(\.topic).last == "homeassistant/text/kitchen/start/config")
        #expect(
            fresh().will
                == BusMessage(
                    topic: "eggtimer/kitchen/kitchen/availability", payload: Array("offline".utf8), retain: true, qos: 1
                ))
    }

    @Test(arguments: [
        ("soft", StartRequest(length: .preset("soft"))),
        (" Hard\n", StartRequest(length: .preset("hard"))),
        ("Medium eggs", StartRequest(length: .preset("medium"), label: "eggs")),
        ("7m30s pasta", StartRequest(length: .duration(.seconds(450)), label: "pasta")),
        ("90", StartRequest(length: .duration(.seconds(90)), label: "90")),
    ])
    func aStartPayloadIsOneStartOfItsTypedRequest(text: String, request: StartRequest) {
        var bus = fresh()
        #expect(bus.handle(Self.start(text)) == [.start(StartPayload(request: request, id: nil))])
    }

    /// Payloads that start nothing, each with a fragment of its one line.
    static let refusedPayloads: [([UInt8], String)] = [
        (Array("lunch".utf8), "'lunch' is neither a preset (soft, medium, hard) nor a duration"),
        (Array(repeating: UInt8(ascii: "7"), count: 4096), "a start request of 4096 bytes is longer than 160"),
        (Array("7m --on-done 'curl x|sh'".utf8), "'--on-done': a start request takes no options"),
        (Array("-D hw:0".utf8), "'-D': a start request takes no options"),
        (Array("5 30".utf8), "'30': give one duration; a label may not read as another"),
        (Array("7m a;rm".utf8), "invalid label 'a;rm'"),
        (Array("7m a\u{1B}[2J".utf8), "the control character U+001B"),
        ([0x37, 0x6D, 0x20, 0xFF], "not valid UTF-8"),
        ([], "an empty start request"),
        (Array("7m kitchen".utf8), "the label 'kitchen' is the kitchen's on the broker"),
        (Array("7m Kitchen".utf8), "the label 'Kitchen' is the kitchen's on the broker"),
        (Array("soft follow".utf8), "the label 'follow' is the follower's on the broker"),
    ]

    @Test(arguments: refusedPayloads)
    func aBadPayloadIsOneLineAndItsRefusalOnTheResultTopic(payload: [UInt8], fragment: String) throws {
        let (line, result) = try refused(Self.start(payload), fragment: fragment)
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value < 0x20 })
        #expect(result.topic == "eggtimer/kitchen/kitchen/result" && !result.retain && result.qos == 1)
        let json = try #require(JSONValue.parse(result.payload))
        #expect(json["id"] == .null && json["ok"] == .bool(false) && json["label"] == .null)
        #expect(json["status"] == .number(64))
        #expect(json["text"]?.stringValue.map { line.hasSuffix(": " + $0) } == true, "\(json)")
    }

    /// JSON payloads (issue 42): the start's words and the asker's id.
    @Test(arguments: [
        (#"{"start": "5 min pasta", "id": "ha-1718.5-42"}"#, "5 min pasta", "ha-1718.5-42"),
        (#" {"id": "A_b:c", "start": "soft"}"#, "soft", "A_b:c"),
        (#"{"start": "Medium eggs"}"#, "Medium eggs", nil),
        (#"{"start": " hard ", "id": null}"#, "hard", nil),
        (
            #"{"start": "7m30s pasta", "id": "\#(String(repeating: "9", count: 64))"}"#, "7m30s pasta",
            String(repeating: "9", count: 64)
        ),
    ])
    func aJSONPayloadIsOneStartWithItsID(json: String, words: String, id: String?) throws {
        var bus = fresh()
        let request = try StartRequest.parse(words, presets: Self.presets)
        #expect(
            bus.handle(Self.start(json)) == [.start(StartPayload(request: request, id: id.flatMap(RequestID.init)))])
    }

    /// JSON payloads that start nothing: a fragment of the line, and the id the result names.
    static let refusedJSON: [(String, String, String?)] = [
        (#"{"start": "tea", "id": "ha-1"}"#, "'tea' is neither a preset (soft, medium, hard) nor a duration", "ha-1"),
        (#"{"start": "soft", "id": "a b"}"#, "bad request id 'a b': 1 to 64 ASCII letters", nil),
        (#"{"start": "soft", "id": "\#(String(repeating: "x", count: 65))"}"#, "bad request id 'xxx", nil),
        (#"{"start": "soft", "id": ""}"#, "bad request id ''", nil),
        (#"{"start": "soft", "id": 42}"#, #""id" is not a string"#, nil),
        (#"{"start": 5, "id": "ha-2"}"#, #""start" is not a string"#, "ha-2"),
        (#"{"id": "ha-3"}"#, #"a JSON start without "start""#, "ha-3"),
        (#"{"start": "soft", "Id": "ha-4"}"#, "unknown member 'Id' in a JSON start", nil),
        // A readable id names the refusal of a bad member too, so that the asker can match it.
        (#"{"start": "5m", "id": "x2", "extra": 1}"#, "unknown member 'extra' in a JSON start", "x2"),
        (#"{"start": "soft", "start": "hard", "id": "x3"}"#, "member 'start' given twice", "x3"),
        (#"{"start": "soft", "start": "hard"}"#, "member 'start' given twice", nil),
        (#"{"start": "soft""#, "not a JSON object", nil),
        (#"{"start": "soft"} x"#, "not a JSON object", nil),
        (#"{"start": "7m kitchen", "id": "ha-5"}"#, "the label 'kitchen' is the kitchen's on the broker", "ha-5"),
        (#"{"start": "7m --on-done x", "id": "ha-6"}"#, "'--on-done': a start request takes no options", "ha-6"),
        (
            #"{"start": "\#(String(repeating: "7", count: 161))"}"#, "a start request of 161 bytes is longer than 160",
            nil
        ),
        ("{" + String(repeating: " ", count: 2048) + "}", "a JSON start of 2050 bytes is longer than 2048", nil),
        (#"{"start": "7m a\u001b[2J"}"#, "the control character U+001B", nil),
    ]

    @Test(arguments: refusedJSON)
    func aBadJSONPayloadIsOneLineNamingItAndItsRefusalWithTheIDItCouldRead(
        json: String, fragment: String, id: String?
    ) throws {
        let (line, result) = try refused(Self.start(json), fragment: fragment)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
        let answer = try #require(JSONValue.parse(result.payload))
        #expect(answer["id"] == (id.map(JSONValue.string) ?? .null), "\(answer)")
        #expect(answer["ok"] == .bool(false) && answer["status"] == .number(64))
    }

    /// What Home Assistant sends for a press (issue 42): its `command_template` rendered as its
    /// Jinja would (`value | tojson`, `now().timestamp()`, a random number), read by the kitchen
    /// as one start with the press's id.
    @Test(arguments: [
        ("homeassistant/button/kitchen/start-soft/config", "", "soft"),
        ("homeassistant/button/kitchen/start-hard/config", "", "hard"),
        ("homeassistant/text/kitchen/start/config", "5 min pasta", "5 min pasta"),
        ("homeassistant/text/kitchen/start/config", #"7m "x" <b>"#, nil),
    ])
    func homeAssistantsRenderedTemplateIsAStartWithAFreshID(config: String, typed: String, words: String?) throws {
        let message = try #require(
            fresh().start().compactMap { effect -> BusMessage? in
                if case .publish(let message) = effect, message.topic == config { message } else { nil }
            }.first)
        let template = try #require(JSONValue.parse(message.payload)?["command_template"]?.stringValue)
        var rendered = template
        for (expression, value) in [
            ("{{ value | tojson }}", JSONText.quoted(typed)), ("{{ now().timestamp() }}", "1718023456.789012"),
            ("{{ range(100000) | random }}", "99999"),
        ] {
            rendered = rendered.replacing(expression, with: value)
        }
        #expect(!rendered.contains("{{") && !rendered.contains("{%"), "\(rendered)")
        let id = RequestID("ha-1718023456.789012-99999")
        var bus = fresh()
        if let words {
            let request = try StartRequest.parse(words, presets: Self.presets)
            #expect(bus.handle(Self.start(rendered)) == [.start(StartPayload(request: request, id: id))])
        } else {
            // A start the kitchen refuses (a quote is no label) is refused with the press's id.
            let effects = bus.handle(Self.start(rendered))
            let result = effects.lazy.compactMap { effect -> BusMessage? in
                if case .publish(let message) = effect, message.topic == "eggtimer/kitchen/kitchen/result" {
                    message
                } else {
                    nil
                }
            }.first
            guard let result else {
                Issue.record("no result: \(effects)")
                return
            }
            #expect(JSONValue.parse(result.payload)?["id"] == .string("ha-1718023456.789012-99999"))
        }
    }

    /// The result topic's payload for each outcome, byte for byte.
    @Test func theResultNamesTheIDTheLabelTheExitStatusAndTheLine() {
        let bus = fresh()
        let status = TimerStatus(
            label: "Soft", pid: 42, state: .counting, remaining: .seconds(300), deadlineUnixMilliseconds: 1)
        let started = bus.result(.started(status), id: RequestID("ha-1"))
        #expect(started.topic == "eggtimer/kitchen/kitchen/result" && !started.retain && started.qos == 1)
        #expect(
            String(decoding: started.payload, as: UTF8.self)
                == #"{"id":"ha-1","ok":true,"label":"Soft","status":0,"text":"Soft: started, rings in 5:00 (pid 42)"}"#)
        let busy = KitchenCore.Refusal(
            kind: .busy, text: "c: not started: 2 timers run already (the most: max-timers)", label: "c")
        #expect(
            String(decoding: bus.result(.refused(busy), id: nil).payload, as: UTF8.self)
                == #"{"id":null,"ok":false,"label":"c","status":75,"#
                + #""text":"c: not started: 2 timers run already (the most: max-timers)"}"#)
        let late = KitchenCore.Refusal(kind: .unavailable, text: "tea: \"x\" not answering", label: nil)
        #expect(
            String(decoding: bus.result(.refused(late), id: RequestID("r:1")).payload, as: UTF8.self)
                == #"{"id":"r:1","ok":false,"label":null,"status":69,"text":"tea: \"x\" not answering"}"#)
    }

    @Test func aRetainedStartIsIgnoredWithOneLineOncePerPayload() throws {
        var bus = fresh()
        let first = bus.handle(Self.start("soft", retained: true))
        try #require(first.count == 1)
        guard case .log(let line) = first[0] else {
            Issue.record("not a log line: \(first)")
            return
        }
        #expect(
            line
                == "ignored a retained MQTT start on eggtimer/kitchen/start ('soft'): starts are not kept; "
                + "clear it with mosquitto_pub -r -n -t 'eggtimer/kitchen/start'")
        // Again after a reconnect: said already.
        #expect(bus.handle(.connected) == [])
        #expect(bus.handle(Self.start("soft", retained: true)) == [])
        // Another retained payload is said; a malformed retained one is not parsed, only said.
        #expect(bus.handle(Self.start("7m --on-done x", retained: true)).count == 1)
        // The same payload as an event starts.
        #expect(
            bus.handle(Self.start("soft")) == [.start(StartPayload(request: StartRequest(length: .preset("soft"))))])
    }

    @Test func otherTopicsAndReportsStartNothing() {
        var bus = fresh()
        #expect(bus.handle(.message(topic: "eggtimer/kitchen/soft/command", payload: Array("soft".utf8))) == [])
        #expect(bus.handle(.message(topic: "eggtimer/hall/start", payload: Array("soft".utf8))) == [])
        #expect(bus.handle(.published(messageID: 3)) == [])
        #expect(bus.handle(.notice("broker refused MQTT 5")) == [.log("MQTT: broker refused MQTT 5")])
    }

    @Test func theBrokerGoingIsSaidOnceAndItsReturnOnce() {
        var bus = fresh()
        #expect(bus.handle(.connected) == [])
        #expect(
            bus.handle(.connectionLost("broker mqtt://pi:1883 closed the connection"))
                == [.log("warning: MQTT: broker mqtt://pi:1883 closed the connection; starts wait, reconnecting")])
        #expect(bus.handle(.connectionLost("broker mqtt://pi:1883 is unreachable")) == [])
        #expect(bus.handle(.connected) == [.log("MQTT: connected to the broker again")])
        #expect(bus.handle(.connected) == [])
    }

    @Test func anOfflineOrClearedKitchenAvailabilityIsAnsweredOnline() {
        var bus = fresh()
        let topic = "eggtimer/kitchen/kitchen/availability"
        let online = KitchenBusEffect.publish(
            BusMessage(topic: topic, payload: Array("online".utf8), retain: true, qos: 1))
        #expect(bus.handle(.message(topic: topic, payload: Array("offline".utf8), retained: true)) == [online])
        #expect(bus.handle(.message(topic: topic, payload: [])) == [online])
        #expect(bus.handle(.message(topic: topic, payload: Array("online".utf8), retained: true)) == [])
    }

    @Test func aCleanEndLeavesTheKitchenOfflineRetained() {
        let bus = fresh()
        #expect(bus.finish() == [bus.will])
        #expect(bus.finish().allSatisfy { $0.retain && $0.payload == Array("offline".utf8) })
    }

    @Test func theTimersItStartsAreGivenItsOwnBrokerOptionsOnly() throws {
        #expect(KitchenBus.timerArguments(BusOptions()) == [])
        var options = BusOptions()
        options.url = "mqtt://pi@127.0.0.1:1883"
        options.node = "stove"
        #expect(
            KitchenBus.timerArguments(options) == [
                "--mqtt", "mqtt://pi@127.0.0.1:1883", "--node", "stove", "--mqtt-prefix", "eggtimer",
            ])
        (options.caFile, options.passwordFile, options.keepalive) = ("/ca.pem", "/pw", .seconds(5))
        options.prefix = "house/eggs"
        let arguments = KitchenBus.timerArguments(options)
        #expect(
            arguments == [
                "--mqtt", "mqtt://pi@127.0.0.1:1883", "--node", "stove", "--mqtt-prefix", "house/eggs",
                "--mqtt-cafile", "/ca.pem", "--mqtt-password-file", "/pw", "--mqtt-keepalive", "5s",
            ])
    }
}

/// What the node's dead timers left on the broker, as the kitchen that holds the node's starts
/// takes care of it (issue 45).
@Suite struct KitchenBusLeftoversTests {
    static let node = KitchenBusTests.node
    static let tea = TimerTopics(node: "kitchen", label: "tea")
    static let off = KitchenBusEffect.publish(NodeRinging.message(false, on: node))

    static func message(_ topic: String, _ text: String, retained: Bool = false) -> BusEvent {
        .message(topic: topic, payload: Array(text.utf8), retained: retained)
    }

    static func ringingState(_ label: String) -> BusEvent {
        let payload = TimerStatePayload(
            state: "ringing", label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil)
        return .message(topic: TimerTopics(node: "kitchen", label: label).state, payload: payload.json())
    }

    /// A reducer that holds the node's starts (``KitchenBusTests/fresh()``).
    func held() -> KitchenBus { KitchenBusTests().fresh() }

    /// `effects` without the kitchen's summary (KitchenBusSummaryTests look at it).
    func withoutSummary(_ effects: [KitchenBusEffect]) -> [KitchenBusEffect] {
        effects.filter {
            if case .publish(let message) = $0 { message.topic != Self.node.kitchenSummary } else { true }
        }
    }

    @Test func theLastRingingTimerDyingTurnsTheNodesRingingOffOnce() {
        var bus = held()
        #expect(withoutSummary(bus.handle(Self.message(Self.tea.availability, "online"))) == [])
        #expect(withoutSummary(bus.handle(Self.ringingState("tea"))) == [])
        #expect(withoutSummary(bus.handle(Self.message("eggtimer/kitchen/ringing", "ON"))) == [])
        // Its Last Will, live: nobody else of the node is online to say the node no longer rings.
        #expect(withoutSummary(bus.handle(Self.message(Self.tea.availability, "offline"))) == [Self.off])
        #expect(withoutSummary(bus.handle(Self.message(Self.tea.availability, "offline"))) == [], "once")
    }

    @Test func anotherTimerOnlineOrAKitchenThatDoesNotHoldTheStartsLeavesItAlone() {
        var bus = held()
        for event in [
            Self.message(Self.tea.availability, "online"), Self.ringingState("tea"),
            Self.message("eggtimer/kitchen/ringing", "ON"),
            Self.message("eggtimer/kitchen/rice/availability", "online"),
        ] { _ = bus.handle(event) }
        #expect(withoutSummary(bus.handle(Self.message(Self.tea.availability, "offline"))) == [], "rice says it itself")
        var waiting = KitchenBus(topics: Self.node, presets: KitchenBusTests.presets, instance: "a1")
        _ = waiting.handle(.connected)
        for event in [Self.ringingState("tea"), Self.message("eggtimer/kitchen/ringing", "ON")] {
            _ = waiting.handle(event)
        }
        #expect(
            withoutSummary(waiting.handle(Self.message(Self.tea.availability, "offline"))) == [],
            "not holding the starts")
    }

    @Test func aDeadTimerFoundRetainedIsALeftoverToLookAt() {
        var bus = held()
        #expect(bus.handle(Self.message(Self.tea.availability, "offline", retained: true)) == [.leftover("tea")])
        // A clean end's `offline`, live, then its clear: nothing to look at.
        #expect(bus.handle(Self.message("eggtimer/kitchen/rice/availability", "offline")) == [])
        #expect(bus.handle(.message(topic: "eggtimer/kitchen/rice/availability", payload: [])) == [])
        #expect(bus.leftovers.offline == ["tea"])
    }

    @Test func takingTheStartsItSetsRightWhatDeadTimersLeftWhileNoKitchenRan() {
        var bus = KitchenBus(topics: Self.node, presets: KitchenBusTests.presets, instance: "a1")
        _ = bus.handle(.connected)
        for event in [
            Self.ringingState("tea"), Self.message(Self.tea.availability, "offline", retained: true),
            Self.message("eggtimer/kitchen/ringing", "ON", retained: true),
            Self.message("eggtimer/kitchen/rice/availability", "offline", retained: true),
        ] { #expect(bus.handle(event) == [], "looking: it decides nothing yet") }
        _ = bus.handle(.message(topic: bus.probe, payload: Array("probe".utf8)))
        let taken = bus.handle(Self.message("eggtimer/kitchen/kitchen/instance", "a1"))
        #expect(Array(taken.suffix(3)) == [Self.off, .leftover("rice"), .leftover("tea")])
    }

    @Test func aForgottenDeadTimersLeftoversAreClearedWithOneLine() throws {
        var bus = held()
        #expect(bus.clearLeftovers("tea") == [], "never seen dead")
        _ = bus.handle(Self.message(Self.tea.availability, "offline", retained: true))
        let effects = bus.clearLeftovers("tea")
        var leftovers = NodeLeftovers(topics: Self.node)
        leftovers.see(topic: Self.tea.availability, payload: Array("offline".utf8))
        #expect(Array(effects.dropLast()) == leftovers.clear("tea").map(KitchenBusEffect.publish))
        guard case .say(let line) = try #require(effects.last) else { throw TestFailure("no line: \(effects)") }
        #expect(line.hasPrefix("tea: died and is forgotten"), "\(line)")
        #expect(bus.clearLeftovers("tea") == [], "once")
    }
}

extension KitchenBus {
    /// ``handle(_:at:)`` at an instant that does not matter to the test.
    mutating func handle(_ event: BusEvent) -> [KitchenBusEffect] { handle(event, at: .now) }
}

/// Issue 45: the kitchen's summary of the node's timers, for its stable entities.
@Suite struct KitchenBusSummaryTests {
    static let node = KitchenBusTests.node

    static func counting(_ label: String, deadline: Int64) -> BusEvent {
        let payload = TimerStatePayload(
            state: "counting", label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 60,
            deadlineUnixMilliseconds: deadline)
        return .message(topic: TimerTopics(node: "kitchen", label: label).state, payload: payload.json())
    }

    /// The summary payloads published among `effects`, as text.
    static func published(_ effects: [KitchenBusEffect]) -> [String] {
        effects.compactMap {
            guard case .publish(let message) = $0, message.topic == node.kitchenSummary else { return nil }
            return String(decoding: message.payload, as: UTF8.self)
        }
    }

    @Test func itIsPublishedAtEachChangeOnlyWhileTheKitchenHoldsTheStarts() {
        var bus = KitchenBusTests().fresh()
        let first = Self.published(bus.handle(Self.counting("tea", deadline: 1_700_000_000_000)))
        #expect(first.count == 1 && first[0].hasPrefix(#"{"running":1,"next_due":"2023-11-14T22:13:20.000Z""#))
        let same = Self.published(bus.handle(Self.counting("tea", deadline: 1_700_000_000_000)))
        #expect(same.isEmpty, "no change")
        let second = Self.published(bus.handle(Self.counting("rice", deadline: 1_600_000_000_000)))
        #expect(
            second.count == 1 && second[0].contains(#""running":2,"#) && second[0].contains(#""next_label":"rice""#))
        var waiting = KitchenBus(topics: Self.node, presets: KitchenBusTests.presets, instance: "a1")
        _ = waiting.handle(.connected)
        let notHeld = Self.published(waiting.handle(Self.counting("tea", deadline: 1_700_000_000_000)))
        #expect(notHeld.isEmpty)
    }
}
