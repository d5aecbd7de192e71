import Glibc
package import SystemKit

/// Waits in one `ppoll` on the descriptors of a list of ``LoopSource``s and turns what happened
/// into `Event`s (the timer's `Input`).
///
/// The loop knows no source in particular: each says which descriptors to poll, when it next
/// needs a look, and what its readiness means. It owns one of them itself, a ``BootTimer`` armed
/// at the earliest of the caller's wake-up and the sources' next checks, so the wait follows the
/// boot clock through a suspend. A timer process adds the signalfd (``SignalSet``), the alarm
/// player (its event pipe and hang deadlines), the keyboard, the control socket
/// (``ControlInbox``), the wall-clock timer (``WallTimer``), the broker (`BusClient`) and, while it
/// runs, the `--on-done` command (``ChildWatch``); `follow`, `status --mqtt` and `recover`'s
/// wait add only what they need.
///
/// Nothing here blocks except that one `ppoll`, which the timer bounds. Owned by one thread (the
/// main thread); not thread-safe.
package struct PollLoop<Event> {
    /// A source and how its events join the round's.
    private struct Entry {
        let source: any LoopSource
        let service: ([PollReady], ContinuousClock.Instant, inout [Event]) -> Void
    }

    private var entries: [Entry] = []
    private let timer: BootTimer?
    /// Reads the boot clock: the caller's clock, or a test's.
    private let now: () -> ContinuousClock.Instant
    /// The event every round ends with (the timer's `.tick`).
    private let tick: Event

    /// The sources, in the order their events come in a round (the loop's own timer first).
    package var sources: [any LoopSource] { entries.map(\.source) }

    /// Creates the loop with no source but its own boot-clock timer.
    /// - Parameters:
    ///   - bootNanoseconds: Maps a boot-clock instant to CLOCK_BOOTTIME nanoseconds, for the timer
    ///     (the timer engine's `MonotonicClock.nanoseconds(_:)`).
    ///   - now: Reads the boot clock; a seam for tests.
    ///   - tick: The event that ends every round.
    package init(
        bootNanoseconds: @escaping (ContinuousClock.Instant) -> Int64,
        now: @escaping () -> ContinuousClock.Instant = { .now }, tick: Event
    ) {
        self.now = now
        self.tick = tick
        timer = BootTimer(bootNanoseconds: bootNanoseconds)
        if let timer { add(timer) }
    }

    /// Adds `source` after the others: its events come after theirs in a round.
    /// - Parameter source: A source not in the loop yet, whose events are the loop's.
    package mutating func add<Source: LoopSource>(_ source: Source) where Source.Emitted == Event {
        entries.append(Entry(source: source) { source.service($0, at: $1, into: &$2) })
    }

    /// Adds `source`, which only wakes the loop, after the others.
    /// - Parameter source: A source not in the loop yet, with no events.
    package mutating func add<Source: LoopSource>(_ source: Source) where Source.Emitted == Never {
        entries.append(
            Entry(source: source) { ready, now, _ in
                var none: [Never] = []
                source.service(ready, at: now, into: &none)
            })
    }

    /// Adds `source` after the others, each of its own events becoming the loop's by `event`.
    /// - Parameters:
    ///   - source: A source not in the loop yet.
    ///   - event: What one of its events is as the loop's (a signal number as `.signal(n)`).
    package mutating func add<Source: LoopSource>(_ source: Source, as event: @escaping (Source.Emitted) -> Event) {
        entries.append(
            Entry(source: source) { ready, now, events in
                var own: [Source.Emitted] = []
                source.service(ready, at: now, into: &own)
                events += own.map(event)
            })
    }

    /// Removes `source` (the same object); nothing if it is not in the loop.
    package mutating func remove(_ source: any LoopSource) {
        entries.removeAll { $0.source === source }
    }

    /// The first source of type `type`, if any.
    package func first<Source: LoopSource>(_ type: Source.Type) -> Source? {
        entries.lazy.compactMap { $0.source as? Source }.first
    }

    /// Releases the loop's own timer; the other sources belong to whoever added them.
    package func close() {
        timer?.close()
    }

    /// Blocks until a source's descriptor is ready, a source's next check passes or `wake`
    /// (boot clock) passes, whichever is first: one round.
    ///
    /// A wake-up or next check already passed does not block at all.
    /// - Parameter wake: When the caller must run again even if nothing happens; nil for never.
    /// - Returns: The events in the order the sources were added (a timer process: signals, audio
    ///   reports, keys, control requests, broker reports, the `--on-done` command's end), then
    ///   always a final `tick`.
    /// - Throws: ``Errno`` if `ppoll` fails for a reason other than EINTR.
    package mutating func round(until wake: ContinuousClock.Instant?) throws(Errno) -> [Event] {
        let round = entries
        let deadline = ([wake] + round.map(\.source.nextCheck)).compactMap { $0 }.min()
        var fds: [pollfd] = []
        var owners: [Int] = []
        for (index, entry) in round.enumerated() {
            for request in entry.source.pollRequests {
                fds.append(pollfd(fd: request.descriptor, events: request.events, revents: 0))
                owners.append(index)
            }
        }
        let timeout: Duration?
        let before = now()
        if let deadline, deadline <= before {
            timeout = .zero
        } else if let timer {
            timer.arm(at: deadline)
            timeout = nil
        } else {
            timeout = deadline.map { max(.zero, before.duration(to: $0)) }  // the fallback without a timerfd
        }
        let ready: Int
        do { ready = try pollDescriptors(&fds, timeout: timeout) } catch {
            guard error.code == EINTR else { throw error }
            ready = -1
        }

        let after = now()
        var events: [Event] = []
        var next = 0
        for (index, entry) in round.enumerated() {
            var readyFds: [PollReady] = []
            while next < owners.count, owners[next] == index {
                if ready > 0, fds[next].revents != 0 {
                    readyFds.append(PollReady(descriptor: fds[next].fd, revents: fds[next].revents))
                }
                next += 1
            }
            if !readyFds.isEmpty || entry.source.nextCheck.map({ after >= $0 }) == true {
                entry.service(readyFds, after, &events)
            }
        }
        entries.removeAll { $0.source.isFinished }
        events.append(tick)
        return events
    }
}
