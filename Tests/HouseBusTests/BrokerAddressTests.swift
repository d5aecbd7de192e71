import HouseBus
import Testing

@Suite struct BrokerAddressTests {
    @Test func plainHostGetsTheDefaultPort() throws {
        #expect(try BrokerAddress.parse("mqtt://broker") == BrokerAddress(host: "broker", port: 1883))
    }
}
