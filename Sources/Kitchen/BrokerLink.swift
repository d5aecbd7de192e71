package import HouseBus
package import TimerEngine

/// The parts of the timers' MQTT link that the kitchen's broker side uses, lent by the
/// executable, where that link (`BusLink`) lives until it has a library of its own.
///
/// A plain value; owned by the main thread.
package struct BrokerLink {
    /// Makes a client, not started yet, for the MQTT options, the client id's middle part and
    /// the Last Will; throws `ExitStatus` after one line on standard error (64 for a bad URL, 66
    /// for a file that cannot be read, 69 without libmosquitto).
    package var connect: (BusOptions, _ clientName: String, _ will: BusMessage?) throws(ExitStatus) -> BusClient
    /// How long the end may wait for the last messages to reach the broker.
    package var finishLimit: Duration

    /// - Parameters:
    ///   - connect: Makes a client (see ``connect``).
    ///   - finishLimit: How long the end may wait for the last messages.
    package init(
        connect: @escaping (BusOptions, _ clientName: String, _ will: BusMessage?) throws(ExitStatus) -> BusClient,
        finishLimit: Duration
    ) {
        (self.connect, self.finishLimit) = (connect, finishLimit)
    }
}
