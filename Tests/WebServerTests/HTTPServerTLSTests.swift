import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// HTTPS through libmicrohttpd's GnuTLS, with a certificate `openssl` makes in a temporary
/// folder and `openssl s_client` as the client.
@Suite struct HTTPServerTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, PEM, made in `directory`.
    static func certificate(in directory: String) throws -> HTTPServer.TLS {
        let made = try OpenSSLTLS.makeCertificate(in: directory)
        return HTTPServer.TLS(certificate: readText(made.certificate), key: readText(made.key))
    }

    @Test(.enabled(if: OpenSSLTLS.isInstalled, "openssl (Debian openssl, TEST_PACKAGES) is not installed"))
    func requestOverTLSIsAnsweredAndMarkedTLS() throws {
        let directory = makePrivateDirectory("eggtimer-tls")
        defer { removeDirectory(directory) }
        let tls = try Self.certificate(in: directory)
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings { $0.tls = tls }, handler: HTTPServerTests.echo(seen))
        let (status, response, log) = try OpenSSLTLS.exchange(
            "GET /secure?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: loop.port, in: directory)
        #expect(status == .exited(0), "s_client: \(log)")
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(response.hasSuffix("GET /secure q=1 "))
        #expect(seen.requests.first?.isTLS == true)
        // Plain HTTP to the TLS port gets no answer from the handler.
        _ = try? HTTPTestClient.request(path: "/plain", port: loop.port, timeout: .seconds(5))
        #expect(seen.requests.map(\.path) == ["/secure"])
    }

    @Test func badCertificateIsOneClearError() {
        let settings = HTTPServerTests.settings { $0.tls = HTTPServer.TLS(certificate: "not PEM", key: "nor this") }
        do {
            _ = try HTTPServer(settings: settings) { _, _ in .later }
            Issue.record("a server started with a bad certificate")
        } catch {
            #expect(error.description.hasPrefix("libmicrohttpd could not start on 127.0.0.1:"))
            #expect(error.description.hasSuffix("(is the TLS certificate and key valid PEM?)"))
        }
    }
}
