/// The addresses that showed a credential lately (issue 43): their connections that have not
/// shown one yet are closed for room only after every other address's.
///
/// A paired phone's event stream vouches its address; its next request, on a new connection
/// whose head is still on its way (a phone on Wi-Fi in power save can take 100 ms and more), is
/// then not the first to go when strangers from any number of addresses churn connections past
/// the unvouched budget. A stranger cannot get here without a credential. What it cannot help:
/// a flood from the phone's own address (the same NAT, proxy or machine), whose connections
/// share its budget, and a phone whose address changed since it last showed its credential.
///
/// A value; on the server's thread, like the server. Instants on the boot clock (the server's
/// ``HTTPServer/run(now:)``).
struct KnownAddresses {
    /// How long an address is remembered after its last credential.
    let memory: Duration
    /// The most addresses remembered; past it the one seen longest ago is forgotten.
    let capacity: Int
    /// When each address last showed a credential.
    private(set) var lastSeen: [String: ContinuousClock.Instant] = [:]

    /// - Parameters:
    ///   - memory: How long an address is remembered (positive).
    ///   - capacity: The most addresses remembered (positive).
    init(memory: Duration, capacity: Int) { (self.memory, self.capacity) = (memory, max(1, capacity)) }

    /// Remembers that `origin` showed a credential at `now`.
    ///
    /// O(capacity) when full.
    mutating func note(_ origin: String, at now: ContinuousClock.Instant) {
        if lastSeen[origin] == nil, lastSeen.count >= capacity,
            let oldest = lastSeen.min(by: { $0.value < $1.value })?.key
        {
            lastSeen[oldest] = nil
        }
        lastSeen[origin] = now
    }

    /// Whether `origin` showed a credential within ``memory`` before `now`.
    func contains(_ origin: String, at now: ContinuousClock.Instant) -> Bool {
        guard let seen = lastSeen[origin] else { return false }
        return now - seen <= memory
    }
}
