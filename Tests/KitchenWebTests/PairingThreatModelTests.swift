import Glibc
import TestSupport
import Testing
import TextCoding

@testable import KitchenWeb

/// The pairing threat model of issue 29, one test a threat.
///
/// The attacker is someone on the Wi-Fi (or another user on loopback) who saw a used or an old
/// code, guesses codes, or reads the kitchen's files. Every clock is injected (instants passed in); nothing sleeps.
@Suite struct PairingThreatModelTests {
    let t0 = ContinuousClock.now
    let household = "192.0.2.10"
    let stranger = "198.51.100.7"

    /// A pairing state whose first code is `first` and, when asked again, `second`.
    func pairing(first: UInt32, second: UInt32 = 0) -> Pairing {
        // A code takes 32 random bytes (the first acceptable 4-byte draw of them is used).
        let random = ScriptedRandom(draw(first) + Array(repeating: 0, count: 28) + draw(second))
        return Pairing(hash: fakeDigest, random: random.bytes)
    }

    @Test func aCodeUsedOnceIsRefusedToEveryoneAfterAndMakesNoSecondDevice() throws {
        var state = pairing(first: 314_159)
        #expect(try state.newCode(at: t0) == "314159")
        guard case .paired(let token) = state.pair(code: "314159", peer: household, at: t0 + .seconds(30)) else {
            Issue.record("the household's phone is not paired")
            return
        }
        state.devicesChanged = false
        // Someone who watched it being typed, a second later and nine minutes later, and the
        // same phone sending it again: none gets a token.
        for (peer, after) in [(stranger, 31), (stranger, 570), (household, 32)] {
            #expect(state.pair(code: "314159", peer: peer, at: t0 + .seconds(after)) == .noValidCode)
        }
        #expect(state.deviceHashes.count == 1 && !state.devicesChanged, "no second device was kept")
        #expect(state.validCode(at: t0 + .seconds(31)) == nil)
        #expect(state.session(token: token) != nil, "the first phone stays paired")
    }

    @Test func aCodeIsRefusedFromTenMinutesOnEvenWithTriesLeft() throws {
        var state = pairing(first: 271_828)
        _ = try state.newCode(at: t0)
        #expect(state.pair(code: "000000", peer: household, at: t0 + .seconds(599)) == .wrong(triesLeft: 4))
        #expect(state.validCode(at: t0 + .seconds(600) - .nanoseconds(1))?.triesLeft == 4)
        for after in [Duration.seconds(600), .seconds(601), .seconds(86_400)] {
            #expect(state.validCode(at: t0 + after) == nil)
            #expect(state.pair(code: "271828", peer: household, at: t0 + after) == .noValidCode, "\(after)")
        }
        #expect(state.deviceHashes.isEmpty)
        // Tries on a dead code count nothing against the peer: the household is not locked out.
        for second in 0..<10 {
            #expect(state.pair(code: "271828", peer: household, at: t0 + .seconds(700 + second)) == .noValidCode)
        }
        let next = try state.newCode(at: t0 + .seconds(720))
        guard case .paired = state.pair(code: next, peer: household, at: t0 + .seconds(721)) else {
            Issue.record("a fresh code after an expired one does not pair")
            return
        }
    }

    @Test func afterFiveWrongTriesEvenTheRightCodeIsRefused() throws {
        var state = pairing(first: 161_803)
        _ = try state.newCode(at: t0)
        // Five wrong tries from five addresses (the per-peer limit never trips): the code dies.
        for index in 0..<5 {
            let outcome = state.pair(code: "00000\(index)", peer: "203.0.113.\(index)", at: t0 + .seconds(index))
            #expect(outcome == .wrong(triesLeft: 4 - index))
        }
        #expect(state.validCode(at: t0 + .seconds(5)) == nil)
        #expect(state.pair(code: "161803", peer: household, at: t0 + .seconds(6)) == .noValidCode)
        #expect(state.deviceHashes.isEmpty)
        #expect(state.takeLines().filter { $0.contains("the code is gone after 5 wrong tries") }.count == 1)
    }

    @Test func wrongCodesFromOnePeerAreRateLimitedAndLoggedOnce() throws {
        var state = pairing(first: 424_242, second: 135_790)
        _ = try state.newCode(at: t0)
        for second in 0..<5 {
            let outcome = state.pair(code: "00000\(second)", peer: stranger, at: t0 + .seconds(second))
            #expect(outcome == .wrong(triesLeft: 4 - second))
        }
        // The household makes a new code; the stranger, even guessing it right, is refused for
        // the rest of the minute, and those refusals cost the household's code no try.
        #expect(try state.newCode(at: t0 + .seconds(10)) == "135790")
        for second in [20, 30, 59] {
            #expect(state.pair(code: "135790", peer: stranger, at: t0 + .seconds(second)) == .rateLimited)
            #expect(state.pair(code: "999999", peer: stranger, at: t0 + .seconds(second)) == .rateLimited)
        }
        #expect(state.validCode(at: t0 + .seconds(59))?.triesLeft == 5)
        let lines = state.takeLines()
        #expect(lines.filter { $0.contains("a wrong pairing code from \(stranger)") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("\(stranger) refused for the rest of the minute") }.count == 1, "\(lines)")
        #expect(!lines.contains { $0.contains("135790") || $0.contains("424242") }, "no code is logged: \(lines)")
        guard case .paired = state.pair(code: "135790", peer: household, at: t0 + .seconds(59)) else {
            Issue.record("the household is refused because of a stranger")
            return
        }
        #expect(state.deviceHashes.count == 1)
    }
}
