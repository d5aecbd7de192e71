package import EventLoop
package import HouseBus

// The MQTT broker connection as a source of the event loop: the socket (or the connect worker's
// wake pipe) with the events libmosquitto wants, its keepalive and deadlines as next checks; each
// report becomes `.bus(event)`. HouseBus knows nothing of `Input`: the wrapping is here.

extension BusClient: LoopSource {
    /// ``BusClient/pollRequest``: one descriptor, or none while idle or backing off.
    package var pollRequests: [PollRequest] {
        pollRequest.map { [PollRequest(descriptor: $0.descriptor, events: $0.events)] } ?? []
    }

    /// Reads, writes and keeps the connection alive as its readiness says.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        inputs += service(revents: ready.first?.revents ?? 0, at: now).map(Input.bus)
    }
}
