import Testing
import TextCoding

@testable import KitchenWeb

/// A stand-in for SHA-256 in tests (GnuTLS's comes with the WebServer target): 32 bytes that
/// depend on every input byte (FNV-1a, once per output byte with its index as the seed).
func fakeDigest(_ bytes: [UInt8]) -> [UInt8]? {
    (0..<32).map { index in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(index)
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return UInt8(truncatingIfNeeded: hash >> 24)
    }
}

/// A random source that hands out `script` in order, then bytes of a seeded SplitMix64 stream
/// (never fails unless told to: `failing`).
final class ScriptedRandom {
    var script: [UInt8]
    var state: UInt64 = 42
    var failing = false
    var asked: [Int] = []

    init(_ script: [UInt8] = []) { self.script = script }

    func bytes(_ count: Int) -> [UInt8]? {
        asked.append(count)
        if failing { return nil }
        return (0..<count).map { _ in
            if !script.isEmpty { return script.removeFirst() }
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }
}

/// The 4 big-endian bytes of `value`, as the code draws read them.
func draw(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

@Suite struct PairingTests {
    let t0 = ContinuousClock.now

    func pairing(_ random: ScriptedRandom = ScriptedRandom(), hash: @escaping Pairing.Hash = fakeDigest) -> Pairing {
        Pairing(hash: hash, random: random.bytes)
    }

    @Test func aCodeIsSixDigitsWithItsLeadingZeros() throws {
        var state = pairing(ScriptedRandom(draw(4217)))
        #expect(try state.newCode(at: t0) == "004217")
        #expect(state.validCode(at: t0)?.triesLeft == 5)
        #expect(Pairing.decimalDigits(0) == Array("000000".utf8))
        #expect(Pairing.decimalDigits(999_999) == Array("999999".utf8))
    }

    @Test func drawsAboveTheLastWholeMillionAreRejectedSoEveryCodeIsEquallyLikely() throws {
        // 4 294 000 000 and above would make 000000…967295 likelier: they are drawn again.
        let random = ScriptedRandom(draw(UInt32.max) + draw(4_294_000_000) + draw(4_293_999_999))
        var state = pairing(random)
        #expect(try state.newCode(at: t0) == "999999")
        let another = ScriptedRandom(draw(4_294_967_295) + draw(4_294_000_001) + draw(1_000_000))
        var second = pairing(another)
        #expect(try second.newCode(at: t0) == "000000")
    }

    @Test func noRandomBytesMeansNoCodeAndTheOldOneIsGone() throws {
        let random = ScriptedRandom(draw(123_456))
        var state = pairing(random)
        _ = try state.newCode(at: t0)
        random.failing = true
        #expect(throws: Pairing.Failure.self) { try state.newCode(at: t0) }
        #expect(state.validCode(at: t0) == nil)
        #expect(state.pair(code: "123456", peer: "p", at: t0) == .noValidCode)
    }

    @Test func theRightCodePairsOnceAndTheTokenIsKeptOnlyAsItsHash() throws {
        var state = pairing(ScriptedRandom(draw(123_456)))
        _ = try state.newCode(at: t0)
        guard case .paired(let token) = state.pair(code: "123456", peer: "192.0.2.1", at: t0 + .seconds(5)) else {
            Issue.record("not paired")
            return
        }
        #expect(token.utf8.count == 64 && token.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) })
        #expect(state.deviceHashes == [Hex.text(try #require(fakeDigest(Array(token.utf8))))])
        #expect(!state.deviceHashes.contains(token))
        #expect(state.devicesChanged)
        #expect(state.pair(code: "123456", peer: "192.0.2.1", at: t0 + .seconds(6)) == .noValidCode, "used up")
        #expect(state.session(token: token)?.token == token)
    }

    @Test func aCodeDiesAfterTenMinutesOnTheInjectedClock() throws {
        var early = pairing(ScriptedRandom(draw(111_111)))
        _ = try early.newCode(at: t0)
        #expect(early.validCode(at: t0 + .seconds(600) - .milliseconds(1)) != nil)
        guard case .paired = early.pair(code: "111111", peer: "p", at: t0 + .seconds(600) - .milliseconds(1)) else {
            Issue.record("refused just before its end")
            return
        }
        var late = pairing(ScriptedRandom(draw(111_111)))
        _ = try late.newCode(at: t0)
        #expect(late.pair(code: "111111", peer: "p", at: t0 + .seconds(600)) == .noValidCode)
        #expect(late.deviceHashes.isEmpty)
    }

    @Test func theFifthWrongTryKillsTheCodeEvenFromDifferentPeers() throws {
        var state = pairing(ScriptedRandom(draw(424_242)))
        _ = try state.newCode(at: t0)
        for (index, left) in [4, 3, 2, 1, 0].enumerated() {
            #expect(state.pair(code: "000000", peer: "peer\(index)", at: t0) == .wrong(triesLeft: left))
        }
        #expect(
            state.pair(code: "424242", peer: "peer9", at: t0) == .noValidCode, "the right code after five wrong ones")
        #expect(state.takeLines().contains("pairing: the code is gone after 5 wrong tries"))
    }

    @Test func aNewCodeReplacesTheOldOne() throws {
        // Each code is drawn from 32 bytes (8 draws, the first acceptable one used).
        var state = pairing(ScriptedRandom(draw(111_111) + Array(repeating: 0, count: 28) + draw(222_222)))
        _ = try state.newCode(at: t0)
        _ = try state.newCode(at: t0 + .seconds(1))
        #expect(state.pair(code: "111111", peer: "p", at: t0 + .seconds(2)) == .wrong(triesLeft: 4))
        guard case .paired = state.pair(code: "222222", peer: "p", at: t0 + .seconds(3)) else {
            Issue.record("the new code does not pair")
            return
        }
    }

    @Test(arguments: ["12345", "1234567", "123456 ", " 123456", "١٢٣٤٥٦", ""])
    func onlyTheExactDigitsMatch(_ candidate: String) throws {
        var state = pairing(ScriptedRandom(draw(123_456)))
        _ = try state.newCode(at: t0)
        #expect(state.pair(code: candidate, peer: "p", at: t0) == .wrong(triesLeft: 4))
    }

    @Test func aHashThatFailsRefusesPairingAndKeepsNoToken() throws {
        var state = pairing(ScriptedRandom(draw(123_456)), hash: { _ in nil })
        _ = try state.newCode(at: t0)
        guard case .failed(let line) = state.pair(code: "123456", peer: "p", at: t0) else {
            Issue.record("paired without a hash")
            return
        }
        #expect(line.contains("SHA-256 is not available"))
        #expect(state.deviceHashes.isEmpty && !state.devicesChanged)
        #expect(state.takeLines() == [line])
        var short = pairing(ScriptedRandom(draw(123_456)), hash: { _ in [1, 2, 3] })
        _ = try short.newCode(at: t0)
        #expect(short.pair(code: "123456", peer: "p", at: t0) != .paired(token: ""))
        #expect(short.deviceHashes.isEmpty, "a digest that is not 32 bytes is no digest")
    }

    @Test func theCSRFTokenIsTheHashOfCsrfNulAndTheToken() throws {
        var state = pairing(ScriptedRandom(draw(123_456)))
        _ = try state.newCode(at: t0)
        guard case .paired(let token) = state.pair(code: "123456", peer: "p", at: t0) else { return }
        let session = try #require(state.session(token: token))
        let expected = Hex.text(try #require(fakeDigest(Array("csrf\u{0}".utf8) + Array(token.utf8))))
        #expect(session.csrf == expected)
        #expect(state.checkCSRF(expected, for: session))
        #expect(!state.checkCSRF(nil, for: session))
        #expect(!state.checkCSRF("", for: session))
        #expect(!state.checkCSRF(String(expected.dropLast()), for: session))
        #expect(!state.checkCSRF(expected + "0", for: session))
        #expect(!state.checkCSRF(token, for: session), "the token is not its CSRF token")
    }

    @Test(arguments: [
        ([UInt8](), [UInt8](), true), ([1, 2, 3], [1, 2, 3], true), ([1, 2, 3], [1, 2, 4], false),
        ([1, 2, 3], [1, 2], false), ([1, 2], [1, 2, 3], false), ([], [0], false), ([0], [], false),
        ([255, 0], [0, 255], false), ([9, 9, 9, 9], [9, 9, 9, 9], true),
    ])
    func constantTimeEqualIsEquality(_ a: [UInt8], _ b: [UInt8], _ equal: Bool) {
        #expect(Pairing.constantTimeEqual(a, b) == equal)
        #expect(Pairing.constantTimeEqual(b, a) == equal)
    }

    /// The limit is per credential (issue 43): five wrong tokens refuse the address's codes and
    /// unpaired tokens for the rest of the minute, never a paired device's token from it.
    @Test func fiveWrongTokensInAMinuteRefuseThePeersCodesAndJunkButNotAPairedToken() throws {
        var state = pairing(ScriptedRandom(draw(123_456)))
        _ = try state.newCode(at: t0)
        guard case .paired(let token) = state.pair(code: "123456", peer: "10.0.0.9", at: t0) else { return }
        _ = state.takeLines()
        let wrong = String(repeating: "0", count: 64)
        for second in 0..<5 {
            #expect(state.authenticate(token: wrong, peer: "10.0.0.9", at: t0 + .seconds(second)) == .notPaired)
        }
        #expect(state.authenticate(token: wrong, peer: "10.0.0.9", at: t0 + .seconds(10)) == .rateLimited)
        #expect(state.authenticate(token: nil, peer: "10.0.0.9", at: t0 + .seconds(11)) == .rateLimited)
        for second in [10, 59] {
            guard case .paired = state.authenticate(token: token, peer: "10.0.0.9", at: t0 + .seconds(second)) else {
                Issue.record("the paired token is refused for its address's junk at \(second) s")
                return
            }
        }
        #expect(state.pair(code: "123456", peer: "10.0.0.9", at: t0 + .seconds(30)) == .rateLimited)
        guard case .paired = state.authenticate(token: token, peer: "10.0.0.8", at: t0 + .seconds(10)) else {
            Issue.record("another peer is refused too")
            return
        }
        let lines = state.takeLines()
        #expect(lines.filter { $0.contains("10.0.0.9 refused for the rest of the minute") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("a token that is not paired from 10.0.0.9") }.count == 1, "\(lines)")
        guard case .paired = state.authenticate(token: token, peer: "10.0.0.9", at: t0 + .seconds(60)) else {
            Issue.record("still refused after the minute")
            return
        }
        #expect(state.authenticate(token: nil, peer: "10.0.0.9", at: t0 + .seconds(61)) == .notPaired)
    }

    @Test func fourWrongTokensAMinuteAreNotLimited() throws {
        var state = pairing()
        let wrong = String(repeating: "a", count: 64)
        for minute in 0..<3 {
            for second in 0..<4 {
                let now = t0 + .seconds(60 * minute + second)
                #expect(state.authenticate(token: wrong, peer: "p", at: now) == .notPaired)
            }
        }
    }

    @Test func atMostSixtyFourDevicesAreKeptTheOldestGoing() throws {
        var state = pairing()
        var tokens: [String] = []
        for _ in 0..<65 {
            let code = try state.newCode(at: t0)
            guard case .paired(let token) = state.pair(code: code, peer: "p", at: t0) else { return }
            tokens.append(token)
        }
        #expect(state.deviceHashes.count == 64)
        #expect(state.session(token: tokens[0]) == nil)
        #expect(state.session(token: tokens[1]) != nil && state.session(token: tokens[64]) != nil)
        let kept = Pairing(devices: Array(repeating: String(repeating: "b", count: 64), count: 70), hash: fakeDigest) {
            _ in nil
        }
        #expect(kept.deviceHashes.count == 64)
    }

    @Test func unpairForgetsOneDeviceAndUnpairAllEveryOne() throws {
        var state = pairing()
        var tokens: [String] = []
        for _ in 0..<3 {
            let code = try state.newCode(at: t0)
            guard case .paired(let token) = state.pair(code: code, peer: "p", at: t0) else { return }
            tokens.append(token)
        }
        state.devicesChanged = false
        let first = state.unpair(token: tokens[1])
        #expect(first)
        #expect(state.devicesChanged)
        let again = state.unpair(token: tokens[1])
        #expect(!again)
        #expect(state.session(token: tokens[1]) == nil && state.session(token: tokens[0]) != nil)
        _ = try state.newCode(at: t0)
        #expect(state.unpairAll() == 2)
        #expect(state.deviceHashes.isEmpty && state.validCode(at: t0) == nil)
        #expect(state.session(token: tokens[0]) == nil)
    }

    @Test func severalCookiesFindThePairedOneAndCountOneFailureOtherwise() throws {
        var state = pairing()
        let code = try state.newCode(at: t0)
        guard case .paired(let token) = state.pair(code: code, peer: "p", at: t0) else { return }
        let stale = String(repeating: "c", count: 64)
        #expect(state.authenticate(tokens: [stale, token], peer: "q", at: t0) == .paired(state.session(token: token)!))
        for _ in 0..<5 { #expect(state.authenticate(tokens: [stale, stale], peer: "q", at: t0) == .notPaired) }
        #expect(state.authenticate(tokens: [stale], peer: "q", at: t0) == .rateLimited)
        #expect(state.authenticate(tokens: [stale, token], peer: "q", at: t0) == .paired(state.session(token: token)!))
    }
}
