import CMosquitto
import Glibc

extension BusClient {
    /// Points the handle's user data at this client and sets the callbacks.
    ///
    /// Loop thread, after the worker handed the handle back; libmosquitto calls them only inside
    /// the loop calls.
    /// C: `mosquitto_user_data_set`, `mosquitto_*_callback_set`.
    func adopt(_ connection: MosquittoConnection) {
        let handle = connection.handle
        library.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        library.connectCallbackSet(handle) { _, client, code in
            guard let client else { return }
            Unmanaged<BusClient>.fromOpaque(client).takeUnretainedValue().connackCode = code
        }
        library.disconnectCallbackSet(handle) { _, client, code in
            guard let client else { return }
            Unmanaged<BusClient>.fromOpaque(client).takeUnretainedValue().disconnectCode = code
        }
        library.messageCallbackSet(handle) { _, client, message in
            guard let client, let message = message?.pointee, let topic = message.topic else { return }
            let length = Int(max(0, message.payloadlen))
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            Unmanaged<BusClient>.fromOpaque(client).takeUnretainedValue().pendingEvents.append(
                .message(topic: String(cString: topic), payload: payload, retained: message.retain))
        }
        library.unsubscribeCallbackSet(handle) { _, client, messageID in
            guard let client else { return }
            Unmanaged<BusClient>.fromOpaque(client).takeUnretainedValue().unsubscribeAcknowledged.insert(messageID)
        }
        library.publishCallbackSet(handle) { _, client, messageID in
            guard let client else { return }
            Unmanaged<BusClient>.fromOpaque(client).takeUnretainedValue().pendingEvents.append(
                .published(messageID: messageID))
        }
    }

    /// Reads, writes and runs the keepalive on a live connection.
    ///
    /// Also handles CONNACK and a lost connection.
    /// C: `mosquitto_loop_read`, `mosquitto_loop_write`, `mosquitto_loop_misc`, `mosquitto_want_write`.
    func serviceConnection(_ connection: MosquittoConnection, revents: Int16, at now: ContinuousClock.Instant) {
        let handle = connection.handle
        var code = MOSQ_ERR_SUCCESS.rawValue
        var errorNumber: Int32 = 0
        if revents & Int16(POLLIN | POLLERR | POLLHUP | POLLNVAL) != 0 {
            code = library.loopRead(handle, 1)
            errorNumber = errno
        }
        if code == MOSQ_ERR_SUCCESS.rawValue, connection.socket >= 0, library.wantWrite(handle) {
            code = library.loopWrite(handle, 1)
            errorNumber = errno
        }
        if code == MOSQ_ERR_SUCCESS.rawValue, connection.socket >= 0 {
            code = library.loopMisc(handle)
            errorNumber = errno
            lastMisc = now
        }
        if let connack = connackCode {
            connackCode = nil
            if connack == 0 {
                accepted(connection)
            } else if version == .v5, connack == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) {
                // libmosquitto reports a 3.1.1 broker's CONNACK 1 (in 3.1.1's format) as 132 too.
                fallBackToMQTT311(at: now)
                return
            } else {
                lose("broker \(settings.address.text) refused the connection: \(refusal(connack))", at: now)
                return
            }
        }
        guard code != MOSQ_ERR_SUCCESS.rawValue || connection.socket < 0 else { return }
        // libmosquitto may close the socket and report why only to the disconnect callback
        // (a keepalive without PINGRESP).
        if code == MOSQ_ERR_SUCCESS.rawValue, let reported = disconnectCode { code = reported }
        lose(lossReason(code: code, errorNumber: errorNumber), at: now)
    }

    /// Why the broker refused the connection, from its CONNACK code.
    ///
    /// In 3.1.1's words where MQTT 5 has the same reason (`not authorised`), else MQTT 5's
    /// reason string.
    /// C: `mosquitto_connack_string`, `mosquitto_reason_string`.
    private func refusal(_ connack: Int32) -> String {
        var code = connack
        if version == .v5 {
            switch UInt32(clamping: connack) {
            case MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue: code = 1
            case MQTT_RC_CLIENTID_NOT_VALID.rawValue: code = 2
            case MQTT_RC_SERVER_UNAVAILABLE.rawValue: code = 3
            case MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue: code = 4
            case MQTT_RC_NOT_AUTHORIZED.rawValue: code = 5
            default:
                guard let text = library.reasonText(connack) else { return "code \(connack)" }
                return sentence(String(cString: text))
            }
        }
        // "Connection Refused: not authorised." → "not authorised".
        let text = library.connackText(code).map { String(cString: $0) } ?? "code \(code)"
        let colon = text.indices.first { text[$0...].hasPrefix(": ") }
        return sentence(String(colon.map { text[$0...].dropFirst(2) } ?? Substring(text)))
    }

    /// A failed loop call's or the disconnect callback's `code` as text.
    ///
    /// An MQTT 5 reason code (128 and up, from a broker's DISCONNECT) by its reason string, else
    /// as a `MOSQ_ERR_*` code.
    /// C: `mosquitto_reason_string`, `mosquitto_strerror`.
    private func lossText(_ code: Int32, errorNumber: Int32) -> String {
        if version == .v5, code >= 128, let text = library.reasonText(code) { return sentence(String(cString: text)) }
        return library.text(code, errorNumber: errorNumber)
    }

    /// One line for a connection that ended with `code`.
    private func lossReason(code: Int32, errorNumber: Int32) -> String {
        let address = settings.address.text
        let closed = code == MOSQ_ERR_SUCCESS.rawValue || code == MOSQ_ERR_CONN_LOST.rawValue
        if case .handshaking = phase {
            let hint: String
            switch (code == MOSQ_ERR_TLS.rawValue, settings.caFile) {
            case (false, _): hint = ""
            case (true, nil):
                hint =
                    " (does that port speak TLS? checked against the system's CA certificates; "
                    + "a private CA needs its CA file)"
            case (true, _?):
                hint =
                    " (does that port speak TLS, did this CA file sign the broker's certificate, "
                    + "and is the host name in it?)"
            }
            if closed { return "broker \(address) closed the connection during the handshake\(hint)" }
            return "broker \(address) ended the connection during the handshake: "
                + lossText(code, errorNumber: errorNumber) + hint
        }
        if closed { return "broker \(address) closed the connection" }
        return "lost the connection to broker \(address): \(lossText(code, errorNumber: errorNumber))"
    }

    /// CONNACK 0: the connection is up; subscriptions and the retained table are queued again.
    private func accepted(_ connection: MosquittoConnection) {
        phase = .connected(connection)
        backoff.reset()
        pendingEvents.append(.connected)
        for subscription in subscriptions {
            _ = library.subscribe(connection.handle, nil, subscription.filter, subscription.qos)
        }
        for topic in retainedTopics {
            if let message = retained[topic] { _ = send(message, on: connection) }
        }
    }
}
