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
            } else {
                // "Connection Refused: not authorised." → "not authorised".
                let text = library.connackText(connack).map { String(cString: $0) } ?? "code \(connack)"
                let colon = text.indices.first { text[$0...].hasPrefix(": ") }
                let why = sentence(String(colon.map { text[$0...].dropFirst(2) } ?? Substring(text)))
                lose("broker \(settings.address.text) refused the connection: \(why)", at: now)
                return
            }
        }
        guard code != MOSQ_ERR_SUCCESS.rawValue || connection.socket < 0 else { return }
        // libmosquitto may close the socket and report why only to the disconnect callback
        // (a keepalive without PINGRESP).
        if code == MOSQ_ERR_SUCCESS.rawValue, let reported = disconnectCode { code = reported }
        lose(lossReason(code: code, errorNumber: errorNumber), at: now)
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
                + library.text(code, errorNumber: errorNumber) + hint
        }
        if closed { return "broker \(address) closed the connection" }
        return "lost the connection to broker \(address): \(library.text(code, errorNumber: errorNumber))"
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
