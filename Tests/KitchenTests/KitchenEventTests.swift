import ControlChannel
import HouseBus
import Testing
import TimerModel

@testable import Kitchen

/// Issue 45: the events of the kitchen's Home Assistant `event` entity.
@Suite struct KitchenEventTests {
    @Test(arguments: [
        (TimerState?.none, TimerState.ringing, KitchenEvent.Kind?.none),
        (.counting, .ringing, .finished), (.paused, .silent, .finished), (.snoozed, .ringing, .finished),
        (.ringing, .silent, nil), (.silent, .ringing, nil), (.counting, .counting, nil),
        (.ringing, .done, .acknowledged),
        (.silent, .done, .acknowledged), (.snoozed, .done, .acknowledged), (.counting, .done, nil),
        (.ringing, .missed, .missed), (.ringing, .snoozed, nil), (.counting, .cancelled, nil),
    ])
    func aFollowedTimersChangeOfStateFiresItsEvent(previous: TimerState?, state: TimerState, kind: KitchenEvent.Kind?) {
        #expect(KitchenEvent.transition(from: previous, to: state, label: "tea")?.kind == kind)
    }

    @Test func startsAnsweredAreStartedOrRefusedWithTheReasonAndTheRequestsID() throws {
        let status = TimerStatus(
            label: "Soft", pid: 42, state: .counting, remaining: .seconds(300), deadlineUnixMilliseconds: 1_000)
        let id = try #require(RequestID("ha-1.5-7"))
        let started = KitchenEvent.answer(.started(status), origin: .bus(id: id))
        #expect(String(decoding: started.json, as: UTF8.self) == #"{"event_type":"started","label":"Soft"}"#)
        let refusal = KitchenCore.Refusal(kind: .usage, text: "follow: not started: reserved", label: "follow")
        let refused = KitchenEvent.answer(.refused(refusal), origin: .bus(id: id))
        #expect(
            String(decoding: refused.json, as: UTF8.self)
                == #"{"event_type":"refused","label":"follow","reason":"follow: not started: reserved","#
                + #""request_id":"ha-1.5-7"}"#)
        let byKey = KitchenEvent.answer(.refused(refusal), origin: .keypad)
        #expect(byKey.requestID == nil && String(decoding: byKey.json, as: UTF8.self).hasSuffix(#""request_id":null}"#))
    }

    @Test func theEventEntitysTypesAreTheKitchensAndItsEventsAreNotRetained() throws {
        let node = NodeTopics(node: "kitchen")
        let config = KitchenBus.eventConfig(node)
        #expect(config.topic == "homeassistant/event/kitchen/events/config")
        let json = try #require(JSONValue.parse(config.payload))
        #expect(
            json["event_types"]
                == .array(["started", "finished", "missed", "acknowledged", "refused"].map(JSONValue.string)))
        #expect(json["state_topic"] == .string("eggtimer/kitchen/kitchen/event"))
        #expect(json["availability_topic"] == .string("eggtimer/kitchen/kitchen/availability"))
        let bus = KitchenBus(topics: node, presets: ["Soft"], instance: "a1")
        let message = bus.event(KitchenEvent(kind: .missed, label: "tea"))
        #expect(message.topic == node.kitchenEvent && !message.retain && message.qos == 1)
    }

    @Test(
        arguments: [
            ("127.0.0.1", 8080, nil, [String](), "box", "http://127.0.0.1:8080/"),
            ("192.168.1.5", 443, "cert.pem", [], "box", "https://192.168.1.5:443/"),
            ("::1", 8080, nil, [], "box", "http://[::1]:8080/"),
            ("0.0.0.0", 8080, nil, [], "kitchenpi", "http://kitchenpi.local:8080/"),
            ("::", 8080, nil, ["eggs.example"], "kitchenpi", "http://eggs.example:8080/"),
            ("0.0.0.0", 8080, nil, [], "", nil), ("0.0.0.0", 0, nil, [], "box", nil),
        ] as [(String, UInt16, String?, [String], String, String?)])
    func theKitchensPageIsWhereAHouseholdsBrowserReachesIt(
        address: String, port: UInt16, cert: String?, names: [String], hostname: String, url: String?
    ) {
        var web = WebOptions()
        (web.address, web.port, web.certFile, web.names) = (address, port, cert, names)
        #expect(Kitchen.pageURL(web, hostname: hostname) == url)
        #expect(Kitchen.pageURL(WebOptions(), hostname: hostname) == nil)
    }

    @Test func theKitchensOwnConfigsLinkItsPageAndTheNodesSharedOnesDoNot() throws {
        let node = NodeTopics(node: "kitchen")
        let url = "http://kitchenpi.local:8080/"
        let effects = KitchenBus(topics: node, presets: ["Soft"], configurationURL: url, instance: "a1").start()
        let published = effects.compactMap { effect -> BusMessage? in
            if case .publish(let message) = effect { return message }
            return nil
        }
        let shared = Set(HomeAssistantDiscovery.nodeConfigs(for: node).map(\.topic))
        let links = try published.map { message in
            try #require(JSONValue.parse(message.payload))["device"]?["configuration_url"]
        }
        // Soft's button, the start text, the summary's entities, the event entity, the shared ones.
        let own = 2 + HomeAssistantDiscovery.kitchenSummaryConfigs(for: node).count + 1
        #expect(published.count == own + shared.count, "\(published.map(\.topic))")
        for (message, link) in zip(published, links) {
            // A timer publishes the node's shared configs too, byte for byte: they name no page.
            #expect(link == (shared.contains(message.topic) ? nil : .string(url)), "\(message.topic)")
        }
    }
}
