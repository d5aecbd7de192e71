/// One descriptor a ``LoopSource`` asks the event loop to poll, with the `poll` events it waits
/// for (`POLLIN`, `POLLOUT`, …).
package struct PollRequest: Equatable {
    /// The descriptor, owned by the source (the loop never reads, writes or closes it).
    package let descriptor: Int32
    /// The `poll` events to wait for.
    package let events: Int16

    /// A request to poll `descriptor` for `events`.
    package init(descriptor: Int32, events: Int16) {
        (self.descriptor, self.events) = (descriptor, events)
    }
}

/// What `ppoll` reported for one descriptor of a source's requests: never an empty `revents`.
package struct PollReady: Equatable {
    /// The descriptor, as the source requested it.
    package let descriptor: Int32
    /// The `poll` result (`POLLIN`, `POLLOUT`, `POLLHUP`, `POLLERR`, `POLLNVAL`, …); not 0.
    package let revents: Int16

    /// A report of `revents` on `descriptor`.
    package init(descriptor: Int32, revents: Int16) {
        (self.descriptor, self.revents) = (descriptor, revents)
    }
}

/// Something the ``PollLoop`` takes in: a source owns its descriptors and their poll events,
/// says when it next needs a look even if none of them is ready, and says what its readiness
/// means as events (``Emitted``).
///
/// The loop asks each source for ``pollRequests`` and ``nextCheck`` before every `ppoll`, then
/// calls ``service(_:at:into:)`` on each source that had a descriptor ready or whose
/// ``nextCheck`` passed, in the order the sources were added; a source that is
/// ``isFinished`` afterwards is dropped from the loop. A new input is one new conforming type (and
/// its events) added to the loop with ``PollLoop/add(_:)``, or with ``PollLoop/add(_:as:)`` when
/// its own events (a signal number, a file name) are mapped to the loop's.
///
/// Owned by the loop's thread; not thread-safe. A source never blocks.
package protocol LoopSource<Emitted>: AnyObject {
    /// What the source's readiness means: the loop's event type (the timer's `Input`), or the
    /// source's own (`Never` for a source that only wakes the loop). Named apart from the
    /// sources' own `Event` types (the alarm player's), which it would otherwise capture.
    associatedtype Emitted
    /// The descriptors to poll this round with their events; empty to poll none (then only
    /// ``nextCheck`` brings the source a look).
    var pollRequests: [PollRequest] { get }
    /// When the source must be looked at even if none of its descriptors is ready (boot clock);
    /// nil: only when one is ready.
    var nextCheck: ContinuousClock.Instant? { get }
    /// Whether the source has nothing more to say: the loop drops it after this round.
    var isFinished: Bool { get }
    /// Handles what happened: the descriptors that polled ready (possibly none, when
    /// ``nextCheck`` passed) at `now`.
    /// - Parameters:
    ///   - ready: The requested descriptors `ppoll` reported on, with their `revents`.
    ///   - now: The boot clock after the `ppoll`.
    ///   - events: The round's events so far (those of the sources before this one); this
    ///     source appends what its readiness means.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into events: inout [Emitted])
}

extension LoopSource {
    /// Only when a descriptor is ready.
    package var nextCheck: ContinuousClock.Instant? { nil }
    /// Never: it stays until it is removed.
    package var isFinished: Bool { false }
}
