import Glibc
import HouseBus
import SystemKit
import TestSupport
import Testing

/// A broker that speaks only MQTT 3.1.1 (Mosquitto has no such setting, so a fake one answers
/// the handshake): the client asks with MQTT 5 first, then again with 3.1.1, and keeps 3.1.1.
@Suite struct ProtocolFallbackTests {
    /// The two ways a broker refuses MQTT 5: a 3.1.1 broker's CONNACK (return code 1, no
    /// properties) and an MQTT 5 CONNACK with reason 0x84 (unsupported protocol version).
    static let refusals: [[UInt8]] = [[0x20, 0x02, 0x00, 0x01], [0x20, 0x03, 0x00, 0x84, 0x00]]

    @Test(arguments: refusals)
    func aBrokerThatRefusesMQTT5IsAskedAgainWithMQTT311AndKeepsItForReconnects(refusal: [UInt8]) throws {
        let fake = try FakeMQTT311Broker(refusal: refusal)
        let driver = try BusDriver(testSettings(port: fake.port))
        let connects = { driver.events.filter { $0.event == .connected }.count }
        driver.start()
        #expect(driver.run(timeout: .seconds(10)) { fake.pump() || connects() == 1 })
        #expect(fake.levels == [5, 4], "protocol levels of the CONNECTs: \(fake.levels)")
        let notices = driver.events.compactMap { if case .notice(let text) = $0.event { text } else { nil } }
        #expect(
            notices == [
                "broker mqtt://127.0.0.1:\(fake.port) does not speak MQTT 5: using MQTT 3.1.1 with it "
                    + "(retained states without message expiry)"
            ])
        #expect(!driver.events.contains { isLoss($0.event) }, "\(driver.events.map(\.event))")
        // A message with an expiry goes out plainly over 3.1.1 (mosquitto_publish_v5 with
        // properties would be refused on a 3.1.1 connection).
        let state = BusMessage(
            topic: "eggtimer/kitchen/rice/state", payload: Array("{}".utf8), retain: true, qos: 0,
            expiry: .seconds(180))
        #expect(driver.client.publish(state) != nil)
        // The broker drops the connection: the client comes back with 3.1.1 straight away.
        fake.dropAll()
        #expect(driver.run(timeout: .seconds(10)) { fake.pump() || connects() == 2 })
        #expect(fake.levels == [5, 4, 4], "protocol levels of the CONNECTs: \(fake.levels)")
        #expect(driver.events.filter { if case .notice = $0.event { true } else { false } }.count == 1)
    }
}

/// A TCP listener on 127.0.0.1 that answers each CONNECT by its protocol level: 5 with
/// `refusal` (then it closes), anything else with CONNACK 0 (accepted; kept open).
///
/// Driven by ``pump()`` on the test's thread (non-blocking sockets, no thread of its own).
final class FakeMQTT311Broker {
    let port: Int
    /// The protocol level of each CONNECT, in order.
    private(set) var levels: [UInt8] = []
    private let listener: Int32
    private let refusal: [UInt8]
    /// Open connections and the bytes read from each until its CONNECT was answered.
    private var connections: [(descriptor: Int32, received: [UInt8], answered: Bool)] = []

    init(refusal: [UInt8]) throws {
        self.refusal = refusal
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        listener = socket(AF_INET, flags, 0)
        guard listener >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 8) == 0
            }
        }
        guard ready else {
            close(listener)
            throw TestFailure("bind/listen: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        dropAll()
        close(listener)
    }

    /// Accepts what is waiting, reads what arrived, answers complete CONNECTs.
    ///
    /// Never blocks.
    /// - Returns: false (so it can lead a `||` in a driver's condition).
    func pump() -> Bool {
        while true {
            let client = acceptConnection(on: listener, flags: Int32(SOCK_NONBLOCK.rawValue))
            guard client >= 0 else { break }
            connections.append((client, [], false))
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var index = 0
        while index < connections.count {
            let count = read(connections[index].descriptor, &buffer, buffer.count)
            if count == 0 {
                close(connections[index].descriptor)
                connections.remove(at: index)
                continue
            }
            if count > 0, !connections[index].answered {
                connections[index].received += buffer[0..<count]
                if let level = Self.protocolLevel(connections[index].received) {
                    levels.append(level)
                    connections[index].answered = true
                    let answer: [UInt8] = level == 5 ? refusal : [0x20, 0x02, 0x00, 0x00]
                    _ = answer.withUnsafeBytes { write(connections[index].descriptor, $0.baseAddress, $0.count) }
                    if level == 5 {
                        close(connections[index].descriptor)
                        connections.remove(at: index)
                        continue
                    }
                }
            }
            index += 1
        }
        return false
    }

    /// Closes every connection.
    func dropAll() {
        for connection in connections { close(connection.descriptor) }
        connections = []
    }

    /// The protocol level of a CONNECT packet once its variable header has arrived: after the
    /// fixed header (type, remaining length of 1–4 bytes) come the protocol name `00 04 MQTT` and
    /// the level byte.
    static func protocolLevel(_ bytes: [UInt8]) -> UInt8? {
        guard bytes.first == 0x10 else { return nil }
        var index = 1
        while index < bytes.count, index < 5, bytes[index] & 0x80 != 0 { index += 1 }
        let level = index + 1 + 6
        return level < bytes.count ? bytes[level] : nil
    }
}
