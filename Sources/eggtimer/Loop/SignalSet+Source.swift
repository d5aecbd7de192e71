import Glibc
import TimerEngine

// The signalfd as a source of the event loop: each handled signal becomes `.signal(number)`.

extension SignalSet: LoopSource {
    /// The signalfd, always polled.
    var pollRequests: [PollRequest] { [PollRequest(descriptor: descriptor, events: Int16(POLLIN))] }

    /// Reads every pending signal, in the order they came.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        inputs += drain().map(Input.signal)
    }
}
