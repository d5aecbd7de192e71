import Glibc

// The signalfd as a source of the event loop: each handled signal becomes its number (the
// timer's `.signal(number)`).

extension SignalSet: LoopSource {
    /// The signalfd, always polled.
    package var pollRequests: [PollRequest] { [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] }

    /// Reads every pending signal, in the order they came.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Int32]) {
        events += drain()
    }
}
