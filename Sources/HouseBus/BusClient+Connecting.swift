import CMosquitto
import Glibc
import SystemKit

extension BusClient {
    /// Makes a fresh handle and starts a connect worker with it; on failure reports and backs off.
    func beginAttempt(at now: ContinuousClock.Instant) {
        let handle: OpaquePointer
        do {
            handle = try MosquittoConnection.makeHandle(settings: settings, version: version, library: library)
        } catch {
            lose(error.message, at: now)
            return
        }
        let keepalive = Int32(clamping: max(5, settings.keepalive.components.seconds))
        let started = ConnectAttempt.start(
            handle: handle, library: library, host: settings.address.host, port: Int32(settings.address.port),
            keepalive: keepalive, deadline: now + settings.connectLimit)
        switch started {
        case .success(let attempt): phase = .connecting(attempt)
        case .failure(let error):
            lose(
                "cannot start connecting to the broker: \(error.function): \(sentence(errorText(error.code)))", at: now)
        }
    }

    /// Takes a finished worker's result, or abandons the worker at its deadline.
    func serviceAttempt(_ attempt: ConnectAttempt, at now: ContinuousClock.Instant) {
        guard let (handle, outcome) = attempt.takeOutcome() else {
            if now >= attempt.deadline {
                lose(
                    "broker \(settings.address.text) did not answer within \(seconds(settings.connectLimit)) "
                        + "(resolving or connecting)", at: now)
            }
            return
        }
        let connection = MosquittoConnection(adopting: handle, library: library)
        guard outcome.code == MOSQ_ERR_SUCCESS.rawValue else {
            lose(connectFailure(outcome), at: now)
            return
        }
        adopt(connection)
        phase = .handshaking(connection, deadline: now + settings.connectLimit)
        lastMisc = now
    }

    /// One line for a failed `mosquitto_connect`.
    private func connectFailure(_ outcome: ConnectAttempt.Outcome) -> String {
        let address = settings.address.text
        if outcome.code == MOSQ_ERR_EAI.rawValue {
            return "cannot resolve the broker's host \"\(settings.address.host)\" (\(address))"
        }
        return "cannot connect to broker \(address): \(library.text(outcome.code, errorNumber: outcome.errorNumber))"
    }

    /// The broker refused MQTT 5: says so once (``BusEvent/notice(_:)``), drops the connection and
    /// tries again at once with MQTT 3.1.1, kept for every later attempt.
    func fallBackToMQTT311(at now: ContinuousClock.Instant) {
        version = .v311
        pendingEvents.append(
            .notice(
                "broker \(settings.address.text) does not speak MQTT 5: using MQTT 3.1.1 with it "
                    + "(retained states without message expiry)"))
        phase = .waiting(until: now)
        lastMisc = nil
        connackCode = nil
        disconnectCode = nil
    }

    /// Reports `reason` once, drops the connection or abandons the connect worker, and waits for
    /// the backoff.
    func lose(_ reason: String, at now: ContinuousClock.Instant) {
        if case .connecting(let attempt) = phase { attempt.abandon(library: library) }
        pendingEvents.append(.connectionLost(reason))
        phase = .waiting(until: now + backoff.next())
        lastMisc = nil
        connackCode = nil
        disconnectCode = nil
    }
}

/// A C library's message as part of a sentence: no final `.`, the first letter lower-case unless
/// the word is an acronym (`Connection refused.` → `connection refused`, `TLS error` stays).
func sentence(_ text: String) -> String {
    var text = Substring(text)
    while text.last == "." || text.last == " " { text.removeLast() }
    guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true else {
        return String(text)
    }
    return first.lowercased() + text.dropFirst()
}
