import Glibc
import HouseBus
import KitchenWeb
import SystemKit
import TimerEngine
import TimerModel
import TimerText
import WebServer

// The kitchen's side of `--http` (issue 29): the server opened as one more source of the loop,
// the starts its handler queued handed to `start(_:from: .web)` after each round, the picture
// sent to the event streams when it changed, and with `--mqtt` the house's timers from their
// retained states.

extension Kitchen {
    /// The largest certificate or key file read for `--http-cert` and `--http-key`, in bytes.
    static let tlsFileLimit = 64 * 1024

    /// Opens the HTTP server on `--http` and keeps it in ``web``.
    ///
    /// Main thread, before the loop runs. Prints one line on failure.
    /// - Returns: The server's loop source.
    /// - Throws: ``ExitStatus/usage`` (64) for `--http-cert` without `--http-key` or the other way
    ///   round; ``ExitStatus/noInput`` (66) when a TLS file cannot be read; ``ExitStatus/unavailable``
    ///   (69) when the server cannot start (libmicrohttpd missing, the address in use, no TLS).
    /// - Precondition: `--http` was given.
    func openWeb() throws(ExitStatus) -> KitchenWebFront {
        let web = settings.web
        guard let address = web.address else { preconditionFailure("openWeb without --http") }
        var server = HTTPServer.Settings(address: address, port: web.port)
        server.bodyLimit = RequestGuard.bodyLimit
        switch (web.certFile, web.keyFile) {
        case (nil, nil): break
        case (let cert?, let key?):
            guard let certificate = Self.readTLSFile(cert, option: "--http-cert"),
                let privateKey = Self.readTLSFile(key, option: "--http-key")
            else { throw .noInput }
            server.tls = HTTPServer.TLS(certificate: certificate, key: privateKey)
        case (nil, _?):
            printError("eggtimer: --http-key needs --http-cert")
            throw .usage
        case (_?, nil):
            printError("eggtimer: --http-cert needs --http-key")
            throw .usage
        }
        let opened: KitchenWebFront
        do throws(HTTPServerError) {
            opened = try KitchenWebFront(kitchen: self, settings: server)
        } catch {
            printError("eggtimer: kitchen: --http \(Self.shown(address, port: web.port)): \(error.description)")
            throw .unavailable
        }
        self.web = opened
        if let bus { bus.client.subscribe("\(settings.bus.prefix)/+/+/state", qos: 1) }
        let scheme = server.tls == nil ? "http" : "https"
        say("kitchen: HTTP API on \(scheme)://\(Self.shown(address, port: opened.server.port))/")
        if server.tls == nil, address != "127.0.0.1", address != "::1" {
            say("warning: HTTP without TLS: the session cookie crosses the network in clear (--http-cert, --http-key)")
        }
        return opened
    }

    /// The kitchen's page as a household's browser reaches it, for Home Assistant's device link
    /// (`configuration_url`, issue 45): `http://` (`https://` with `--http-cert`), the host, the
    /// port, `/`.
    ///
    /// The host: the address `--http` names; for an address of every interface (`0.0.0.0`,
    /// `::`), the first `--http-host` name, else `HOSTNAME.local` (the name mDNS answers for a
    /// Raspberry Pi OS or Debian box with avahi, which the `Host` check accepts). Pure.
    /// - Parameters:
    ///   - web: The `--http…` options.
    ///   - hostname: This machine's name (`gethostname`), nil or empty when unknown.
    /// - Returns: The URL; nil without `--http`, with port 0 (any free one: not known before the
    ///   server starts), or for an address of every interface with neither name.
    static func pageURL(_ web: WebOptions, hostname: String?) -> String? {
        guard let address = web.address, web.port != 0 else { return nil }
        let scheme = web.certFile == nil ? "http" : "https"
        let host: String
        if address == "0.0.0.0" || address == "::" {
            if let name = web.names.first {
                host = name
            } else if let hostname, !hostname.isEmpty {
                host = hostname + ".local"
            } else {
                return nil
            }
            return "\(scheme)://\(host):\(web.port)/"
        }
        return "\(scheme)://\(shown(address, port: web.port))/"
    }

    /// `ADDRESS:PORT`, an IPv6 address in brackets.
    static func shown(_ address: String, port: UInt16) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    /// Reads a PEM file of at most ``tlsFileLimit`` bytes, or says why not (one line).
    ///
    /// Opened as every file named in options is (``RegularFile/open(_:)``): a FIFO or a device is
    /// refused, never waited on.
    /// - Returns: The text; nil after the line was printed.
    static func readTLSFile(_ path: String, option: String) -> String? {
        let descriptor: Int32
        do { descriptor = try RegularFile.open(path) } catch {
            printError("eggtimer: \(option): cannot read '\(path.controlCharactersAsQuestionMarks())': \(error.reason)")
            return nil
        }
        defer { Glibc.close(descriptor) }
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(descriptor, limit: tlsFileLimit) } catch {
            printError("eggtimer: \(option): cannot read '\(path.controlCharactersAsQuestionMarks())': \(error.text)")
            return nil
        }
        guard bytes.count <= tlsFileLimit else {
            printError(
                "eggtimer: \(option): '\(path.controlCharactersAsQuestionMarks())' is larger than \(tlsFileLimit) bytes"
            )
            return nil
        }
        let marker = Array("-----BEGIN ".utf8)
        let marked =
            bytes.count >= marker.count
            && (0...(bytes.count - marker.count)).contains { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
        guard marked, let text = String(validating: bytes, as: UTF8.self) else {
            printError("eggtimer: \(option): '\(path.controlCharactersAsQuestionMarks())' is not PEM text")
            return nil
        }
        return text
    }

    /// The picture the API and the page show: this box's followed timers, then (with `--mqtt`)
    /// the house's from their retained states, stale ones left out.
    var webPicture: WebPicture {
        let node = settings.bus.nodeName
        let now = wallMilliseconds()
        let local = core.timers.values.map { KitchenAPI.timeLeft(of: KitchenAPI.timer($0, node: node), atWall: now) }
        let house = web?.house.shown(atWall: now) ?? []
        return KitchenAPI.picture(
            node: node, presets: settings.presets, local: local,
            house: house.map { KitchenAPI.timeLeft(of: $0, atWall: now) })
    }

    /// After each round of the loop: the queued starts handed to ``start(_:from:)`` and actions to
    /// ``act(_:from:)``, the picture
    /// sent to the streams if it changed (and to new streams in any case), then the server run
    /// once more so that answers given outside its run go out now.
    func webRound() {
        guard let web else { return }
        let starts = web.pendingStarts
        web.pendingStarts = []
        for pending in starts {
            do throws(UsageError) {
                let request = try StartRequest.parse(
                    pending.request.start, label: pending.request.label, presets: settings.presets.map(\.name))
                web.waiting.insert(pending.exchange)
                start(request, id: pending.request.id, from: .web(exchange: pending.exchange, form: pending.form))
            } catch {
                let response = KitchenAPI.error(400, error.description)
                let csrf = web.formCSRF.removeValue(forKey: pending.exchange)
                web.server.answer(
                    pending.exchange, with: pending.form ? web.formAnswer(response, csrf: csrf) : response)
            }
        }
        let actions = web.pendingActions
        web.pendingActions = []
        for pending in actions {
            web.waiting.insert(pending.exchange)
            act(pending.action, from: .web(exchange: pending.exchange, form: pending.form))
        }
        web.publish(webPicture)
        web.flush()
    }

    /// A broker message for the web's house picture: another node's retained timer state.
    ///
    /// An empty payload removes it. This node's own timers come from their sockets. The picture
    /// keeps its bounds (``HousePicture``): each kind of drop they cause is said in one line,
    /// once until the picture has room again.
    func webBusMessage(_ event: BusEvent) {
        guard let web, case .message(let topic, let payload, _) = event,
            let (topics, kind) = TimerTopics.parse(topic, prefix: settings.bus.prefix), kind == "state",
            topics.node != settings.bus.nodeName
        else { return }
        let key = HousePicture.Key(node: topics.node, label: topics.label)
        guard !payload.isEmpty, let state = TimerStatePayload.parse(payload), var timer = KitchenAPI.timer(state) else {
            web.house.remove(key)
            return
        }
        // The topic names the timer: a payload cannot move itself onto another's row.
        (timer.node, timer.label) = (topics.node, topics.label)
        let drops = web.house.update(
            key, timer: timer, staleAfter: state.staleAfterUnixMilliseconds, atWall: wallMilliseconds())
        for drop in drops { say(HousePicture.line(drop, for: key)) }
    }
}
