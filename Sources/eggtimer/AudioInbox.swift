import AlarmAudio
import Glibc
import Synchronization

/// Carries the alarm player's reports from its thread to the event loop: queues them under a
/// mutex and writes one byte to a pipe whose read end is in the loop's poll set.
///
/// Each report is tagged with the player start it belongs to, so that a report from a stopped
/// run is dropped instead of confusing the next one.
final class AudioInbox: Sendable {
    /// The pipe's read end, for the poll set (nonblocking).
    let descriptor: Int32
    private let writeDescriptor: Int32
    private let queue = Mutex<[(generation: Int, event: AlarmPlayer.Event)]>([])

    /// Opens the pipe.
    /// - Returns: nil if no pipe can be made (out of descriptors).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writeDescriptor) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writeDescriptor)
    }

    /// Queues `event`; called on the player's thread.
    func post(_ event: AlarmPlayer.Event, generation: Int) {
        queue.withLock { $0.append((generation, event)) }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Takes every queued report of `generation`, dropping older ones; called on the loop's thread.
    func take(generation: Int) -> [AlarmPlayer.Event] {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
        return queue.withLock { queue in
            defer { queue.removeAll() }
            return queue.filter { $0.generation == generation }.map(\.event)
        }
    }
}
