public import ControlChannel
public import Glibc
import SystemKit
import Testing
import TimerModel

/// The kitchen harness: one test's private house where real timers, the real `eggtimer kitchen`
/// and its clients meet, and everything they leave is removed at deinit.
///
/// A runtime folder (control sockets), a state folder (records, logs), a scratch folder, and when
/// asked a config file (``init(config:clockSync:sharesState:keypad:)``) whose alarms ring into a file PCM, keypad
/// FIFOs (``addKeypad(_:)``) and a broker's address (``bus(port:node:)``). Every child it starts
/// runs in ``environment``. At deinit it cancels every timer still running (`cancel --all`) and
/// ends any process of the house that is left (``endStragglers()``).
/// Not thread-safe: one test owns it.
open class House {
    /// `XDG_RUNTIME_DIR`.
    public let runtime = makePrivateDirectory()
    /// `XDG_STATE_HOME`.
    public let state = makePrivateDirectory()
    /// Captures, certificates and anything else of the test's.
    public let scratch = makePrivateDirectory()
    /// The config file (`EGGTIMER_CONFIG`), or nil: none given (eggtimer looks where it always does).
    public let configPath: String?
    /// What the timers are told of the wall clock (`EGGTIMER_CLOCK_SYNC`), or nil: what it is.
    public var clockSync: String?
    /// Whether the children share ``state`` (``init(config:clockSync:sharesState:keypad:)``).
    public let sharesState: Bool
    /// The keypad's input root (`EGGTIMER_INPUT_ROOT`) once ``addKeypad(_:)`` made one.
    public internal(set) var keypadRoot: String?
    /// The keypad FIFOs' open writing ends, by device name.
    var keypadWriters: [String: Int32] = [:]
    /// The last key press's time stamp.
    var keypadClock = Duration.seconds(100)

    /// The variable that points the kitchen at another `/dev/input` and `/sys/class/input`.
    public static let inputRootVariable = "EGGTIMER_INPUT_ROOT"

    /// Makes the folders, and a config file when `config` is given.
    /// - Parameters:
    ///   - config: The config file's lines after `device = <the file PCM `alarm`>` (``device(_:)``);
    ///     nil: no config file at all.
    ///   - clockSync: `EGGTIMER_CLOCK_SYNC` for every child (`synchronised`), or nil.
    ///   - sharesState: Whether every child gets ``state`` as `XDG_STATE_HOME`; false: each child
    ///     a private one of its own, so one timer's record is not another's business.
    ///   - keypad: Whether to make the keypads' input root now (``makeKeypadRoot()``), so a kitchen
    ///     started before the first ``addKeypad(_:)`` reads it.
    public init(config: String? = nil, clockSync: String? = nil, sharesState: Bool = true, keypad: Bool = false) {
        (self.clockSync, self.sharesState) = (clockSync, sharesState)
        defer { if keypad { makeKeypadRoot() } }
        if let config {
            configPath = scratch + "/config"
            writeConfig("device = \(device("alarm"))\n" + config)
        } else {
            configPath = nil
        }
    }

    deinit {
        _ = command(["cancel", "--all"])
        endStragglers()
        for writer in keypadWriters.values { close(writer) }
        for folder in [runtime, state, scratch] + (keypadRoot.map { [$0] } ?? []) { removeDirectory(folder) }
    }

    /// Ends with SIGKILL every process still running in this house.
    ///
    /// That is, whose environment's `XDG_RUNTIME_DIR` is ``runtime``, and `cancel --all` could
    /// not reach: a timer a kitchen
    /// started in a test that failed midway, one whose socket the test took away. Such a timer
    /// rang on for as long as the machine ran (found: a `1s` timer ringing 45 minutes later).
    /// C: `/proc/PID/environ` (only this user's are readable), `kill`.
    private func endStragglers() {
        let mark = Array("XDG_RUNTIME_DIR=\(runtime)".utf8)
        for entry in folderEntries("/proc") where entry.isFolder {
            guard let pid = pid_t(entry.name), pid != getpid(), let environ = readFile("/proc/\(pid)/environ")
            else { continue }
            if environ.split(separator: 0).contains(where: { $0.elementsEqual(mark) }) { kill(pid, SIGKILL) }
        }
    }

    /// What every child of the house gets on top of its fixed environment.
    public var environment: [String: String] {
        var environment = ["XDG_RUNTIME_DIR": runtime]
        environment["XDG_STATE_HOME"] = sharesState ? state : nil
        environment["EGGTIMER_CONFIG"] = configPath
        environment["EGGTIMER_CLOCK_SYNC"] = clockSync
        environment[Self.inputRootVariable] = keypadRoot
        return environment
    }

    /// ``environment`` with `XDG_RUNTIME_DIR` a folder others may use (mode 0755, as one left
    /// over from `su` or made by another user): a runtime folder eggtimer refuses.
    /// - Returns: The environment.
    public func openRuntimeEnvironment() -> [String: String] {
        let open = runtime + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o755) == 0)
        var environment = environment
        environment["XDG_RUNTIME_DIR"] = open
        return environment
    }

    /// The runtime folder the timers' sockets are in.
    public var sockets: String { runtime + "/eggtimer" }
    /// The records' folder.
    public var records: String { state + "/eggtimer" }

    /// Replaces the config file's text.
    /// - Precondition: The house has a config file.
    public func writeConfig(_ text: String) {
        guard let configPath else { preconditionFailure("this house has no config file") }
        writeFile(configPath, Array(text.utf8), mode: 0o600)
    }

    /// Adds lines to the config file.
    /// - Precondition: The house has a config file.
    public func appendConfig(_ text: String) {
        guard let configPath else { preconditionFailure("this house has no config file") }
        writeFile(configPath, (readFile(configPath) ?? []) + Array(text.utf8), mode: 0o600)
    }

    /// The file PCM that writes into `<scratch>/<capture>.raw`, as `-D` takes it.
    public func device(_ capture: String) -> String { "file:'\(scratch)/\(capture).raw',raw" }

    /// The size of a capture so far, in bytes (`alarm`: the config file's device).
    public func captured(_ capture: String = "alarm") -> Int { readFile(scratch + "/" + capture + ".raw")?.count ?? 0 }

    /// eggtimer with `arguments`, in the house, run to its end.
    public func command(_ arguments: [String], launcher: [String] = []) -> Eggtimer.Finished {
        runEggtimer(arguments, environment: environment, launcher: launcher)
    }

    /// A timer with `arguments` and `--json`, ringing on `-D null` or into the file PCM `capture`.
    public func timer(_ arguments: [String], capture: String? = nil) -> PipedChild {
        PipedChild(arguments + ["--json", "-D", capture.map(device) ?? "null"], environment: environment)
    }

    /// `eggtimer kitchen` with `arguments`, its log on a pipe.
    public func kitchen(_ arguments: [String] = []) -> PipedChild {
        PipedChild(["kitchen"] + arguments, environment: environment)
    }

    /// The arguments that put a kitchen or a timer on the house bus of a broker on 127.0.0.1.
    /// - Parameters:
    ///   - port: The broker's port.
    ///   - node: The `--node` name, or nil for the default.
    /// - Returns: `--mqtt URL` and, with a node, `--node NODE`.
    public func bus(port: UInt16, node: String? = nil) -> [String] {
        ["--mqtt", "mqtt://127.0.0.1:\(port)"] + (node.map { ["--node", $0] } ?? [])
    }

    /// The status of the timer whose socket is `label`, from its control socket.
    public func status(_ label: String) -> TimerStatus? {
        (try? ControlClient.exchange(ControlRequest.status.line, label: label, folder: sockets))
            .flatMap(TimerStatus.init(line:))
    }

    /// The labels of the timers that answer on their sockets, sorted, from `status --json`.
    public func runningLabels() -> [String] {
        let listed = command(["status", "--json"]).stdout
        return listed.split(separator: "\"label\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }.sorted()
    }

    /// A timer's log beside the records, named by its label's key (`Soft` → `soft.log`).
    public func log(_ label: String) -> String { readText(records + "/" + LabelRule.key(label) + ".log") }

    /// The record file of the timer labelled `label` (`soft.timer`: named by its key) as text, or nil.
    public func record(_ label: String) -> String? {
        readFile(records + "/" + LabelRule.key(label) + ".timer").map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes a record by hand (the folder is made 0700 as eggtimer makes it).
    public func write(_ name: String, _ text: String) {
        mkdir(records, 0o700)
        writeFile(records + "/" + name + ".timer", Array(text.utf8))
    }

    /// Every file in the records' folder.
    public func files() -> Set<String> { Set(folderEntries(records).map(\.name)) }

    /// Starts a timer with `arguments` (as ``timer(_:capture:)``, in `environment` if given), waits
    /// until it has started and kills it with SIGKILL, leaving its record.
    /// - Returns: The killed timer's pid.
    /// - Throws: `TestFailure` when it does not start or does not die of SIGKILL.
    public func killedTimer(_ arguments: [String], environment: [String: String]? = nil) throws(TestFailure) -> pid_t {
        let timer = PipedChild(arguments + ["--json", "-D", "null"], environment: environment ?? self.environment)
        guard timer.expect(#""event":"started""#, until: .now + .seconds(15)) else {
            throw TestFailure("the timer did not start: \(timer.stdout)")
        }
        kill(timer.pid, SIGKILL)
        let ended = timer.finish()
        guard ended == .signaled(SIGKILL) else { throw TestFailure("the killed timer ended with \(ended)") }
        return timer.pid
    }
}
