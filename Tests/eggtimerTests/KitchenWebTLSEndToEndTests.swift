import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end: `eggtimer kitchen --http … --http-cert … --http-key …` serves HTTPS (a
/// certificate `openssl` makes, `openssl s_client` as the client), and its session cookie is
/// marked Secure.
@Suite struct KitchenWebTLSEndToEndTests {
    /// Sends `request` through `openssl s_client` to `port` and returns what came back.
    private func overTLS(_ request: String, port: UInt16, in directory: String) throws -> String {
        let (status, response, log) = try OpenSSLTLS.exchange(request, port: port, in: directory)
        #expect(status == .exited(0), "s_client: \(log)")
        return response
    }

    @Test(.enabled(if: OpenSSLTLS.isInstalled, "openssl (Debian openssl, TEST_PACKAGES) is not installed"))
    func theKitchenServesHTTPSAndItsCookieIsSecure() throws {
        let directory = makePrivateDirectory("eggtimer-kitchen-tls")
        defer { removeDirectory(directory) }
        let made = try OpenSSLTLS.makeCertificate(in: directory)
        let web = try WebKitchen { _ in ["--http-cert", made.certificate, "--http-key", made.key] }
        #expect(
            web.kitchen.stdout.contains("kitchen: HTTP API on https://127.0.0.1:\(web.port)/"), "\(web.kitchen.stdout)")
        let code = try web.pairingCode()
        let body = "{\"code\":\"\(code)\"}"
        let response = try overTLS(
            "POST /api/pair HTTP/1.1\r\nHost: \(web.host)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body, port: web.port,
            in: directory)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        let cookie = response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(cookie?.hasSuffix("; Secure") == true && cookie?.contains("HttpOnly") == true, "\(response)")
        // Plain HTTP to the HTTPS port gets no API answer.
        let plain = try? HTTPTestClient.request(path: "/api/session", port: web.port, timeout: .seconds(5))
        #expect(plain?.status != 200, "plain HTTP is not served on the HTTPS port")
    }
}
