import AlarmAudio
import Glibc
import TimerEngine

extension AlarmPlayer {
    /// Waits for a stop already asked for (``AlarmPlayer/stop(at:)``) to be reported, at most
    /// ``AlarmPlayer/answerLimit`` (+ 10 ms): a device that has not answered by then is abandoned.
    ///
    /// For exit paths only: blocks the calling thread (the event loop's, which owns the player),
    /// polling the player's descriptor. Clock: `clock` (CLOCK_BOOTTIME).
    func waitForStop(clock: MonotonicClock) {
        let limit = clock.now().advanced(by: Self.answerLimit + .milliseconds(10))
        while isRunning, clock.now() < limit {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = clock.now().duration(to: nextCheck ?? limit)
            _ = poll(&ready, 1, Int32(clamping: max(1, left.nanoseconds / 1_000_000 + 1)))
            _ = events(at: clock.now())
        }
    }
}
