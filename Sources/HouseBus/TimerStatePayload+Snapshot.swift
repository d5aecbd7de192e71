public import TimerModel

// The MQTT state payload as an encoding of the one snapshot (issue 22).

extension TimerStatePayload {
    /// The retained state payload of `snapshot` on `topics`; nil for the menu (no timer runs).
    ///
    /// `silent` is the snapshot's device health's reason (``TimerSnapshot/DeviceHealth``): the
    /// device's problem while it runs, why the alarm rang unheard once it is final.
    ///
    /// Pure; any thread.
    /// - Parameters:
    ///   - snapshot: The timer as its controller sees it.
    ///   - topics: The timer's topics: the payload carries their node and label.
    ///   - instance: The publishing process's id (``newInstanceID()``), or nil.
    ///   - published: The wall clock when it is published (Unix milliseconds) and whether it is
    ///     synchronised; nil leaves `published`, `clock_synced` and `interval_s` out.
    ///   - interval: The longest the publisher lets a state go unpublished (`interval_s`, whole
    ///     seconds here); left out for a final state, which is not published again.
    public init?(
        _ snapshot: TimerSnapshot, topics: TimerTopics, instance: String?,
        published: (unixMilliseconds: Int64, synchronised: Bool)?, interval: Duration
    ) {
        guard snapshot.state != .menu else { return nil }
        self.init(
            state: snapshot.state.rawValue, label: topics.label, node: topics.node,
            durationSeconds: snapshot.total / .seconds(1), remainingSeconds: snapshot.remaining / .seconds(1),
            deadlineUnixMilliseconds: snapshot.deadlineUnixMilliseconds, instance: instance,
            publishedUnixMilliseconds: published?.unixMilliseconds, publisherClockSynchronised: published?.synchronised,
            intervalSeconds: published != nil && !snapshot.state.isFinal ? interval / .seconds(1) : nil,
            silent: snapshot.device.silentReason)
    }

    /// ``state`` in the shared vocabulary; nil for a word outside it (a newer eggtimer's, or a
    /// reader's own `offline` and `stale`).
    public var timerState: TimerState? { TimerState(rawValue: state) }
}
