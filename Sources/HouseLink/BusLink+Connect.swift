import Glibc
package import HouseBus
import SystemKit
package import TimerEngine

// The link's broker connection: the client with its Last Will and subscriptions, made once at
// start. The only part of the link that touches the outside; the reducer never sees the client.

extension BusLink {
    /// Connects to the broker (asynchronously) as the timer `label` of this node: a client with
    /// the Last Will (`offline` on the availability topic) and the link's subscriptions, started.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - label: The timer's label (its control socket's); ``TimerTopics`` escapes it.
    ///   - now: The boot clock's reading.
    ///   - houseClock: The wall clock that judges staleness (``HouseClock/system``).
    /// - Returns: The link (looking) and the client, which the caller adds to the event loop and
    ///   publishes the link's effects through. Main thread.
    /// - Throws: `ExitStatus.unavailable` when libmosquitto cannot be loaded, `.usage` for an
    ///   unreadable password file or a bad URL, `.noInput` for an unreadable CA file; one line on
    ///   standard error says which.
    package static func open(
        options: BusOptions, label: String, at now: ContinuousClock.Instant, houseClock: HouseClock = .system
    ) throws(ExitStatus) -> (link: BusLink, client: BusClient) {
        let link = BusLink(
            topics: topics(options, label: label), instance: TimerStatePayload.newInstanceID(), houseClock: houseClock)
        let topics = link.topics
        let will = BusMessage(topic: topics.availability, payload: Array("offline".utf8), retain: true, qos: 1)
        let client = try connect(
            options, clientName: "\(topics.node.prefix(16))-\(topics.label.prefix(16))", will: will)
        client.subscribe(topics.command, qos: 1)
        // Its own availability too, among the node's: a Last Will of an earlier process with this node and
        // label (a power cut shorter than the broker's 1.5 × keepalive) may say offline after this one began.
        let node = NodeTopics(of: topics)
        client.subscribe(node.timerAvailabilities, qos: 1)
        // Its own state (another timer's with this node and label?), among the node's (NodeRinging).
        client.subscribe(node.timerStates, qos: 1)
        client.subscribe(node.ringing, qos: 0)  // no PUBACK to write: it is only compared
        client.subscribe(node.ackAll, qos: 1)
        client.subscribe(link.probe, qos: 1)
        client.start(at: now)
        return (link, client)
    }

    /// Makes a client for `options` (loading libmosquitto on first use); it is not started.
    /// - Parameters:
    ///   - options: The MQTT options.
    ///   - clientName: The client id's middle part (at most 40 characters, for the broker's log);
    ///     the pid and a random number make it unique.
    ///   - will: The Last Will, if any.
    /// - Returns: The client, not connecting yet.
    /// - Throws: `ExitStatus`, as ``open(options:label:at:houseClock:)`` says.
    package static func connect(_ options: BusOptions, clientName: String, will: BusMessage?) throws(ExitStatus)
        -> BusClient
    {
        let address: BrokerAddress
        do {
            address = try BrokerAddress.parse(options.url ?? "")
        } catch {
            printError("eggtimer: option '--mqtt' \(error.message)")
            throw .usage
        }
        if let caFile = options.caFile {
            // libmosquitto says only "invalid function arguments provided" for a missing file.
            // A FIFO is refused at once: libmosquitto's own open would wait for a writer for ever.
            do { close(try RegularFile.open(caFile)) } catch {
                printError("eggtimer: option '--mqtt-cafile' cannot read '\(caFile)': \(error.reason)")
                throw .noInput
            }
        }
        let password: String?
        do { password = try options.password() } catch {
            printError("eggtimer: \(error.description)")
            throw .noInput
        }
        let settings = BusSettings(
            address: address, password: password, caFile: options.caFile,
            clientID: "eggtimer-\(clientName)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
            keepalive: options.keepalive, will: will, connectLimit: .seconds(5))
        do {
            return try BusClient(settings: settings)
        } catch .libraryMissing(let text) {
            printError("eggtimer: --mqtt needs libmosquitto (apt install libmosquitto1): \(text)")
            throw .unavailable
        } catch {
            printError("eggtimer: --mqtt: \(error.message)")
            throw .unavailable
        }
    }
}
