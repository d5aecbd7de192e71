import Glibc
import SystemKit
import TestSupport
import Testing

@testable import WebServer

/// HTTPS through libmicrohttpd's GnuTLS, with a certificate `openssl` makes in a temporary
/// folder and `openssl s_client` as the client.
@Suite struct HTTPServerTLSTests {
    /// Whether `openssl` is here (Debian `openssl`, in the Makefile's SERVICE_TEST_PACKAGES).
    static let hasOpenSSL = access(SystemTool.openssl.location, X_OK) == 0

    /// A self-signed certificate for 127.0.0.1 and its key, PEM, made in `directory`.
    static func certificate(in directory: String) throws -> HTTPServer.TLS {
        try Child.run(
            SystemTool.openssl.path,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                directory + "/key.pem", "-out", directory + "/cert.pem", "-subj", "/CN=127.0.0.1", "-days", "2",
            ], stderrPath: directory + "/openssl.log")
        return HTTPServer.TLS(certificate: readText(directory + "/cert.pem"), key: readText(directory + "/key.pem"))
    }

    @Test(.enabled(if: hasOpenSSL, "openssl (Debian openssl, SERVICE_TEST_PACKAGES) is not installed"))
    func requestOverTLSIsAnsweredAndMarkedTLS() throws {
        let directory = makePrivateDirectory("eggtimer-tls")
        defer { removeDirectory(directory) }
        let tls = try Self.certificate(in: directory)
        let seen = Seen()
        let loop = try ServerLoop(HTTPServerTests.settings { $0.tls = tls }, handler: HTTPServerTests.echo(seen))
        try writeFile(
            directory + "/request", "GET /secure?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let output = open(directory + "/response", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(output >= 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, directory + "/request", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/client.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // -ign_eof: send the request file, then read until the server closes.
        let pid = spawnProcess(
            SystemTool.openssl.path, ["s_client", "-connect", "127.0.0.1:\(loop.port)", "-ign_eof", "-quiet"],
            actions: &actions, environment: Child.plainEnvironment)
        _ = Glibc.close(output)
        let status = Child(pid: pid).wait(timeout: .seconds(30))
        let response = readText(directory + "/response")
        #expect(status == .exited(0), "s_client: \(readText(directory + "/client.log"))")
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
