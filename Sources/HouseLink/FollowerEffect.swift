package import HouseBus
package import TimerEngine

/// What ``FollowerCore`` asks its runner (the executable's `Follower`) to do: every I/O of `follow`.
///
/// Carried out in order, on the main thread.
package enum FollowerEffect: Equatable {
    /// Subscribe to a topic filter (wildcards allowed) at QoS 1.
    case subscribe(String)
    /// Publish a message on the broker.
    case publish(BusMessage)
    /// One line on standard output (without its newline; control characters already escaped).
    case say(String)
    /// One line on standard error, after `eggtimer: ` (without its newline).
    case warn(String)
    /// Ask the player to ring, looping until stopped.
    case startRinging
    /// Ask the player to stop ringing.
    case stopRinging
    /// Ring the terminal bell once (where standard output is a terminal).
    case ringBell
    /// End the follower with this status (after leaving the broker and stopping the player).
    case exit(ExitStatus)
}
