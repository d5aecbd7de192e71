import AlarmAudio
import ControlChannel
import Glibc
import HouseBus
import HouseLink
import SystemKit
import TestSupport
import Testing
import TimerCore
import TimerEngine
import TimerEngineTestSupport
import TimerModel
import TimerText

@testable import TimerEngine
@testable import eggtimer

/// Any instant will do: nothing here reads a clock or sleeps.
private let t0 = ContinuousClock.now

/// Issue 15, the CLI side without a broker: the MQTT options, the state payload, and the
/// commands that arrive on the command topic, on injected instants.
@Suite struct BusOptionsTests {
    @Test func theMQTTOptionsFillBusOptions() throws {
        let options = try Options.parse([
            "5m", "--mqtt", "mqtt://kim@broker.lan:1884", "--mqtt-cafile", "/ca.pem", "--mqtt-password-file", "/pw",
            "--node", "kitchen", "--mqtt-prefix", "home/eggs", "--mqtt-keepalive", "5s",
        ])
        #expect(options.bus.url == "mqtt://kim@broker.lan:1884")
        #expect(options.bus.caFile == "/ca.pem")
        #expect(options.bus.passwordFile == "/pw")
        #expect(options.bus.nodeName == "kitchen")
        #expect(options.bus.prefix == "home/eggs")
        #expect(options.bus.keepalive == .seconds(5))
    }

    @Test func withoutMQTTNothingIsSet() throws {
        let options = try Options.parse(["5m"])
        #expect(options.bus == BusOptions())
        #expect(options.bus.url == nil)
        #expect(options.bus.prefix == "eggtimer")
    }

    @Test(arguments: [
        (["5m", "--mqtt", "mqtt://kim:hunter2@host"], "option '--mqtt': the broker URL must not hold a password"),
        (["5m", "--mqtt", "http://host"], "must start with mqtt:// or mqtts:// (not \"http\")"),
        (["5m", "--mqtt", "host:1883"], "must start with mqtt:// or mqtts://"),
        (["5m", "--mqtt", "mqtt://"], "bad broker host"),
        (["5m", "--mqtt", "mqtt://h:99999"], "bad broker port \"99999\""),
        (["5m", "--mqtt", "mqtt://h/x"], "unexpected \"/x\""),
        (["5m", "--node", "a/b"], "option '--node' needs one word"),
        (["5m", "--mqtt-prefix", "a/+"], "option '--mqtt-prefix' needs levels"),
        (["5m", "--mqtt-prefix", "/a"], "option '--mqtt-prefix' needs levels"),
        (["5m", "--mqtt-prefix", "homeassistant"], "option '--mqtt-prefix' cannot start with 'homeassistant'"),
        (["5m", "--mqtt-prefix", "homeassistant/eggs"], "option '--mqtt-prefix' cannot start with 'homeassistant'"),
        (["5m", "--label", "follow", "--mqtt", "mqtt://h"], "option '--label' cannot be 'follow' with --mqtt"),
        (["at", "7:00", "--mqtt", "mqtt://h", "--label", "follow"], "cannot be 'follow'"),
        (["5m", "--label", "kitchen", "--mqtt", "mqtt://h"], "option '--label' cannot be 'kitchen' with --mqtt"),
        (["5m", "--mqtt-keepalive", "2s"], "takes 5s to 65535s"),
        (["recover", "--mqtt", "mqtt://h"], "option '--mqtt' does not work with 'recover'"),
        (["follow", "--loops", "3"], "option '--loops' does not work with 'follow'"),
        (["ack", "kitchen/tea"], "invalid label 'kitchen/tea'"),
        (["ack", "--mqtt", "mqtt://h", "a/b/c"], "invalid timer 'a/b/c': give LABEL or NODE/LABEL"),
        (["ack", "--mqtt", "mqtt://h", "a/\u{1}"], "invalid timer"),
    ])
    func badMQTTArgumentsAreUsageErrorsNamingTheToken(arguments: [String], message: String) {
        #expect {
            try Options.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }

    @Test func aPasswordInTheURLIsNeverEchoed() {
        #expect {
            try Options.parse(["5m", "--mqtt", "mqtt://kim:hunter2@host"])
        } throws: { error in
            (error as? UsageError).map { !$0.description.contains("hunter2") } == true
        }
    }

    @Test(arguments: [
        (["ack", "--mqtt", "mqtt://h", "kitchen/tea"], ControlCommand.acknowledge(label: "kitchen/tea")),
        (["cancel", "--mqtt", "mqtt://h", "tea"], .cancel(label: "tea")),
        (["snooze", "--mqtt", "mqtt://h"], .snooze(label: nil, for: nil)),
        (["status", "--mqtt", "mqtt://h", "--json"], .status(json: true)),
        (["follow", "--mqtt", "mqtt://h", "-D", "null", "--volume", "40", "--node", "garden"], .follow),
        (["follow"], .follow),
    ])
    func houseSubcommandsParse(arguments: [String], command: ControlCommand) throws {
        #expect(try Options.parse(arguments).command == .control(command))
    }

    @Test func theConfigFileSetsTheMQTTKeys() throws {
        let keys = Options.configSpecs.map(\.key)
        for key in ["mqtt", "mqtt-cafile", "mqtt-password-file", "node", "mqtt-prefix"] { #expect(keys.contains(key)) }
        #expect(!keys.contains("mqtt-keepalive"))
        let file = ConfigFile(
            location: .init(path: Array("/x/config".utf8), required: false),
            contents: Array("mqtt = mqtt://broker\nnode = hall\n".utf8))
        let options = try Options.settings(from: file)
        #expect(options.bus.url == "mqtt://broker")
        #expect(options.bus.nodeName == "hall")
    }

    @Test func thePasswordIsTheFilesFirstLineElseTheEnvironment() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        writeFile(dir + "/pw", Array("s3cret\nignored\n".utf8))
        var bus = BusOptions()
        #expect(try bus.password(environment: { _ in nil }) == nil)
        #expect(try bus.password(environment: { $0 == "EGGTIMER_MQTT_PASSWORD" ? "env" : nil }) == "env")
        bus.passwordFile = dir + "/pw"
        #expect(try bus.password(environment: { _ in "env" }) == "s3cret")
        bus.passwordFile = dir + "/missing"
        #expect(throws: UsageError.self) { try bus.password(environment: { _ in nil }) }
    }

    @Test(arguments: [
        ("kitchen", "kitchen"), ("pi-4.lan", "pi-4.lan"), ("1:30", "1_30"), ("2 hours", "2_hours"), (".x", "_x"),
        ("", "fallback"), (String(repeating: "a", count: 80), String(repeating: "a", count: 64)),
    ])
    func topicLevelsFollowTheLabelRules(text: String, level: String) {
        #expect(BusOptions.topicLevel(text, fallback: "fallback") == level)
        #expect(LabelRule.isValid(BusOptions.topicLevel(text, fallback: "fallback")))
    }

    @Test func theDefaultNodeIsTheHostName() {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = gethostname(&buffer, 255)
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(BusOptions().nodeName == BusOptions.topicLevel(host, fallback: "eggtimer"))
    }
}

/// The broker's files are checked before connecting: libmosquitto's own word for a missing CA file
/// is "invalid function arguments provided".
@Suite struct BusFilesTests {
    @Test func anUnreadableCAFileExits66NamingIt() {
        let run = runEggtimer([
            "5m", "-D", "null", "--mqtt", "mqtts://127.0.0.1:1", "--mqtt-cafile", "/nonexistent/ca.pem",
        ])
        #expect(run.termination == .exited(66))
        #expect(
            run.stderr
                == "eggtimer: option '--mqtt-cafile' cannot read '/nonexistent/ca.pem': No such file or directory\n")
    }

    /// Issue 20, "Secrets stay put": a FIFO given as either file (command line or config file)
    /// used to block open() for ever, before the countdown and with SIGTERM blocked.
    @Test(arguments: [("--mqtt-cafile", "mqtts"), ("--mqtt-password-file", "mqtt")], [false, true])
    func aFIFOAsTheCAOrPasswordFileIsRefusedWithoutWaiting(option: (name: String, scheme: String), inConfig: Bool) {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        var arguments = ["5m", "-D", "null", "--mqtt", "\(option.scheme)://127.0.0.1:1"]
        var environment: [String: String] = [:]
        if inConfig {
            writeFile(folder + "/config", Array("\(option.name.dropFirst(2)) = \(fifo)\n".utf8))
            environment["EGGTIMER_CONFIG"] = folder + "/config"
        } else {
            arguments += [option.name, fifo]
        }
        let run = runEggtimer(arguments, environment: environment, timeout: .seconds(10))
        #expect(run.termination == .exited(66), "\(run.stderr)")
        let colon = option.name == "--mqtt-cafile" ? "" : ":"
        let reason = "not a regular file (a named pipe)"
        #expect(run.stderr == "eggtimer: option '\(option.name)'\(colon) cannot read '\(fifo)': \(reason)\n")
    }

    /// The `--on-done` command does not inherit the broker password.
    @Test func theOnDoneCommandDoesNotGetThePassword() throws {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let mark = folder + "/env"
        let run = runEggtimer(
            ["1s", "--loops", "1", "-D", "null", "--on-done", "env > \(mark).tmp && mv \(mark).tmp \(mark)"],
            environment: ["EGGTIMER_MQTT_PASSWORD": "s3cret", "EGGTIMER_MARK": "kept"])
        #expect(run.termination == .exited(0), "\(run.stderr)")
        // The command runs beside the alarm and may outlive the timer: wait for its file.
        try eventually("the command wrote its file", deadline: .now + .seconds(10)) { readFile(mark) != nil }
        let environment = String(decoding: try #require(readFile(mark)), as: UTF8.self)
        #expect(environment.contains("EGGTIMER_MARK=kept\n"), "the rest of the environment is passed on")
        #expect(!environment.contains("EGGTIMER_MQTT_PASSWORD"))
        #expect(!environment.contains("s3cret"))
    }
}

@Suite struct HouseTargetTests {
    private func timer(_ node: String, _ label: String, _ state: String) -> TimerStatePayload {
        TimerStatePayload(
            state: state, label: label, node: node, durationSeconds: 60, remainingSeconds: 30,
            deadlineUnixMilliseconds: nil)
    }

    @Test(arguments: [
        ("cancel", "kitchen/stew", "kitchen/stew is offline"), ("ack", "stew", "kitchen/stew is offline"),
        ("snooze", "kitchen/stew", "kitchen/stew is offline"), ("ack", "attic/soup", "soup is counting, not ringing"),
        ("snooze", "soup", "soup is counting, not ringing"), ("ack", "attic/jam", "jam is paused, not ringing"),
        ("snooze", "attic/pie", "pie is snoozed, not ringing"),
    ])
    func offlineOrNotRingingTimersAreRefusedWithExit3(verb: String, target: String, message: String) {
        let timers = [
            timer("kitchen", "stew", "offline"), timer("attic", "soup", "counting"), timer("attic", "jam", "paused"),
            timer("attic", "pie", "snoozed"),
        ]
        #expect(throws: ControlFailure(status: .noTimer, message: message)) {
            try HouseSurvey.target(among: timers, target: target, verb: verb)
        }
    }

    @Test func theOnlyTimerOfflineIsNotCancelled() {
        #expect(throws: ControlFailure(status: .noTimer, message: "kitchen/stew is offline")) {
            try HouseSurvey.target(among: [timer("kitchen", "stew", "offline")], target: nil, verb: "cancel")
        }
    }

    @Test func aLabelFromTheBrokerCannotPutControlCharactersInTheMessages() {
        // `eggtimer/kitchen/a%1B%5B2Jb/state`: the topic decodes to an escape sequence.
        let hostile = timer("kitchen", "a\u{1B}[2Jb", "offline")
        #expect(throws: ControlFailure(status: .noTimer, message: "kitchen/a\\x1B[2Jb is offline")) {
            try HouseSurvey.target(among: [hostile], target: nil, verb: "cancel")
        }
    }

    @Test func fittingTimersAreChosen() throws {
        let timers = [
            timer("attic", "soup", "counting"), timer("attic", "pie", "snoozed"), timer("k", "1:30", "ringing"),
        ]
        #expect(try HouseSurvey.target(among: timers, target: "attic/soup", verb: "cancel").label == "soup")
        #expect(try HouseSurvey.target(among: timers, target: "pie", verb: "ack").label == "pie")
        #expect(try HouseSurvey.target(among: timers, target: "k/1:30", verb: "snooze").label == "1:30")
    }

    /// `ack --all --mqtt` and `cancel --all --mqtt` (issue 24): every timer that fits, never an
    /// offline or stale one; none fitting is the no-timer status.
    @Test func allReachesEveryFittingTimerOnTheBroker() throws {
        let timers = [
            timer("attic", "soup", "counting"), timer("attic", "pie", "snoozed"), timer("k", "tea", "ringing"),
            timer("k", "stew", "offline"), timer("k", "jam", "stale"), timer("k", "rice", "silent"),
            timer("k", "old", "done"),
        ]
        #expect(try HouseSurvey.all(among: timers, for: .acknowledge).map(\.label) == ["pie", "tea", "rice"])
        #expect(try HouseSurvey.all(among: timers, for: .cancel).map(\.label) == ["soup", "pie", "tea", "rice"])
        #expect(
            throws: ControlFailure(status: .noTimer, message: "no timer is ringing or snoozed on the MQTT broker")
        ) { try HouseSurvey.all(among: [timer("k", "stew", "offline"), timers[0]], for: .acknowledge) }
        #expect(throws: ControlFailure(status: .noTimer, message: "no timers running on the MQTT broker")) {
            try HouseSurvey.all(among: [timer("k", "old", "done")], for: .cancel)
        }
    }
}

/// Issue 20: `status`/`ack --mqtt` on an injected wall clock: stale states are listed and refused.
@Suite struct HouseStalenessTests {
    /// 2026-11-30T11:00:00Z.
    static let published: Int64 = 1_796_036_400_000

    static func clock(at now: Int64, synchronised: Bool) -> HouseClock {
        HouseClock(nowUnixMilliseconds: { now }, isSynchronised: { synchronised })
    }

    static func state(_ label: String, _ state: String) -> TimerStatePayload {
        TimerStatePayload(
            state: state, label: label, node: "kitchen", durationSeconds: 60, remainingSeconds: 0,
            deadlineUnixMilliseconds: nil, instance: "0123456789abcdef", publishedUnixMilliseconds: published,
            publisherClockSynchronised: true, intervalSeconds: 60)
    }

    static let timers = ["kitchen/tea": state("tea", "ringing"), "kitchen/rice": state("rice", "counting")]

    @Test func aStateNotRefreshedForThreeIntervalsIsListedStale() {
        let later = Self.clock(at: Self.published + 180_001, synchronised: true)
        #expect(HouseSurvey.listed(Self.timers, offline: [], clock: later).map(\.state) == ["stale", "stale"])
        let fresh = Self.clock(at: Self.published + 180_000, synchronised: true)
        #expect(HouseSurvey.listed(Self.timers, offline: [], clock: fresh).map(\.state) == ["counting", "ringing"])
        // Offline says more than stale.
        #expect(
            HouseSurvey.listed(Self.timers, offline: ["kitchen/tea"], clock: later).map(\.state) == [
                "stale", "offline",
            ])
    }

    @Test func anUnsynchronisedClockJudgesNothingStale() {
        let unsynchronised = Self.clock(at: Self.published + 86_400_000, synchronised: false)
        #expect(
            HouseSurvey.listed(Self.timers, offline: [], clock: unsynchronised).map(\.state) == ["counting", "ringing"])
    }

    @Test(arguments: ["ack", "cancel", "snooze"])
    func aStaleTimerIsRefusedAsAnOfflineOneIs(verb: String) {
        let later = Self.clock(at: Self.published + 200_000, synchronised: true)
        let listed = HouseSurvey.listed(["kitchen/tea": Self.state("tea", "ringing")], offline: [], clock: later)
        #expect(throws: ControlFailure.self) {
            try HouseSurvey.target(among: listed, target: "kitchen/tea", verb: verb)
        }
        do {
            _ = try HouseSurvey.target(among: listed, target: "kitchen/tea", verb: verb)
        } catch {
            #expect(error.status == .noTimer)
            #expect(error.message.hasPrefix("kitchen/tea is stale: "), "\(error.message)")
        }
        // Without a name, a stale ringing timer is not "the only ringing one".
        #expect(throws: ControlFailure.self) { try HouseSurvey.target(among: listed, target: nil, verb: "ack") }
    }

    @Test func listingJudgesStalenessAtTheWallReadingItIsGiven() {
        let published = Self.published
        let timers = Self.timers
        let later = WallReading(unixMilliseconds: published + 180_001, synchronised: true)
        let fresh = WallReading(unixMilliseconds: published + 180_000, synchronised: true)
        let unsynchronised = WallReading(unixMilliseconds: published + 86_400_000, synchronised: false)
        #expect(HouseSurvey.listed(timers, offline: [], wall: later).map(\.state) == ["stale", "stale"])
        #expect(HouseSurvey.listed(timers, offline: [], wall: fresh).map(\.state) == ["counting", "ringing"])
        #expect(HouseSurvey.listed(timers, offline: [], wall: unsynchronised).map(\.state) == ["counting", "ringing"])
        #expect(HouseSurvey.listed(timers, offline: ["kitchen/tea"], wall: later).map(\.state) == ["stale", "offline"])
    }

    @Test func houseStatusJSONRecomputesTheTimeLeftAsTheTableDoes() {
        let counting = TimerStatePayload(
            state: "counting", label: "tea", node: "kitchen", durationSeconds: 240, remainingSeconds: 100,
            deadlineUnixMilliseconds: 70_000)
        var paused = counting
        paused.state = "paused"
        paused.deadlineUnixMilliseconds = nil
        // A killed timer (availability offline) left its first state; its deadline still tells.
        var offline = counting
        offline.state = "offline"
        let fresh = HouseSurvey.refreshed([counting, paused, offline], nowUnixMilliseconds: 40_000)
        #expect(fresh.map(\.remainingSeconds) == [30, 100, 30])
        let table = HouseSurvey.table([counting], time: .system, nowUnixMilliseconds: 40_000)
        #expect(table.contains("0:30"), "\(table)")
    }

    @Test func theStatePayloadPromisesTheRefreshPeriodExceptWhenFinal() throws {
        let topics = TimerTopics(node: "kitchen", label: "tea")
        var counting = TimerSnapshot(
            state: .counting, label: "tea", kind: .plain, total: .seconds(60), remaining: .seconds(60), deadline: nil,
            deadlineUnixMilliseconds: nil, pid: 7)
        let payload = try #require(
            BusLink.payload(counting, topics: topics, instance: "ab", published: (Self.published, synchronised: false)))
        #expect(payload.publishedUnixMilliseconds == Self.published && payload.publisherClockSynchronised == false)
        #expect(payload.intervalSeconds == BusLink.refreshPeriod / .seconds(1))
        counting.state = .done
        let final = try #require(
            BusLink.payload(counting, topics: topics, instance: "ab", published: (Self.published, synchronised: true)))
        #expect(final.intervalSeconds == nil && final.publishedUnixMilliseconds == Self.published)
    }
}

@Suite struct BusCommandControllerTests {
    private func counting(_ duration: Duration = .seconds(300)) -> Controller {
        Controller(configuration: .init(), start: .plain(duration), at: t0)
    }

    private func ringing() -> Controller {
        var controller = counting(.seconds(10))
        _ = controller.tick(at: t0 + .seconds(10))
        return controller
    }

    @Test func ackOverMQTTStopsTheAlarmAndTheTimerIsDone() {
        var controller = ringing()
        #expect(controller.state == .ringing)
        let effects = controller.handle(.command(.acknowledge, from: .mqtt), at: t0 + .seconds(11))
        #expect(names(effects).contains("stopAlarm"))
        #expect(controller.state == .done)
        let released = controller.handle(audio: stopped(at: t0 + .seconds(11)), at: t0 + .seconds(11))
        #expect(names(released) == ["acknowledged", "exit 0"])
        guard case .emit(let event)? = released.first else {
            Issue.record("no acknowledged event")
            return
        }
        #expect(event.extra.contains { $0.key == "by" && $0.value == .text("mqtt") })
    }

    @Test(arguments: [Command.acknowledge, .snooze(nil)])
    func ackOrSnoozeWhileCountingIsIgnoredWithALine(command: Command) {
        var controller = counting()
        let effects = controller.handle(.command(command, from: .mqtt), at: t0 + .seconds(1))
        #expect(names(effects).count == 1 && names(effects)[0].hasPrefix("log: MQTT: ignored '\(command.verb)': "))
        #expect(names(effects)[0].hasSuffix("is counting, not ringing"), "\(names(effects))")
        #expect(controller.state == .counting)
    }

    @Test func cancelEndsACountingTimerWithStatusOne() {
        var controller = counting()
        #expect(
            names(controller.handle(.command(.cancel, from: .mqtt), at: t0 + .seconds(1))) == ["cancelled", "exit 1"])
        #expect(controller.state == .cancelled)
    }

    @Test func snoozeSilencesAndRingsAgainLater() {
        var controller = ringing()
        let effects = controller.handle(.command(.snooze(nil), from: .mqtt), at: t0 + .seconds(12))
        #expect(names(effects) == ["stopAlarm", "snoozed"])
        #expect(controller.state == .snoozed)
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(612))
    }

    @Test(arguments: [Command.pause, .resume, .add(.seconds(60)), .add(.seconds(-60))])
    func pauseResumeAndAddAreRefusedForAnAlarmAtATime(command: Command) throws {
        let wall = WallInstant(unixSeconds: 1_795_000_000)
        let schedule = try AlarmSchedule(
            try AlarmTimeParser.parse("7:15"), every: nil, now: wall, resolver: LocalTimeResolver())
        var controller = Controller(configuration: .init(), start: .alarm(schedule, label: "at-7.15"))
        _ = controller.start(at: t0, wall: wall)
        let deadline = controller.currentRun?.countdown.deadline
        let effects = controller.handle(.command(command, from: .mqtt), at: t0 + .seconds(1))
        #expect(
            names(effects) == [
                "log: MQTT: ignored '\(command.text)': pause/add do not apply to an alarm at a time; snooze or cancel it"
            ])
        #expect(controller.state == .counting && controller.currentRun?.countdown.deadline == deadline)
        #expect(names(controller.handle(.command(.cancel, from: .mqtt), at: t0 + .seconds(2))).contains("cancelled"))
    }

    @Test func pauseAndResumeActOnlyWhenTheyFit() {
        var controller = counting()
        // Refused with the one line every front words the same (MQTT logs it), and nothing else.
        #expect(
            names(controller.handle(.command(.resume, from: .mqtt), at: t0 + .seconds(1))) == [
                "log: MQTT: ignored 'resume': 5:00 is counting, not paused"
            ])
        #expect(names(controller.handle(.command(.pause, from: .mqtt), at: t0 + .seconds(10))) == ["paused"])
        #expect(controller.state == .paused)
        #expect(
            names(controller.handle(.command(.pause, from: .mqtt), at: t0 + .seconds(20))) == [
                "log: MQTT: ignored 'pause': 5:00 is paused, not counting"
            ])
        #expect(names(controller.handle(.command(.resume, from: .mqtt), at: t0 + .seconds(30))) == ["resumed"])
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(320))
    }

    @Test func addMovesTheDeadlineByAnyNumberOfSeconds() {
        var controller = counting()
        #expect(names(controller.handle(.command(.add(.seconds(90)), from: .mqtt), at: t0)) == ["adjusted"])
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(390))
        _ = controller.handle(.command(.add(.seconds(-60)), from: .mqtt), at: t0)
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(330))
        // Never to zero or below.
        #expect(
            names(controller.handle(.command(.add(.seconds(-330)), from: .mqtt), at: t0)) == [
                "log: MQTT: ignored 'add -330': 5:00 cannot move by -330 s: the time left stays above zero and at most 999:59:59"
            ])
        #expect(controller.currentRun?.countdown.deadline == t0 + .seconds(330))
    }

    @Test func addWhileRingingIsIgnored() {
        var controller = ringing()
        #expect(
            names(controller.handle(.command(.add(.seconds(60)), from: .mqtt), at: t0 + .seconds(11))) == [
                "log: MQTT: ignored 'add 60': 0:10 is ringing: nothing to move"
            ])
        #expect(controller.state == .ringing)
    }

    /// Issue 22: `status` on the command topic republishes the state at once: one effect, in every
    /// state, no event; from the socket its reply is the answer, and a key or signal does nothing.
    @Test func statusOverMQTTAsksForTheStateToBePublishedNow() {
        var controller = counting()
        let counting = controller.handle(.command(.status, from: .mqtt), at: t0 + .seconds(1))
        let replied = controller.handle(.command(.status, from: .control, connection: 2), at: t0)
        let keyed = controller.handle(.command(.status, from: .key), at: t0)
        var ringing = ringing()
        let rung = ringing.handle(.command(.status, from: .mqtt), at: t0 + .seconds(11))
        var menu = Controller(configuration: .init(), start: .menu, at: t0)
        let inMenu = menu.handle(.command(.status, from: .mqtt), at: t0)
        #expect(names(counting) == ["publishState"] && names(rung) == ["publishState"])
        #expect(names(inMenu) == ["publishState"])
        #expect(ringing.state == .ringing && controller.state == .counting)
        #expect(names(replied) == ["reply"] && keyed.isEmpty)
    }

    @Test func brokerReportsReachTheControllerAsNothing() {
        var controller = counting()
        #expect(controller.handle(.bus(.connectionLost("refused")), at: t0 + .seconds(1)).isEmpty)
        #expect(controller.handle(.bus(.message(topic: "x", payload: [])), at: t0 + .seconds(1)).isEmpty)
    }
}
