import ControlChannel
import Glibc
import KitchenWeb
import SystemKit
package import TimerEngine
import TimerText

/// `eggtimer kitchen --pair` and `eggtimer kitchen --unpair`: the web pairing asked of the running
/// kitchen through its socket (`eggtimer/3<TAB>pair`, `unpair`), one line printed.
///
/// `--pair` prints `pairing code 123456, valid for 10 minutes (5 tries)`; it needs a running
/// kitchen (the code lives in it). `--unpair` prints how many devices were unpaired; with no
/// kitchen running it removes the paired-devices file itself (``PairingStore``). Blocks the main
/// thread for at most ``answerLimit``.
package enum PairingCommand {
    /// How long the kitchen has to answer.
    static let answerLimit = Duration.seconds(2)

    /// Runs `--pair`, or `--unpair` when `unpair`.
    /// - Parameter unpair: Whether it is `--unpair`.
    /// - Returns: 0 when done; 69 when no kitchen runs (`--pair`) or it does not answer in time or
    ///   is too old to pair; 70 when it cannot make a code; 71 when the file cannot be removed.
    package static func run(unpair: Bool) -> ExitStatus {
        let name = unpair ? "--unpair" : "--pair"
        let request = unpair ? ControlRequest.unpair : ControlRequest.pair
        let reply: String
        do throws(ControlError) {
            reply = try ControlClient.exchange(
                request.line, label: KitchenCore.ownLabel, folder: KitchenInbox.folder(in: RuntimeFolder.current()),
                timeout: answerLimit)
        } catch .system(_, let code) where code == ENOENT || code == ECONNREFUSED {
            if unpair { return unpairWithoutKitchen() }
            printError("eggtimer: kitchen --pair: no kitchen runs: start eggtimer kitchen first (the code lives in it)")
            return .unavailable
        } catch {
            printError("eggtimer: kitchen \(name): the kitchen: \(error.description)")
            return .unavailable
        }
        var out = Output(descriptor: STDOUT_FILENO)
        switch answer(reply) {
        case .pairingCode(let code, let seconds, let tries):
            out.write("pairing code \(code), valid for \(seconds / 60) minutes (\(tries) tries)\n")
            return .done
        case .unpaired(let count):
            out.write(unpairedLine(count) + "\n")
            return .done
        case .refused(let text) where text.hasPrefix("not a request of the kitchen"):
            printError("eggtimer: kitchen \(name): the running kitchen is older and cannot pair: restart it")
            return .unavailable
        case .refused(let text):
            printError("eggtimer: kitchen \(name): \(text)")
            return .software
        case nil:
            printError(
                "eggtimer: kitchen \(name): the kitchen answered something else: \(reply.controlCharactersAsQuestionMarks())"
            )
            return .software
        }
    }

    /// What the kitchen answered, read.
    enum Answer: Equatable {
        case pairingCode(String, seconds: Int64, tries: Int)
        case unpaired(Int)
        case refused(String)
    }

    /// Reads the kitchen's answer line.
    ///
    /// Pure.
    /// - Parameter line: The answer, without its newline.
    /// - Returns: The answer read; nil for anything else.
    static func answer(_ line: String) -> Answer? {
        let words = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if words.first == "error", words.count >= 2 { return .refused(words[words.count - 1]) }
        guard words.first == "ok" else { return nil }
        var values: [String: String] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            values[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        if let code = values["code"], code.utf8.count == Pairing.codeDigits,
            code.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let seconds = values["seconds"].flatMap({ Int64($0) }),
            (1...86_400).contains(seconds), let tries = values["tries"].flatMap({ Int($0) }), (1...99).contains(tries)
        {
            return .pairingCode(code, seconds: seconds, tries: tries)
        }
        if let count = values["unpaired"].flatMap({ Int($0) }), (0...Pairing.deviceLimit).contains(count) {
            return .unpaired(count)
        }
        return nil
    }

    /// `unpaired 2 devices`, `unpaired 1 device`.
    static func unpairedLine(_ count: Int) -> String { "unpaired \(count) device" + (count == 1 ? "" : "s") }

    /// No kitchen runs: the file is removed here.
    private static func unpairWithoutKitchen() -> ExitStatus {
        guard let store = PairingStore.current() else {
            printError("eggtimer: kitchen --unpair: no home folder, so no paired devices")
            return .done
        }
        let count = (try? store.read().hashes.count) ?? 0
        if let code = store.remove() {
            printError("eggtimer: kitchen --unpair: cannot remove \(store.path): \(errorText(code))")
            return .osError
        }
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(unpairedLine(count) + "\n")
        return .done
    }
}
