import HouseBus
import Testing

@Suite struct BusClientTests {
    @Test func clientLoadsTheLibrary() throws {
        _ = try BusClient(settings: BusSettings(address: BrokerAddress(host: "127.0.0.1"), clientID: "t"))
    }
}
