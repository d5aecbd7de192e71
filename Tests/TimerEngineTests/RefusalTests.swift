import Testing
import TimerCore
import TimerEngineTestSupport
import TimerModel
import TimerText

@testable import TimerEngine

/// Any instant will do: the controller never reads a clock, and nothing here sleeps.
private let t0 = ContinuousClock.now

/// Where a refusal is tried: a ``KeyState`` or an alarm at a time counting towards 7:15.
enum RefusalState: Sendable, CustomStringConvertible {
    case plain(KeyState)
    case alarmAtATime

    var description: String {
        switch self {
        case .plain(let state): state.rawValue
        case .alarmAtATime: "alarm at a time"
        }
    }

    func controller() throws -> Controller {
        switch self {
        case .plain(let state): return state.controller()
        case .alarmAtATime:
            let wall = WallInstant(unixSeconds: 1_795_000_000)
            let schedule = try AlarmSchedule(
                try AlarmTimeParser.parse("7:15"), every: nil, now: wall, resolver: LocalTimeResolver())
            var controller = Controller(configuration: .init(), start: .alarm(schedule, label: "at-7.15"))
            _ = controller.start(at: t0, wall: wall)
            return controller
        }
    }
}

/// A refusal is worded once: the same line for a command in a state, whichever front sent it.
@Suite struct RefusalTests {
    private static let alarm = "pause/add do not apply to an alarm at a time; snooze or cancel it"
    private static let range = "the time left stays above zero and at most 999:59:59"

    /// Each command in each state: nil where it is carried out, else the refusal's line.
    static let table: [(RefusalState, Command, String?)] = [
        (.plain(.counting), .status, nil), (.plain(.counting), .acknowledge, "5:00 is counting, not ringing"),
        (.plain(.counting), .snooze(nil), "5:00 is counting, not ringing"), (.plain(.counting), .cancel, nil),
        (.plain(.counting), .pause, nil), (.plain(.counting), .resume, "5:00 is counting, not paused"),
        (.plain(.counting), .add(.seconds(60)), nil),
        (.plain(.counting), .add(.seconds(-300)), "5:00 cannot move by -300 s: " + range),
        (.plain(.paused), .acknowledge, "5:00 is paused, not ringing"),
        (.plain(.paused), .snooze(.seconds(60)), "5:00 is paused, not ringing"), (.plain(.paused), .cancel, nil),
        (.plain(.paused), .pause, "5:00 is paused, not counting"), (.plain(.paused), .resume, nil),
        (.plain(.paused), .add(.seconds(-60)), nil),
        (.plain(.ringing), .status, nil), (.plain(.ringing), .acknowledge, nil), (.plain(.ringing), .snooze(nil), nil),
        (.plain(.ringing), .cancel, nil), (.plain(.ringing), .pause, "0:10 is ringing, not counting"),
        (.plain(.ringing), .resume, "0:10 is ringing, not paused"),
        (.plain(.ringing), .add(.seconds(60)), "0:10 is ringing: nothing to move"),
        (.plain(.snoozed), .acknowledge, nil), (.plain(.snoozed), .snooze(nil), "0:10 is snoozed, not ringing"),
        (.plain(.snoozed), .cancel, nil), (.plain(.snoozed), .pause, nil),
        (.plain(.snoozed), .resume, "0:10 is snoozed, not paused"), (.plain(.snoozed), .add(.seconds(60)), nil),
        (.plain(.menu), .status, nil), (.plain(.menu), .acknowledge, "eggtimer is in the menu, not ringing"),
        (.plain(.menu), .snooze(nil), "eggtimer is in the menu, not ringing"),
        (.plain(.menu), .cancel, "eggtimer is in the menu: nothing to cancel"),
        (.plain(.menu), .pause, "eggtimer is in the menu, not counting"),
        (.plain(.menu), .resume, "eggtimer is in the menu, not paused"),
        (.plain(.menu), .add(.seconds(60)), "eggtimer is in the menu: nothing to move"),
        (.alarmAtATime, .status, nil), (.alarmAtATime, .acknowledge, "at-7.15 is counting, not ringing"),
        (.alarmAtATime, .cancel, nil), (.alarmAtATime, .pause, alarm), (.alarmAtATime, .resume, alarm),
        (.alarmAtATime, .add(.seconds(60)), alarm), (.alarmAtATime, .add(.seconds(-60)), alarm),
    ]

    @Test(arguments: table)
    func theRefusalIsTheSameLineFromTheSocketAndFromMQTT(state: RefusalState, command: Command, line: String?) throws {
        var socket = try state.controller()
        let replied = names(socket.handle(.command(command, from: .control, connection: 3), at: t0 + .seconds(20)))
        var mqtt = try state.controller()
        let logged = names(mqtt.handle(.command(command, from: .mqtt), at: t0 + .seconds(20)))
        guard let line else {
            #expect(replied.first == "reply", "\(replied)")
            #expect(!logged.contains { $0.hasPrefix("log: ") }, "\(logged)")
            return
        }
        #expect(replied == ["refused: " + line])
        #expect(logged == ["log: MQTT: ignored '\(command.text)': " + line])
        // A key gets nothing (as today): the same command from the keyboard changes nothing either.
        var key = try state.controller()
        #expect(key.handle(.command(command, from: .key), at: t0 + .seconds(20)).isEmpty)
        #expect(key.mode == (try state.controller()).mode)
    }

    /// The reasons that are not the state, worded by the one function every front uses.
    @Test(arguments: [
        (Command.pause, Refusal.alarmAtATime, TimerState?.some(.counting), alarm),
        (.add(.seconds(60)), .alarmAtATime, .ringing, alarm),
        (.resume, .clockNotSet, .counting, "Soft waits for the clock to be set: nothing to pause or move yet"),
        (.add(.seconds(90)), .outOfRange, .paused, "Soft cannot move by 90 s: " + range),
        (.cancel, .state, .done, "Soft is done: nothing to cancel"), (.status, .state, nil, "Soft is in the menu"),
    ])
    func reasonsAreWordedOnce(command: Command, reason: Refusal, state: TimerState?, line: String) {
        #expect(command.refusal(reason, label: "Soft", state: state) == line)
    }
}

/// Issue 41: a timer that has ended (cancelled by one shell while another asks) still answers
/// under its own label, not `eggtimer`.
@Suite struct EndedTimerRefusalTests {
    @Test func anEndedTimersRefusalNamesItsLabel() {
        var controller = Controller(configuration: .init(), start: .timer(.plain, .seconds(60), label: "tea"), at: t0)
        _ = controller.handle(.command(.cancel, from: .control, connection: 1), at: t0 + .seconds(1))
        let replied = names(
            controller.handle(.command(.acknowledge, from: .control, connection: 2), at: t0 + .seconds(1)))
        #expect(replied == ["refused: tea is cancelled, not ringing"], "\(replied)")
    }
}
