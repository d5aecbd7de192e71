import AlarmAudio
import Glibc

/// Carries the alarm player's reports from its thread to the event loop: queues them under a
/// lock and writes one byte to a pipe whose read end is in the loop's poll set.
///
/// Each report is tagged with the player start it belongs to, so that a report from a stopped
/// run is dropped instead of confusing the next one.
///
/// The queue is guarded by a `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux the
/// latter locks inside the uninstrumented runtime, so ThreadSanitizer cannot see it and reports
/// every guarded access as a race (`make sanitize-thread` did).
final class AudioInbox: @unchecked Sendable {  // `queue` is only touched with `lock` held
    /// The pipe's read end, for the poll set (nonblocking).
    let descriptor: Int32
    private let writeDescriptor: Int32
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var queue: [(generation: Int, event: AlarmPlayer.Event)] = []

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
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        close(descriptor)
        close(writeDescriptor)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Queues `event`; called on the player's thread.
    func post(_ event: AlarmPlayer.Event, generation: Int) {
        pthread_mutex_lock(lock)
        queue.append((generation, event))
        pthread_mutex_unlock(lock)
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Takes every queued report of `generation`, dropping older ones; called on the loop's thread.
    func take(generation: Int) -> [AlarmPlayer.Event] {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
        pthread_mutex_lock(lock)
        let taken = queue
        queue.removeAll()
        pthread_mutex_unlock(lock)
        return taken.filter { $0.generation == generation }.map(\.event)
    }
}
