import ControlChannel
import Glibc
import HouseBus
import HouseLink
import SystemKit
import TimerEngine
import TimerModel

/// `eggtimer follow --mqtt URL` and `eggtimer status|ack|cancel|snooze --mqtt URL [NODE/LABEL]`:
/// the subcommands that reach every timer in the house through the MQTT broker.
///
/// The client commands block the main thread for at most ``deadline`` in all: they collect the
/// timers' retained states (no fixed wait: a probe message published after subscribing comes
/// back after every retained message), then publish a command with QoS 1 and end once the broker
/// acknowledged it.
enum HouseCommands {
    /// The longest a client command runs: connecting, collecting, publishing.
    static let deadline = Duration.seconds(5)

    /// Runs `command` against the broker `options.bus` names.
    /// - Parameters:
    ///   - command: The subcommand.
    ///   - options: The command line (without the config file).
    ///   - arguments: The arguments as text, parsed again over the config file for `follow`.
    ///   - raw: The same arguments as bytes.
    /// - Returns: The exit status: 0 when listed or sent; 3 when no timer fits; 64 for several,
    ///   or a bad command line; 69 when the broker cannot be reached in time.
    static func run(_ command: ControlCommand, options: Options, arguments: [String], raw: [[UInt8]]) -> ExitStatus {
        switch command {
        case .follow: return follow(arguments: arguments, raw: raw)
        case .status(let json): return status(options: options, json: json)
        case .acknowledge(let target), .cancel(let target), .snooze(let target, nil), .pause(let target),
            .resume(let target), .add(let target, _):
            guard let vocabulary = command.vocabulary else { return .software }
            return send(vocabulary, target: target, options: options)
        case .acknowledgeAll, .cancelAll:
            guard let vocabulary = command.vocabulary else { return .software }
            return send(vocabulary, target: nil, all: true, options: options)
        case .snooze(_, _?):
            printError("eggtimer: option '--for' does not work with --mqtt (the timer's own snooze length is used)")
            return .usage
        case .recover:
            printError("eggtimer: option '--mqtt' does not work with 'recover'")
            return .usage
        // main runs them (Kitchen, StartCommand, PairingCommand)
        case .kitchen, .start, .pair, .unpair: return .software
        }
    }

    /// `follow`: the command line over the config file's settings, then ``Follower``.
    private static func follow(arguments: [String], raw: [[UInt8]]) -> ExitStatus {
        let options: Options
        do throws(ExitStatus) { options = try Options.longRunning(arguments, raw: raw) } catch { return error }
        guard options.bus.url != nil else {
            printError("eggtimer: follow needs --mqtt URL (or mqtt = URL in the config file)")
            return .usage
        }
        var follower = Follower(options: options)
        return follower.run()
    }

    /// `status --mqtt`: every timer's retained state, as a table or a JSON array.
    private static func status(options: Options, json: Bool) -> ExitStatus {
        var survey: HouseSurvey
        do { survey = try HouseSurvey(options: options.bus) } catch { return error }
        defer { survey.close() }
        let timers: [TimerStatePayload]
        do { timers = try survey.collect(until: ContinuousClock.now.advanced(by: deadline)) } catch { return error }
        var out = Output(descriptor: STDOUT_FILENO)
        let now = HouseClock.system.nowUnixMilliseconds()
        if json {
            let fresh = HouseSurvey.refreshed(timers, nowUnixMilliseconds: now)
            out.write(String(decoding: JSONValue.array(fresh.map(\.jsonValue)).json(), as: UTF8.self) + "\n")
        } else {
            out.write(HouseSurvey.table(timers, time: .system, nowUnixMilliseconds: now))
        }
        if let error = out.failed { printError("eggtimer: cannot write to standard output: \(errorText(error))") }
        return .done
    }

    /// `ack|cancel|snooze|pause|resume|add --mqtt [TARGET]`, or with `all` every timer that fits
    /// (`ack --all --mqtt`, `cancel --all --mqtt`: ``HouseSurvey/all(among:for:)``): publishes the
    /// command to each with QoS 1, one line each once the broker has it.
    /// - Parameters:
    ///   - command: What to ask; its payload is ``Command/text`` (`ack`), its verb names it in messages.
    ///   - target: `LABEL` or `NODE/LABEL`, or nil for the only one that fits (ignored with `all`).
    ///   - all: Whether every timer that fits is meant.
    ///   - options: The command line.
    /// - Returns: ``ExitStatus/done`` when sent; ``ExitStatus/noTimer`` or ``ExitStatus/usage`` when
    ///   none or several fit (said); ``ExitStatus/unavailable`` when the broker cannot be reached in time.
    private static func send(_ command: Command, target: String?, all: Bool = false, options: Options) -> ExitStatus {
        let end = ContinuousClock.now.advanced(by: deadline)
        var survey: HouseSurvey
        do { survey = try HouseSurvey(options: options.bus) } catch { return error }
        defer { survey.close() }
        let timers: [TimerStatePayload]
        do { timers = try survey.collect(until: end) } catch { return error }
        let chosen: [TimerStatePayload]
        do {
            chosen =
                all
                ? try HouseSurvey.all(among: timers, for: command)
                : [try HouseSurvey.target(among: timers, target: target, verb: command.verb)]
        } catch {
            printError("eggtimer: " + error.message)
            return error.status
        }
        var out = Output(descriptor: STDOUT_FILENO)
        for timer in chosen {
            let topics = TimerTopics(prefix: options.bus.prefix, node: timer.node, label: timer.label)
            do {
                try survey.publish(
                    BusMessage(topic: topics.command, payload: Array(command.text.utf8), retain: false, qos: 1),
                    until: end)
            } catch { return error }
            out.write("\("\(timer.node)/\(timer.label)".escapingControlCharacters): \(command.text) sent\n")
        }
        return .done
    }
}
