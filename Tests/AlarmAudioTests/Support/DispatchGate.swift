import Dispatch

/// A one-shot signal from the playback thread to the test thread.
final class DispatchGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Opens the gate; later calls do nothing more useful than the first.
    func open() { semaphore.signal() }

    /// Waits for ``open()``; `false` after 30 s (a hang, not a timing assumption).
    func wait() -> Bool { semaphore.wait(timeout: .now() + 30) == .success }
}
