import KitchenWeb
import SystemKit
import TimerEngine
import WebServer

// The kitchen's side of web pairing (issue 29): its Pairing value made with the real random
// source and SHA-256, the paired devices read at start and written after each change
// (PairingStore), the socket's `pair` and `unpair` verbs answered, and the keypad's long press of
// `.`/Enter speaking a new code. The HTTP routes pair and check devices through these too, so
// every change is written and logged in one place.

extension Kitchen {
    /// The kitchen's pairing state: getrandom for codes and tokens, GnuTLS's SHA-256 for hashes.
    static func makePairing(devices: [String] = []) -> Pairing {
        Pairing(devices: devices, hash: TokenDigest.sha256) { byteCount in try? randomBytes(byteCount) }
    }

    /// Reads the paired devices (``PairingStore``), saying a line for each bad line skipped and
    /// one when the file cannot be read (the kitchen then starts with none paired).
    func loadPairing() {
        guard let store = PairingStore.current() else { return }
        do throws(RecordError) {
            let contents = try store.read()
            for line in contents.lines { say(line) }
            pairing = Self.makePairing(devices: contents.hashes)
            let count = pairing.deviceHashes.count
            if !contents.hashes.isEmpty { say("pairing: \(count) device\(count == 1 ? "" : "s") paired") }
        } catch {
            say("pairing: cannot read \(store.path): \(error.description); no device is paired")
        }
    }

    /// Writes the paired devices if they changed, and says the pairing's waiting lines.
    func savePairing() {
        for line in pairing.takeLines() { say(line) }
        guard pairing.devicesChanged else { return }
        pairing.devicesChanged = false
        // A revoked session's event streams end now, not at their next picture (issue 29).
        if let web, web.endStreams(notIn: Set(pairing.deviceHashes)) > 0 {
            say("pairing: the event streams of unpaired devices are ended")
        }
        guard let store = PairingStore.current() else {
            return say("pairing: no home folder: the paired devices are not kept")
        }
        do throws(RecordError) {
            if pairing.deviceHashes.isEmpty {
                if let code = store.remove() { say("pairing: cannot remove \(store.path): \(errorText(code))") }
            } else {
                try store.write(pairing.deviceHashes)
            }
        } catch {
            say("pairing: cannot write \(store.path): \(error.description)")
        }
    }

    /// A new pairing code, logged without its digits.
    /// - Returns: The code, or the reason none could be made (one line).
    func newPairingCode() -> Result<String, Pairing.Failure> {
        defer { savePairing() }
        do throws(Pairing.Failure) {
            let code = try pairing.newCode(at: clock.now())
            say("pairing: a new code, valid for 10 minutes (\(Pairing.codeTries) tries)")
            return .success(code)
        } catch {
            say("pairing: \(error.description)")
            return .failure(error)
        }
    }

    /// The socket's answer to `pair`: `ok<TAB>code=123456<TAB>seconds=600<TAB>tries=5`, or an error line.
    func pairingCodeLine() -> String {
        switch newPairingCode() {
        case .success(let code):
            "ok\tcode=\(code)\tseconds=\(Pairing.codeLifetime.components.seconds)\ttries=\(Pairing.codeTries)"
        case .failure(let failure): "error\t\(KitchenCore.Refusal.Kind.failed.rawValue)\t\(failure.description)"
        }
    }

    /// The socket's answer to `unpair`: every device forgotten, `ok<TAB>unpaired=N`.
    func unpairAllLine() -> String {
        let count = pairing.unpairAll()
        say("pairing: every device unpaired (\(count))")
        savePairing()
        return "ok\tunpaired=\(count)"
    }

    /// Pairs a device with `code` (`POST /api/pair`), keeping its token's hash on disk.
    /// - Parameters:
    ///   - code: The code as sent.
    ///   - peer: The peer's numeric address.
    /// - Returns: The outcome (``Pairing/Outcome``).
    func pairDevice(code: String, peer: String) -> Pairing.Outcome {
        defer { savePairing() }
        return pairing.pair(code: code, peer: peer, at: clock.now())
    }

    /// Forgets the device of `token` (`POST /api/unpair`).
    /// - Returns: Whether it was paired.
    @discardableResult
    func unpairDevice(token: String) -> Bool {
        defer { savePairing() }
        return pairing.unpair(token: token)
    }

    /// A long press of `.`/Enter: a new code, spoken digit by digit in the kitchen's voice
    /// (with `announce = no` only made: `eggtimer kitchen --pair` makes and prints one).
    func speakPairingCode() {
        guard voice != nil else {
            return say("key: no pairing code: the kitchen does not speak (announce = no); use eggtimer kitchen --pair")
        }
        guard case .success(let code) = newPairingCode() else { return }
        say("key: a pairing code is spoken")
        speak(phrases.pairingCode(code))
    }
}
