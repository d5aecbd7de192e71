import SystemKit

/// Carries events from playback threads to the thread that owns the player: queues them under a
/// lock and rings a doorbell pipe whose read end sits in that thread's poll set.
///
/// Each event is tagged with the ringing (run) it belongs to, so the owner can drop the events of
/// ringings it has replaced or abandoned.
///
/// Thread-safe: any thread may post; ``take()`` is meant for the owning thread.
final class PlaybackInbox: Sendable {
    private let queue = Locked<[(run: UInt64, event: AlarmPlayer.Event)]>([])
    private let doorbell = WakePipe()

    /// The doorbell's read end, readable (`POLLIN`) while events wait; close-on-exec and
    /// non-blocking; -1 if no pipe could be made.
    var descriptor: Int32 { doorbell.descriptor }

    /// Queues `event` for `run` and rings the doorbell; does not block (beyond the short lock).
    /// - Parameters:
    ///   - event: What happened.
    ///   - run: The ringing it belongs to.
    func post(_ event: AlarmPlayer.Event, run: UInt64) {
        queue.withLock { $0.append((run, event)) }
        doorbell.ring()
    }

    /// Takes every queued event, oldest first, and quiets the doorbell; does not block.
    ///
    /// The doorbell is drained before the queue is taken, so an event posted meanwhile rings it
    /// again rather than waiting unnoticed.
    /// - Returns: The events with their runs.
    func take() -> [(run: UInt64, event: AlarmPlayer.Event)] {
        doorbell.drain()
        return queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}
