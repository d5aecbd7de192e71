import SystemKit
import TextCoding

/// The kitchen's paired devices and its one pairing code: what `eggtimer kitchen --pair`, the
/// keypad's long press and `POST /api/pair` ask for, and what every request's cookie is checked
/// against (issue 29).
///
/// A code is 6 decimal digits drawn uniformly (rejection sampling of 32-bit draws), valid for
/// ``codeLifetime`` on the boot clock, for ``codeTries`` tries in all (the last wrong one kills
/// it); a new code replaces the old. A right code gives a token: ``tokenBytes`` random bytes as
/// lower-case hex (64 digits), handed to the device once and kept only as the hex of its SHA-256
/// (of the token's text); at most ``deviceLimit`` are kept (the oldest goes). The CSRF token of a
/// session is hex(SHA-256("csrf\0" + token)), so no second secret is kept. Codes, tokens and
/// CSRF tokens are compared in constant time (``constantTimeEqual(_:_:)``). Wrong codes and
/// tokens are counted per peer address: after ``failureLimit`` in a ``failureWindow`` the peer's
/// codes and unpaired tokens are refused for the rest of that window, which is logged once; a
/// paired device's token is never refused for its address's count (issue 43).
///
/// Pure: no clock is read (instants come in), randomness and the hash are injected, no I/O; the
/// hashes it keeps are written by the caller (the kitchen's `PairingStore`, when ``devicesChanged`` says).
/// Log lines wait in ``takeLines()``. Not thread-safe: one owner (the kitchen's loop).
package struct Pairing {
    /// SHA-256: 32 bytes, or nil when it cannot be computed (GnuTLS missing).
    package typealias Hash = ([UInt8]) -> [UInt8]?
    /// `byteCount` random bytes, or nil when none can be had.
    package typealias Random = (_ byteCount: Int) -> [UInt8]?

    /// How long a code is valid: 10 minutes.
    package static let codeLifetime = Duration.seconds(600)
    /// How many tries a code allows in all: 5.
    package static let codeTries = 5
    /// How many decimal digits a code has: 6.
    package static let codeDigits = 6
    /// How many random bytes a token has: 32 (64 hex digits).
    static let tokenBytes = 32
    /// How many devices are kept at most: 64 (pairing one more forgets the oldest).
    package static let deviceLimit = 64
    /// How many wrong codes or tokens a peer may send in one ``failureWindow``: 5.
    static let failureLimit = 5
    /// The window of the rate limit: a minute.
    static let failureWindow = Duration.seconds(60)
    /// How many peers' windows are kept at most (the oldest goes first), so that a peer with many
    /// addresses cannot grow the table without bound.
    static let peerLimit = 1024

    /// One valid code: its digits (ASCII), when it dies, and the tries it has left.
    struct Code: Equatable {
        var digits: [UInt8]
        var expiresAt: ContinuousClock.Instant
        var triesLeft: Int
    }

    /// A device's session, made from its token: what the API needs to answer it.
    package struct Session: Equatable, Sendable {
        /// The token (64 hex digits), as the cookie carried it.
        package var token: String
        /// Its CSRF token: hex(SHA-256("csrf\0" + token)).
        package var csrf: String
    }

    /// What a pairing try came to.
    package enum Outcome: Equatable, Sendable {
        /// Paired: the new device's token (for its cookie; not kept in clear).
        case paired(token: String)
        /// A wrong code; the tries the code has left (0: it is gone).
        case wrong(triesLeft: Int)
        /// No code is valid: none was made, it expired, was used or ran out of tries.
        case noValidCode
        /// The peer sent too many wrong codes or tokens this minute (HTTP 429).
        case rateLimited
        /// The kitchen cannot pair now (no random bytes, no SHA-256): the reason, one line.
        case failed(String)
    }

    /// What a request's token came to.
    enum Authentication: Equatable, Sendable {
        /// A paired device.
        case paired(Session)
        /// No token, or one not paired (a wrong one is counted against the peer).
        case notPaired
        /// The peer sent too many wrong codes or tokens this minute (HTTP 429).
        case rateLimited
    }

    /// Why a code could not be made.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        /// One line.
        package let description: String
    }

    /// The current code, if one was made and not used up (it may have expired: see ``validCode(at:)``).
    private(set) var code: Code?
    /// The paired devices' token hashes (64 lower-case hex digits each), the oldest first.
    package private(set) var deviceHashes: [String]
    /// Whether ``deviceHashes`` changed since the caller last wrote them (it clears this).
    package var devicesChanged = false
    private let hash: Hash
    private let random: Random
    private var failures: [String: (windowStart: ContinuousClock.Instant, count: Int, logged: Bool)] = [:]
    private var lines: [String] = []

    /// A pairing state with `devices` paired and no code.
    /// - Parameters:
    ///   - devices: The kept token hashes (as read by the kitchen's `PairingStore`), the oldest first; only
    ///     the newest ``deviceLimit`` are kept.
    ///   - hash: SHA-256 (`WebServer.TokenDigest.sha256` in the kitchen).
    ///   - random: The random source (SystemKit's `randomBytes` in the kitchen).
    package init(devices: [String] = [], hash: @escaping Hash, random: @escaping Random) {
        deviceHashes = Array(devices.suffix(Self.deviceLimit))
        (self.hash, self.random) = (hash, random)
    }

    /// Makes a new code, valid for ``codeLifetime`` from `now` with ``codeTries`` tries; it
    /// replaces any earlier code.
    /// - Parameter now: The boot clock now.
    /// - Returns: The code: ``codeDigits`` ASCII digits, leading zeros kept (`004217`).
    /// - Throws: ``Failure`` when no random bytes can be had; the old code is then gone too.
    package mutating func newCode(at now: ContinuousClock.Instant) throws(Failure) -> String {
        code = nil
        // 4 294 000 000 is the largest multiple of 10^6 below 2^32: draws at or above it are
        // rejected (p ≈ 0.000 23 each), so every code is equally likely. 8 rounds of 8 draws.
        let modulus: UInt32 = 1_000_000
        let bound: UInt32 = 4_294_000_000  // 4294 × 10^6 ≤ 2^32 = 4 294 967 296 < 4295 × 10^6
        for _ in 0..<8 {
            guard let bytes = random(32), bytes.count == 32 else { break }
            for start in stride(from: 0, to: 32, by: 4) {
                let draw = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard draw < bound else { continue }
                let digits = Self.decimalDigits(draw % modulus)
                code = Code(digits: digits, expiresAt: now + Self.codeLifetime, triesLeft: Self.codeTries)
                return String(decoding: digits, as: UTF8.self)
            }
        }
        throw Failure(description: "cannot make a pairing code: no random bytes from the kernel (getrandom)")
    }

    /// The ASCII digits of `value`, ``codeDigits`` of them with leading zeros.
    static func decimalDigits(_ value: UInt32) -> [UInt8] {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: codeDigits)
        var rest = value
        for index in (0..<codeDigits).reversed() {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return digits
    }

    /// The code if one is valid at `now` (made, not expired, not used, tries left).
    func validCode(at now: ContinuousClock.Instant) -> Code? {
        guard let code, now < code.expiresAt, code.triesLeft > 0 else { return nil }
        return code
    }

    /// Tries to pair a device with `code` from `peer`.
    ///
    /// A right code is used up and the device's token hash kept (``devicesChanged``); a wrong one
    /// costs the code a try and counts against the peer. Nothing is counted when no code is valid.
    /// - Parameters:
    ///   - candidate: The code as sent (any text; only the exact ``codeDigits`` digits match).
    ///   - peer: The peer's numeric address, for the rate limit and the log.
    ///   - now: The boot clock now.
    /// - Returns: The ``Outcome``.
    package mutating func pair(code candidate: String, peer: String, at now: ContinuousClock.Instant) -> Outcome {
        if isLimited(peer, at: now) { return .rateLimited }
        guard var valid = validCode(at: now) else {
            code = nil
            return .noValidCode
        }
        guard Self.constantTimeEqual(Array(candidate.utf8), valid.digits) else {
            valid.triesLeft -= 1
            code = valid.triesLeft > 0 ? valid : nil
            countFailure(of: peer, at: now, what: "a wrong pairing code")
            if valid.triesLeft == 0 { lines.append("pairing: the code is gone after \(Self.codeTries) wrong tries") }
            return .wrong(triesLeft: valid.triesLeft)
        }
        guard let bytes = random(Self.tokenBytes), bytes.count == Self.tokenBytes else {
            return failed("pairing refused: no random bytes from the kernel (getrandom)")
        }
        let token = Hex.text(bytes)
        guard let digest = hash(Array(token.utf8)), digest.count == 32 else {
            return failed("pairing refused: SHA-256 is not available (GnuTLS cannot be loaded); no token is kept")
        }
        code = nil
        deviceHashes.append(Hex.text(digest))
        if deviceHashes.count > Self.deviceLimit {
            deviceHashes.removeFirst(deviceHashes.count - Self.deviceLimit)
            lines.append("pairing: more than \(Self.deviceLimit) devices: the oldest is forgotten")
        }
        devicesChanged = true
        lines.append("pairing: a device at \(peer) is paired (\(deviceHashes.count) in all)")
        return .paired(token: token)
    }

    private mutating func failed(_ line: String) -> Outcome {
        lines.append(line)
        return .failed(line)
    }

    /// The session of `token` when it is a paired device's; nil otherwise (nothing is counted).
    ///
    /// Every kept hash is compared, in constant time, whether or not one matched before.
    /// - Parameter token: The cookie's value.
    /// - Returns: The session, or nil.
    package func session(token: String) -> Session? {
        let tokenBytes = Array(token.utf8)
        guard tokenBytes.count == 2 * Self.tokenBytes, let digest = hash(tokenBytes), digest.count == 32 else {
            return nil
        }
        let wanted = Array(Hex.text(digest).utf8)
        var found = false
        for kept in deviceHashes { found = Self.constantTimeEqual(wanted, Array(kept.utf8)) || found }
        guard found, let csrf = csrf(token: token) else { return nil }
        return Session(token: token, csrf: csrf)
    }

    /// The session of the first of `tokens` (at most 8 looked at) that is a paired device's.
    ///
    /// Nil when none is. Nothing is counted against the peer: what an open route (the page, the
    /// assets, `GET /api/session`, `POST /api/pair`) asks, where a stale cookie is no session.
    /// - Parameter tokens: The request's session cookies' values, in order.
    /// - Returns: The session, or nil.
    func session(tokens: [String]) -> Session? {
        for token in tokens.prefix(8) { if let found = session(token: token) { return found } }
        return nil
    }

    /// The hex of `token`'s SHA-256, as ``deviceHashes`` keeps it; nil without SHA-256.
    ///
    /// An event stream remembers it, to be ended when its device is unpaired.
    package func tokenHash(_ token: String) -> String? {
        guard let digest = hash(Array(token.utf8)), digest.count == 32 else { return nil }
        return Hex.text(digest)
    }

    /// The CSRF token of `token`: hex(SHA-256("csrf\0" + token)); nil without SHA-256.
    package func csrf(token: String) -> String? {
        guard let digest = hash(Array("csrf\u{0}".utf8) + Array(token.utf8)), digest.count == 32 else { return nil }
        return Hex.text(digest)
    }

    /// Authenticates a request's token from `peer`: a paired device, or not (a wrong token counts
    /// against the peer; none counts nothing), or a peer refused this minute.
    /// - Parameters:
    ///   - token: The cookie's value; nil when the request had none.
    ///   - peer: The peer's numeric address.
    ///   - now: The boot clock now.
    /// - Returns: The ``Authentication``.
    mutating func authenticate(token: String?, peer: String, at now: ContinuousClock.Instant) -> Authentication {
        authenticate(tokens: token.map { [$0] } ?? [], peer: peer, at: now)
    }

    /// Authenticates a request that carried `tokens` (every session cookie it had, in order):
    /// paired when one of them is; otherwise one wrong token is counted when there was any.
    ///
    /// The limit is per credential, not per address (issue 43): a paired device's token is
    /// accepted whatever its address's count, so that junk cookies from one address (a kiosk on
    /// the box itself, phones behind one NAT or reverse proxy) cannot lock the paired devices
    /// behind it out of STOP. A request without a paired token is refused while its peer is
    /// limited; pairing codes are limited by the peer's count as before (``pair(code:peer:at:)``).
    /// - Parameters:
    ///   - tokens: The cookies' values; empty when the request had none.
    ///   - peer: The peer's numeric address.
    ///   - now: The boot clock now.
    /// - Returns: The ``Authentication``.
    mutating func authenticate(tokens: [String], peer: String, at now: ContinuousClock.Instant) -> Authentication {
        // At most 8 looked at: a request cannot make the kitchen hash without bound.
        if let session = session(tokens: tokens) { return .paired(session) }
        if isLimited(peer, at: now) { return .rateLimited }
        guard !tokens.isEmpty else { return .notPaired }
        countFailure(of: peer, at: now, what: "a token that is not paired")
        return .notPaired
    }

    /// Whether `candidate` (a header's or form field's value; nil for none) is `session`'s CSRF
    /// token, compared in constant time.
    func checkCSRF(_ candidate: String?, for session: Session) -> Bool {
        guard let candidate else { return false }
        return Self.constantTimeEqual(Array(candidate.utf8), Array(session.csrf.utf8))
    }

    /// Forgets the device of `token` (`POST /api/unpair`).
    /// - Returns: Whether it was paired.
    package mutating func unpair(token: String) -> Bool {
        guard let digest = hash(Array(token.utf8)), digest.count == 32 else { return false }
        let wanted = Hex.text(digest)
        let before = deviceHashes.count
        deviceHashes.removeAll { Self.constantTimeEqual(Array($0.utf8), Array(wanted.utf8)) }
        guard deviceHashes.count < before else { return false }
        devicesChanged = true
        lines.append("pairing: a device unpaired itself (\(deviceHashes.count) left)")
        return true
    }

    /// Forgets every device and the code (`eggtimer kitchen --unpair`).
    /// - Returns: How many devices were paired.
    package mutating func unpairAll() -> Int {
        let count = deviceHashes.count
        deviceHashes = []
        code = nil
        devicesChanged = true
        return count
    }

    /// The log lines waiting (rate limits, pairings, failures), oldest first; taking them empties it.
    package mutating func takeLines() -> [String] {
        defer { lines = [] }
        return lines
    }

    /// Whether `peer` is refused at `now` (``failureLimit`` failures in its window); the first
    /// refusal of a window is logged.
    private mutating func isLimited(_ peer: String, at now: ContinuousClock.Instant) -> Bool {
        guard let entry = failures[peer] else { return false }
        guard now < entry.windowStart + Self.failureWindow else {
            failures[peer] = nil
            return false
        }
        guard entry.count >= Self.failureLimit else { return false }
        if !entry.logged {
            failures[peer]?.logged = true
            lines.append(
                "pairing: \(peer) refused for the rest of the minute: \(Self.failureLimit) wrong codes or tokens")
        }
        return true
    }

    private mutating func countFailure(of peer: String, at now: ContinuousClock.Instant, what: String) {
        if let entry = failures[peer], now < entry.windowStart + Self.failureWindow {
            failures[peer]?.count = entry.count + 1
            return
        }
        if failures.count >= Self.peerLimit {
            failures = failures.filter { now < $0.value.windowStart + Self.failureWindow }
            if failures.count >= Self.peerLimit,
                let oldest = failures.min(by: { $0.value.windowStart < $1.value.windowStart })
            {
                failures[oldest.key] = nil
            }
        }
        failures[peer] = (now, 1, false)
        lines.append("pairing: \(what) from \(peer)")
    }

    /// Whether `a` and `b` are equal, in time that depends on their lengths only: every byte of
    /// the longer is looked at, no branch depends on a byte's value, and unequal lengths fold
    /// into the same accumulator instead of returning early.
    /// - Complexity: O(max(a.count, b.count)).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt(bitPattern: a.count ^ b.count)
        let length = max(a.count, b.count)
        for index in 0..<length {
            // The index checks branch on lengths, which are not secret; the bytes are only XORed.
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= UInt(x ^ y)
        }
        return difference == 0
    }

}
