extension Duration {
    /// Whole seconds, rounding any fraction up (what a countdown display shows): 0.001 s → 1 s,
    /// 1 s → 1 s, zero and negative → 0 s; a time left on every front (``WholeSeconds``).
    public var roundedUpToWholeSeconds: Duration {
        let (seconds, attoseconds) = components
        if self <= .zero { return .zero }
        return .seconds(attoseconds > 0 ? seconds + 1 : seconds)
    }

    /// The duration in whole nanoseconds, rounding toward zero.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds as a `Double`, for display and JSON only.
    public var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Clock text for a countdown display, seconds rounded up: `m:ss` below one hour, `h:mm:ss`
    /// from one hour (`25:00:00` for 25 h; there is no day field).
    public var clockText: String {
        let total = WholeSeconds.left(self)
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let seconds = total % 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }
}
