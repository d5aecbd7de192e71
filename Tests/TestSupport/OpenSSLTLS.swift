import Glibc

/// `openssl` (Debian `openssl`, in the Makefile's TEST_PACKAGES) as the TLS tests' certificate
/// maker and client: the server's own TLS test and the kitchen's HTTPS end-to-end test share it.
public enum OpenSSLTLS {
    /// Whether `openssl` is installed here.
    public static let isInstalled = access(SystemTool.openssl.location, X_OK) == 0

    /// Makes a self-signed P-256 certificate for `127.0.0.1`, valid two days, and its key:
    /// `directory/cert.pem` and `directory/key.pem` (openssl's messages in `openssl.log`).
    /// - Returns: The two paths.
    /// - Throws: `TestFailure` unless `openssl req` exits 0 within 30 s.
    public static func makeCertificate(in directory: String) throws(TestFailure) -> (certificate: String, key: String) {
        let paths = (certificate: directory + "/cert.pem", key: directory + "/key.pem")
        try Child.run(
            SystemTool.openssl.path,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                paths.key, "-out", paths.certificate, "-subj", "/CN=127.0.0.1", "-days", "2",
            ], stderrPath: directory + "/openssl.log")
        return paths
    }

    /// Sends `request` (whole, as bytes on the wire) to `127.0.0.1:port` through `openssl
    /// s_client -ign_eof` and reads until the server closes (at most 30 s).
    /// - Returns: How s_client ended, what came back, and s_client's log (`directory/client.log`).
    /// - Throws: `TestFailure` when the request file or the response file cannot be made.
    public static func exchange(_ request: String, port: UInt16, in directory: String) throws(TestFailure) -> (
        termination: Termination, response: String, log: String
    ) {
        try writeFile(directory + "/request", request)
        let output = open(directory + "/response", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw TestFailure("cannot create \(directory)/response: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, directory + "/request", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/client.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // -ign_eof: send the request file, then read until the server closes.
        let pid = spawnProcess(
            SystemTool.openssl.path, ["s_client", "-connect", "127.0.0.1:\(port)", "-ign_eof", "-quiet"],
            actions: &actions, environment: Child.plainEnvironment)
        _ = Glibc.close(output)
        let termination = Child(pid: pid).wait(timeout: .seconds(30))
        return (termination, readText(directory + "/response"), readText(directory + "/client.log"))
    }
}
