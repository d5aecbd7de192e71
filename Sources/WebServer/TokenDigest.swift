import CMicrohttpd
import SystemKit

/// SHA-256 through GnuTLS (`gnutls_hash_fast`, the TLS library libmicrohttpd itself loads), for
/// the pairing tokens the kitchen keeps only as hashes.
///
/// GnuTLS is loaded with `dlopen` on first use (`libgnutls.so.30`), once per process.
public enum TokenDigest {
    /// The shared object loaded, by its SONAME.
    static let fileName = "libgnutls.so.30"

    /// `gnutls_hash_fast`, looked up once; nil when GnuTLS cannot be loaded.
    private static let hashFast: CMicrohttpd_gnutls_hash_fast? = {
        guard case .success(let object) = SharedObject.open(fileName) else { return nil }
        return object.function("gnutls_hash_fast", as: CMicrohttpd_gnutls_hash_fast.self)
    }()

    /// The SHA-256 digest of `bytes` (32 bytes), or nil when GnuTLS cannot be loaded.
    ///
    /// Any thread (GnuTLS's one-shot hash keeps no state). FIPS 180-4 SHA-256.
    /// C: `gnutls_hash_fast`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8]? {
        guard let hashFast else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        let result = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { output in
                hashFast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, output.baseAddress)
            }
        }
        return result == 0 ? digest : nil
    }
}
