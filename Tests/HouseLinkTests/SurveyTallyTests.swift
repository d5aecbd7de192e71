import HouseBus
import Testing

@testable import HouseLink
@testable import TimerEngine

private let probe = "eggtimer/probe/42-7"

private func tally() -> SurveyTally { SurveyTally(prefix: "eggtimer", probe: probe) }

private func message(_ topic: String, _ payload: [UInt8]) -> BusEvent { .message(topic: topic, payload: payload) }

private func state(_ word: String, node: String = "kitchen", label: String = "tea") -> [UInt8] {
    TimerStatePayload(
        state: word, label: label, node: node, durationSeconds: 60, remainingSeconds: 30, deadlineUnixMilliseconds: nil
    ).json()
}

/// `status|ack|cancel|snooze --mqtt`'s survey decisions, with no broker: what is kept, when it
/// is complete, what is acknowledged, when it fails.
@Suite struct SurveyTallyTests {
    @Test func connectingPublishesTheProbeAndItsReturnCompletesTheSurvey() {
        var survey = tally()
        #expect(survey.handle(.connected) == [.publish(survey.probeMessage)])
        #expect(survey.probeMessage == BusMessage(topic: probe, payload: Array("probe".utf8), retain: false, qos: 1))
        #expect(!survey.probed)
        #expect(survey.handle(message(probe, Array("probe".utf8))) == [])
        #expect(survey.probed)
    }

    @Test func aLostConnectionFailsTheSurveyWithItsReason() {
        var survey = tally()
        #expect(
            survey.handle(.connectionLost("broker mqtt://h:1883 refused the password")) == [
                .fail("MQTT: broker mqtt://h:1883 refused the password")
            ])
    }

    @Test func statesAreKeptByTheTopicsNameAndAClearOrMalformedOneForgetsIt() throws {
        var survey = tally()
        #expect(survey.handle(message("eggtimer/kitchen/tea/state", state("ringing", node: "other", label: "x"))) == [])
        let kept = try #require(survey.timers["kitchen/tea"])
        #expect((kept.node, kept.label, kept.state) == ("kitchen", "tea", "ringing"))
        _ = survey.handle(message("eggtimer/attic/soup/state", state("counting")))
        #expect(survey.timers.keys.sorted() == ["attic/soup", "kitchen/tea"])
        _ = survey.handle(message("eggtimer/kitchen/tea/state", []))
        _ = survey.handle(message("eggtimer/attic/soup/state", Array("{".utf8)))
        #expect(survey.timers.isEmpty)
    }

    @Test func availabilityOfflineMarksATimerUntilItIsOnlineAgain() {
        var survey = tally()
        _ = survey.handle(message("eggtimer/kitchen/tea/availability", Array("offline".utf8)))
        #expect(survey.offline == ["kitchen/tea"])
        _ = survey.handle(message("eggtimer/kitchen/tea/availability", Array("online".utf8)))
        #expect(survey.offline.isEmpty)
    }

    @Test func topicsOutsideThePrefixAreIgnored() {
        var survey = tally()
        _ = survey.handle(message("other/kitchen/tea/state", state("ringing")))
        _ = survey.handle(message("eggtimer/kitchen/tea/command", Array("ack".utf8)))
        #expect(survey.timers.isEmpty && survey.offline.isEmpty && !survey.probed)
    }

    @Test func aCommandIsAwaitedUntilTheBrokerAcknowledgesIt() {
        var survey = tally()
        survey.awaiting(7)
        #expect(survey.handle(.published(messageID: 6)) == [])
        #expect(survey.awaited == [7])
        #expect(survey.handle(.published(messageID: 7)) == [])
        #expect(survey.awaited.isEmpty)
    }

    @Test func aProtocolNoticeIsNotWorthALine() {
        var survey = tally()
        #expect(survey.handle(.notice("broker refused MQTT 5; speaking MQTT 3.1.1")) == [])
    }
}
