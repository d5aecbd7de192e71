import TimerEngine

/// One descriptor a ``LoopSource`` asks the event loop to poll, with the `poll` events it waits
/// for (`POLLIN`, `POLLOUT`, …).
struct PollRequest: Equatable {
    /// The descriptor, owned by the source (the loop never reads, writes or closes it).
    let descriptor: Int32
    /// The `poll` events to wait for.
    let events: Int16
}

/// What `ppoll` reported for one descriptor of a source's requests: never an empty `revents`.
struct PollReady: Equatable {
    /// The descriptor, as the source requested it.
    let descriptor: Int32
    /// The `poll` result (`POLLIN`, `POLLOUT`, `POLLHUP`, `POLLERR`, `POLLNVAL`, …); not 0.
    let revents: Int16
}

/// Something the ``EventLoop`` takes in: a source owns its descriptors and their poll events,
/// says when it next needs a look even if none of them is ready, and says what its readiness
/// means as ``Input``s.
///
/// The loop asks each source for ``pollRequests`` and ``nextCheck`` before every `ppoll`, then
/// calls ``service(_:at:into:)`` on each source that had a descriptor ready or whose
/// ``nextCheck`` passed, in the order the sources were added; a source that is
/// ``isFinished`` afterwards is dropped from the loop. A new input is one new conforming type (and
/// its `Input` cases) added to the loop with ``EventLoop/add(_:)``.
///
/// Owned by the loop's thread; not thread-safe. A source never blocks.
protocol LoopSource: AnyObject {
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
    ///   - inputs: The round's inputs so far (those of the sources before this one); this
    ///     source appends what its readiness means.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input])
}

extension LoopSource {
    /// Only when a descriptor is ready.
    var nextCheck: ContinuousClock.Instant? { nil }
    /// Never: it stays until it is removed.
    var isFinished: Bool { false }
}
