package import AlarmAudio
package import EventLoop
import Glibc

// The alarm player as a source of the event loop: its event pipe, and its hang deadlines as next
// checks; each report becomes `.audio(event)`.

extension AlarmPlayer: LoopSource {
    /// The player's event descriptor, always polled; none without one (then ``nextCheck`` asks
    /// for a look every 10 ms).
    package var pollRequests: [PollRequest] {
        descriptor < 0 ? [] : [PollRequest(descriptor: descriptor, events: Int16(POLLIN))]
    }

    /// Takes the player's reports (and declares a hung device once its deadline passed).
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        inputs += events(at: now).map(Input.audio)
    }
}
