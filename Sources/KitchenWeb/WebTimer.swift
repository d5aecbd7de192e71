package import TimerModel

/// One timer as the kitchen's HTTP API and page show it: an object of `GET /api/timers`.
///
/// Made from a followed timer's ``TimerStatus`` (this box) or a house node's MQTT state; the JSON
/// keys are those of the man page's HTTP API section (`node`, `label`, `state`, `remaining_s`,
/// `duration_s`, `deadline`, `kind`, `preset`, `phase`, `device`, `silent`, `local`). A plain value.
package struct WebTimer: Equatable, Sendable {
    /// The node it runs on (the kitchen's `BusOptions.nodeName` for this box).
    package var node: String
    /// Its label.
    package var label: String
    /// Its state, in the shared vocabulary.
    package var state: TimerState
    /// The time left.
    package var remaining: Duration
    /// Its whole length; nil when its status does not say (an older timer).
    var total: Duration?
    /// When it rings, Unix milliseconds (UTC); nil when not counting.
    var deadlineUnixMilliseconds: Int64?
    /// What it is for, with an egg's preset or a pomodoro's phase (its words:
    /// ``TimerSnapshot/Kind/word``); nil when unknown (an older timer, another node's).
    var kind: TimerSnapshot.Kind?
    /// Whether the alarm reaches no device (the page shows a warning).
    var deviceDown: Bool
    /// Whether it runs on this box (its kitchen follows it) rather than another node.
    package var isLocal: Bool
    /// Why its alarm reaches no device (once over: why it rang unheard); nil when it does or
    /// nothing says (an older timer, a house timer's state without `silent`).
    ///
    /// At most ``silentLimit`` bytes of UTF-8, without control characters, when made by
    /// `KitchenAPI.timer(_:node:)` or `KitchenAPI.timer(_:)` (``KitchenAPI/shortReason(_:)``).
    var silentReason: String? = nil

    /// The longest ``silentReason`` the picture carries, in bytes of UTF-8 (issue 43): a house
    /// timer's `silent` is any string of its MQTT state (up to its 4096 bytes), which would make
    /// one row of the picture as large as the state; 128 bytes hold `cannot open audio device
    /// 'NAME': REASON` for any ordinary device name.
    package static let silentLimit = 128
}

/// What the API's `GET /api/timers` and each event carry, and what the page renders: this node,
/// the presets, the timers (this box's first, then the house's, each sorted by node and label).
package struct WebPicture: Equatable, Sendable {
    /// A preset as the page offers it.
    struct Preset: Equatable, Sendable {
        /// Its name (`Soft`).
        var name: String
        /// Its length in whole seconds.
        var seconds: Int64
    }

    /// This box's node name.
    var node: String
    /// The egg presets, in the config's order.
    var presets: [Preset]
    /// The timers.
    package var timers: [WebTimer]
}
