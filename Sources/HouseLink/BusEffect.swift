package import HouseBus

/// What the MQTT link (``BusLink``) asks the session to do: its only way to reach the broker or
/// the user.
///
/// The session carries the effects out in order (the executable's `Session.routeBus(_:)`): it
/// publishes through the ``BusClient`` the event loop polls, and shows or logs the notices.
package enum BusEffect: Equatable {
    /// Publish `message` (never blocks: queued by the client; a retained one is sent again after
    /// every reconnect).
    case publish(BusMessage)
    /// Say a line to the user.
    case notice(Notice)

    /// A line for the user.
    package enum Notice: Equatable {
        /// Worth showing on the UI too: the broker is unreachable, or another timer holds the
        /// topics. The text has no `warning: ` (the screen and standard error put it in front).
        case warning(String)
        /// The broker is back: the warning goes away (standard error says so when no UI is on).
        case restored(String)
        /// Only for the log (standard error when no UI is on): an ignored payload.
        case log(String)
    }
}
