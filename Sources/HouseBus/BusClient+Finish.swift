import CMosquitto
import Glibc

extension BusClient {
    /// Ends cleanly: publishes `finalMessages` (for example availability `offline` and retained
    /// clears), unsubscribes, waits for their acknowledgements, sends DISCONNECT and waits for the
    /// broker to close, then closes; all within `limit`.
    ///
    /// Blocks the calling thread for at most `limit` (poll-based, on the broker socket; a relative
    /// poll timeout is fine for a bound this short). Loop thread only. When not connected the
    /// messages are dropped; a running connect worker is abandoned. The broker does not send the
    /// Last Will after a DISCONNECT. Afterwards the client is finished: ``pollRequest`` and
    /// ``nextCheck`` are nil and ``service(revents:at:)`` returns nothing.
    /// - Parameters:
    ///   - finalMessages: Messages to publish before disconnecting.
    ///   - limit: The longest this may block.
    /// C: `mosquitto_publish`, `mosquitto_unsubscribe`, `mosquitto_disconnect`, `mosquitto_loop_read`,
    /// `mosquitto_loop_write`.
    public func finish(publishing finalMessages: [BusMessage], limit: Duration) {
        let deadline = ContinuousClock.now + limit
        switch phase {
        case .connected(let connection):
            var awaited: Set<Int32> = []
            for message in finalMessages {
                if message.retain {
                    retained[message.topic] = nil
                    retainedTopics.removeAll { $0 == message.topic }
                }
                if let messageID = send(message, on: connection), message.qos > 0 { awaited.insert(messageID) }
            }
            // Unsubscribed (UNSUBACK) and every message before it read: nothing unread is left on
            // the socket when libmosquitto closes it after DISCONNECT (readPending says why).
            var unsubscribing: Set<Int32> = []
            for subscription in subscriptions {
                var messageID: Int32 = 0
                if library.unsubscribe(connection.handle, &messageID, subscription.filter) == MOSQ_ERR_SUCCESS.rawValue
                {
                    unsubscribing.insert(messageID)
                }
            }
            drain(connection, until: deadline) {
                for case .published(let messageID) in $0 { awaited.remove(messageID) }
                return awaited.isEmpty && unsubscribing.isSubset(of: unsubscribeAcknowledged)
            }
            readPending(connection, until: deadline)
            _ = library.disconnect(connection.handle)
            drain(connection, until: deadline) { _ in false }
        case .handshaking(let connection, _):
            _ = library.disconnect(connection.handle)
            drain(connection, until: deadline) { _ in false }
        case .connecting(let attempt): attempt.abandon(library: library)
        case .idle, .waiting, .finished: break
        }
        phase = .finished
        pendingEvents = []
        lastMisc = nil
    }

    /// Reads what the broker has already sent (messages of subscriptions), answering them, until
    /// nothing more is waiting.
    ///
    /// libmosquitto closes the socket as soon as DISCONNECT is written; closing a socket with
    /// unread bytes makes Linux send a reset, and a broker that had not read the DISCONNECT yet
    /// drops it with the reset and sends the Last Will after a clean end (seen with two timers on
    /// one topic, the other one answering this one's last messages). Never waits.
    private func readPending(_ connection: MosquittoConnection, until deadline: ContinuousClock.Instant) {
        for _ in 0..<1000 {
            let socket = connection.socket
            guard socket >= 0, ContinuousClock.now < deadline else { return }
            var request = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 0) > 0, request.revents & Int16(POLLIN) != 0 else { return }
            guard library.loopRead(connection.handle, 1) == MOSQ_ERR_SUCCESS.rawValue else { return }
            if connection.socket >= 0, library.wantWrite(connection.handle) {
                guard library.loopWrite(connection.handle, 1) == MOSQ_ERR_SUCCESS.rawValue else { return }
            }
        }
    }

    /// Services `connection` with poll until `done` says so (given the events so far), the socket
    /// closes, or `deadline` passes.
    private func drain(
        _ connection: MosquittoConnection, until deadline: ContinuousClock.Instant, done: ([BusEvent]) -> Bool
    ) {
        while !done(pendingEvents) {
            let socket = connection.socket
            let left = ContinuousClock.now.duration(to: deadline)
            guard socket >= 0, left > .zero else { return }
            let write = library.wantWrite(connection.handle) ? Int16(POLLOUT) : 0
            var request = pollfd(fd: socket, events: Int16(POLLIN) | write, revents: 0)
            let milliseconds = Int32(min(60_000, (left / .milliseconds(1)).rounded(.up)))
            let ready = poll(&request, 1, max(1, milliseconds))
            if ready < 0 && errno != EINTR { return }
            if request.revents & Int16(POLLIN | POLLERR | POLLHUP | POLLNVAL) != 0 {
                if library.loopRead(connection.handle, 1) != MOSQ_ERR_SUCCESS.rawValue { return }
            }
            if connection.socket >= 0, library.wantWrite(connection.handle) {
                if library.loopWrite(connection.handle, 1) != MOSQ_ERR_SUCCESS.rawValue { return }
            }
        }
    }
}
