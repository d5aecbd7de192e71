import HouseBus
import Testing

@Suite struct BrokerAddressTests {
    @Test(arguments: [
        ("mqtt://broker", BrokerAddress(host: "broker", port: 1883)),
        ("mqtt://broker/", BrokerAddress(host: "broker", port: 1883)),
        ("mqtts://broker", BrokerAddress(secure: true, host: "broker", port: 8883)),
        ("mqtt://homeassistant.local:1884", BrokerAddress(host: "homeassistant.local", port: 1884)),
        ("mqtt://cook@10.0.0.2", BrokerAddress(user: "cook", host: "10.0.0.2", port: 1883)),
        ("mqtts://cook@broker:8884", BrokerAddress(secure: true, user: "cook", host: "broker", port: 8884)),
        ("mqtt://[::1]", BrokerAddress(host: "::1", port: 1883)),
        ("mqtt://[fe80::1%eth0]:1999", BrokerAddress(host: "fe80::1%eth0", port: 1999)),
        ("mqtt://a@[::1]:65535", BrokerAddress(user: "a", host: "::1", port: 65535)),
        ("mqtt://broker:1", BrokerAddress(host: "broker", port: 1)),
    ])
    func acceptedAddresses(text: String, expected: BrokerAddress) throws {
        #expect(try BrokerAddress.parse(text) == expected)
    }

    @Test(arguments: [
        ("http://broker", BrokerAddressError.scheme("http")),
        ("broker:1883", .scheme("broker:1883")),
        ("MQTT://broker", .scheme("MQTT")),
        ("mqtt:/broker", .scheme("mqtt:/broker")),
        ("mqtt://cook:secret@broker", .passwordInURL),
        ("mqtts://:secret@broker", .passwordInURL),
        ("mqtt://", .host("")),
        ("mqtt://@broker", .host("@broker")),
        ("mqtt://bro ker", .host("bro ker")),
        ("mqtt://-broker", .host("-broker")),
        ("mqtt://[::1", .host("[::1")),
        ("mqtt://[nothex]", .host("nothex")),
        ("mqtt://broker:", .port("")),
        ("mqtt://broker:0", .port("0")),
        ("mqtt://broker:65536", .port("65536")),
        ("mqtt://broker:18x3", .port("18x3")),
        ("mqtt://broker:-1", .port("-1")),
        ("mqtt://broker:1883/eggs", .trailing("/eggs")),
        ("mqtt://broker?x=1", .trailing("?x=1")),
        ("mqtt://[::1]x", .trailing("x")),
    ])
    func refusedAddresses(text: String, expected: BrokerAddressError) {
        #expect(throws: expected) { try BrokerAddress.parse(text) }
    }

    @Test func messagesNameTheBadTokenAndNeverThePassword() {
        #expect(BrokerAddressError.port("65536").message == "bad broker port \"65536\" (1-65535)")
        #expect(BrokerAddressError.scheme("http").message.contains("\"http\""))
        #expect(throws: BrokerAddressError.passwordInURL) { try BrokerAddress.parse("mqtt://cook:hunter2@broker") }
        #expect(!BrokerAddressError.passwordInURL.message.contains("hunter2"))
        #expect(BrokerAddressError.passwordInURL.message.contains("--mqtt-password-file"))
    }

    @Test func textShowsTheAddressWithoutAPassword() throws {
        #expect(try BrokerAddress.parse("mqtts://cook@[::1]").text == "mqtts://cook@[::1]:8883")
        #expect(try BrokerAddress.parse("mqtt://broker").text == "mqtt://broker:1883")
    }
}
