import Glibc
import KitchenWeb
import TestSupport
import Testing
import TextCoding

@testable import Kitchen

/// The pairing threat model of issue 29, the kitchen's file of paired devices (PairingStore, still
/// in the executable; the rest of the threat model is KitchenWebTests' PairingThreatModelTests):
/// someone who reads the kitchen's files learns no token.
@Suite struct PairingStoreThreatModelTests {
    let t0 = ContinuousClock.now
    let household = "192.0.2.10"

    /// A stand-in for SHA-256 (as KitchenWebTests' `fakeDigest`): 32 bytes that depend on every
    /// input byte (FNV-1a, once per output byte with its index as the seed).
    func fakeDigest(_ bytes: [UInt8]) -> [UInt8]? {
        (0..<32).map { index in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(index)
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return UInt8(truncatingIfNeeded: hash >> 24)
        }
    }

    /// Random bytes of a seeded SplitMix64 stream (as KitchenWebTests' `ScriptedRandom` with no script).
    func seededRandom() -> Pairing.Random {
        var state: UInt64 = 42
        return { count in
            (0..<count).map { _ in
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: z ^ (z >> 31))
            }
        }
    }

    /// The mode bits (permissions) of `path`.
    func mode(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    }

    @Test func thePairedDevicesFileIs0600InA0700FolderAndHoldsNoTokenInClear() throws {
        let scratch = makePrivateDirectory()
        defer { removeDirectory(scratch) }
        let store = PairingStore(folder: scratch + "/eggtimer/kitchen")
        var state = Pairing(hash: fakeDigest, random: seededRandom())
        var tokens: [String] = []
        for index in 0..<2 {
            let code = try state.newCode(at: t0)
            guard case .paired(let token) = state.pair(code: code, peer: household, at: t0 + .seconds(index)) else {
                Issue.record("not paired")
                return
            }
            tokens.append(token)
        }
        // A file left readable by others (copied by hand, an old version) is replaced, not reused.
        #expect(mkdir(scratch + "/eggtimer", 0o700) == 0 && mkdir(store.folder, 0o700) == 0)
        writeFile(store.path, Array("stale\n".utf8), mode: 0o644)
        #expect(chmod(store.path, 0o644) == 0 && mode(store.path) == 0o644)
        try store.write(state.deviceHashes)

        #expect(mode(store.path) == 0o600)
        #expect(mode(store.folder) == 0o700)
        let text = readText(store.path)
        for token in tokens {
            #expect(!text.contains(token), "a token is in the file in clear")
            #expect(!text.contains(String(token.prefix(16))), "part of a token is in the file")
            let digest = Hex.text(try #require(fakeDigest(Array(token.utf8))))
            #expect(text.contains(digest + "\n"))
        }
        #expect(text.split(separator: "\n").count == 2)
        // The file is enough to recognise the phones after a restart, never to be one.
        let restarted = Pairing(devices: try store.read().hashes, hash: fakeDigest) { _ in nil }
        #expect(tokens.allSatisfy { restarted.session(token: $0) != nil })
        for line in text.split(separator: "\n") {
            #expect(restarted.session(token: String(line)) == nil, "a line of the file is not a token")
        }
    }
}
