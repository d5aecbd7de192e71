import Glibc
import TimerEngine

// The control socket and its connections as a source of the event loop: the listening socket
// and every open connection are polled (a watcher with unsent bytes for POLLOUT too); a whole
// request line becomes `.control(request, connection:)`; an idle connection's time limit is the
// next check.

extension ControlInbox: LoopSource {
    /// The listening socket, then each open connection.
    var pollRequests: [PollRequest] {
        pollSet.map { PollRequest(descriptor: $0.fd, events: $0.events) }
    }

    /// Accepts and reads what is ready, then closes connections that stayed idle too long.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        // What each descriptor was when it was polled: accepting may close and reuse descriptors.
        let polled = pollSet
        for entry in polled {
            guard let revents = ready.first(where: { $0.descriptor == entry.fd })?.revents else { continue }
            inputs += self.ready(entry.connection, revents: revents, at: now)
        }
        expire(at: now)
    }
}
