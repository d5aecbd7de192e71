import HouseBus
import Testing
import TimerModel

@Suite struct BusCommandTests {
    @Test(arguments: [
        ("status", Command.status), ("ack", .acknowledge), ("cancel", .cancel), ("snooze", .snooze(nil)),
        ("pause", .pause),
        ("resume", .resume), ("add 60", .add(.seconds(60))), ("add -60", .add(.seconds(-60))),
        ("  ack\n", .acknowledge),
        ("\tadd   90 ", .add(.seconds(90))),
        ("add 86400", .add(.seconds(86_400))), ("add -86400", .add(.seconds(-86_400))),
    ])
    func knownCommandsParse(text: String, expected: Command) throws {
        #expect(try BusCommand.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("", BusCommandError.empty), ("   \n", .empty), ("ACK", .unknown("ACK")), ("ack now", .unknown("ack now")),
        ("stop", .unknown("stop")), ("status now", .unknown("status now")), ("STATUS", .unknown("STATUS")),
        ("add", .unknown("add")), ("add 1 2", .unknown("add 1 2")),
        ("add sixty", .badAmount("sixty")), ("add 0", .badAmount("0")), ("add 86401", .badAmount("86401")),
        ("add 99999999999999999999", .badAmount("99999999999999999999")), ("add 1.5", .badAmount("1.5")),
        ("caf\u{E9}", .notASCII), ("{\"cmd\":\"ack\"}", .unknown("{\"cmd\":\"ack\"}")),
    ])
    func garbageIsRefusedWithAReason(text: String, expected: BusCommandError) {
        #expect(throws: expected) { try BusCommand.parse(Array(text.utf8)) }
    }

    /// The boundary numbers every parser of outside bytes is tried with: refused with the amount
    /// named, never a trap (`abs(Int.min)` once crashed the running timer).
    @Test(arguments: [
        "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "9223372036854775808",
        "-2147483648", "2147483647", "4294967296", "-86401", "86401", "-0", "+0", "0x10", "1e999", "-1e999",
        "1e3", "nan", "NaN", "inf", "-inf", "1.0", "-0.0",
    ])
    func boundaryAmountsAreRefusedNamed(amount: String) {
        #expect(throws: BusCommandError.badAmount(amount)) { try BusCommand.parse(Array("add \(amount)".utf8)) }
    }

    @Test(arguments: [("add 1", 1), ("add -1", -1), ("add +1", 1), ("add 86399", 86_399), ("add -86399", -86_399)])
    func boundaryAmountsInRangeAreTaken(text: String, seconds: Int64) throws {
        #expect(try BusCommand.parse(Array(text.utf8)) == .add(.seconds(seconds)))
    }

    @Test func binaryAndOversizedPayloadsAreRefused() throws {
        #expect(throws: BusCommandError.notASCII) { try BusCommand.parse([0x61, 0x63, 0x6B, 0xFF]) }
        #expect(throws: BusCommandError.tooLong(bytes: 65)) { try BusCommand.parse(Array(repeating: 0x20, count: 65)) }
        #expect(try BusCommand.parse(Array(repeating: 0x20, count: 61) + Array("ack".utf8)) == .acknowledge)
    }

    @Test func reasonsAreOneLineAndShowNoControlCharacters() {
        let error = BusCommandError.unknown("a\u{1B}[2Jb")
        #expect(error.message == "unknown command \"a?[2Jb\"")
        #expect(BusCommandError.tooLong(bytes: 100).message.contains("100 bytes"))
    }
}
