import Glibc
import TestSupport
import Testing

@testable import eggtimer

/// Issue 29 end to end: `eggtimer kitchen --http … --http-cert … --http-key …` serves HTTPS (a
/// certificate `openssl` makes, `openssl s_client` as the client), and its session cookie is
/// marked Secure.
@Suite struct KitchenWebTLSEndToEndTests {
    /// Whether `openssl` is here (Debian `openssl`, in the Makefile's SERVICE_TEST_PACKAGES).
    static let hasOpenSSL = access(SystemTool.openssl.location, X_OK) == 0

    /// Sends `request` through `openssl s_client` to `port` and returns what came back.
    private func overTLS(_ request: String, port: UInt16, in directory: String) throws -> String {
        try writeFile(directory + "/request", request)
        let output = open(directory + "/response", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(output >= 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, directory + "/request", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/client.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let pid = spawnProcess(
            SystemTool.openssl.path, ["s_client", "-connect", "127.0.0.1:\(port)", "-ign_eof", "-quiet"],
            actions: &actions, environment: Child.plainEnvironment)
        _ = Glibc.close(output)
        let status = Child(pid: pid).wait(timeout: .seconds(30))
        #expect(status == .exited(0), "s_client: \(readText(directory + "/client.log"))")
        return readText(directory + "/response")
    }

    @Test(.enabled(if: hasOpenSSL, "openssl (Debian openssl, SERVICE_TEST_PACKAGES) is not installed"))
    func theKitchenServesHTTPSAndItsCookieIsSecure() throws {
        let directory = makePrivateDirectory("eggtimer-kitchen-tls")
        defer { removeDirectory(directory) }
        try Child.run(
            SystemTool.openssl.path,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                directory + "/key.pem", "-out", directory + "/cert.pem", "-subj", "/CN=127.0.0.1", "-days", "2",
            ], stderrPath: directory + "/openssl.log")
        let web = try WebKitchen { _ in ["--http-cert", directory + "/cert.pem", "--http-key", directory + "/key.pem"] }
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
