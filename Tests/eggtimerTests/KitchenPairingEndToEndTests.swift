import ControlChannel
import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end: `eggtimer kitchen --pair` and `--unpair` against the real kitchen in a
/// private runtime and state folder (its paired-devices file read at start), and without one.
@Suite struct KitchenPairingEndToEndTests {

    private let soon = { ContinuousClock.now + .seconds(20) }
    let hashA = String(repeating: "a", count: 64)
    let hashB = String(repeating: "0123456789abcdef", count: 4)

    /// The kitchen's paired-devices file in `house`'s state folder.
    func devicesFile(_ house: House) -> String { house.state + "/eggtimer/kitchen/paired-devices" }

    /// Writes the paired-devices file with `text`, its folders made private as the kitchen makes them.
    func writeDevices(_ house: House, _ text: String) {
        for folder in [house.state, house.state + "/eggtimer", house.state + "/eggtimer/kitchen"] {
            _ = mkdir(folder, 0o700)
        }
        writeFile(devicesFile(house), Array(text.utf8), mode: 0o600)
    }

    /// Whether `path` exists.
    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test func pairPrintsAFreshCodeFromTheRunningKitchenAndUnpairForgetsEveryDevice() throws {
        let house = House(config: "")
        writeDevices(house, hashA + "\nnot a hash\n" + hashB + "\n")
        let kitchen = house.kitchen(["--keys", "none"])
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        #expect(kitchen.stdout.contains("paired-devices line 2 is not a token hash: skipped"), "\(kitchen.stdout)")
        #expect(kitchen.stdout.contains("pairing: 2 devices paired"), "\(kitchen.stdout)")

        let first = house.command(["kitchen", "--pair"])
        #expect(first.termination == .exited(0), "\(first.stderr)")
        #expect(first.stderr.isEmpty)
        let words = first.stdout.split(separator: " ")
        #expect(first.stdout.hasPrefix("pairing code ") && first.stdout.hasSuffix(", valid for 10 minutes (5 tries)\n"))
        let code = words.count > 2 ? String(words[2].dropLast()) : ""
        #expect(code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber }, "\(first.stdout)")
        #expect(kitchen.expect("pairing: a new code, valid for 10 minutes (5 tries)", until: soon()))
        let pairingLines = kitchen.stdout.split(separator: "\n").filter { $0.hasPrefix("pairing:") }
        #expect(!pairingLines.contains { $0.contains(code) }, "the log never has the code: \(pairingLines)")
        let second = house.command(["kitchen", "--pair"])
        #expect(second.termination == .exited(0) && second.stdout.hasPrefix("pairing code "), "\(second.stderr)")

        let unpair = house.command(["kitchen", "--unpair"])
        #expect(unpair.termination == .exited(0), "\(unpair.stderr)")
        #expect(unpair.stdout == "unpaired 2 devices\n")
        #expect(kitchen.expect("pairing: every device unpaired (2)", until: soon()))
        #expect(!exists(devicesFile(house)), "the file is gone")
        #expect(house.command(["kitchen", "--unpair"]).stdout == "unpaired 0 devices\n")

        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func pairWithoutAKitchenExits69WithOneLine() {
        let house = House(config: "")
        let pair = house.command(["kitchen", "--pair"])
        #expect(pair.termination == .exited(69))
        #expect(pair.stdout.isEmpty)
        #expect(
            pair.stderr
                == "eggtimer: kitchen --pair: no kitchen runs: start eggtimer kitchen first (the code lives in it)\n")
    }

    @Test func unpairWithoutAKitchenRemovesTheFileItself() {
        let house = House(config: "")
        writeDevices(house, hashA + "\n" + hashB + "\n")
        let unpair = house.command(["kitchen", "--unpair"])
        #expect(unpair.termination == .exited(0), "\(unpair.stderr)")
        #expect(unpair.stdout == "unpaired 2 devices\n")
        #expect(!exists(devicesFile(house)))
        let again = house.command(["kitchen", "--unpair"])
        #expect(again.termination == .exited(0) && again.stdout == "unpaired 0 devices\n")
    }

    @Test(arguments: [
        (["kitchen", "--pair", "--unpair"], "option '--unpair' does not go with '--pair'"),
        (["kitchen", "--unpair", "--pair"], "option '--pair' does not go with '--unpair'"),
        (["status", "--pair"], "--pair"),
    ])
    func pairAndUnpairAreKitchenOptionsThatDoNotGoTogether(_ arguments: [String], _ message: String) {
        let house = House(config: "")
        let run = house.command(arguments)
        #expect(run.termination == .exited(64))
        #expect(run.stderr.contains(message) && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test func aTimerAnswersPairWithItsErrorLine() throws {
        let house = House(config: "")
        let timer = PipedChild(["60", "--label", "tea", "-D", "null"], environment: house.environment)
        var answer = ""
        try eventually(
            "the timer answers on its socket", deadline: soon(), every: .milliseconds(20),
            meanwhile: { timer.readOutput(until: $0) },
            {
                answer =
                    (try? ControlClient.exchange(ControlRequest.pair.line, label: "tea", folder: house.sockets)) ?? ""
                return !answer.isEmpty
            })
        #expect(answer == "error\ta timer pairs no devices: pairing is the kitchen's request")
        kill(timer.pid, SIGTERM)
        _ = timer.finish()
    }
}
