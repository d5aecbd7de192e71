import Glibc
import TestSupport

/// A private Mosquitto broker for one test.
///
/// `mosquitto -c <private dir>/mosquitto.conf` on a free 127.0.0.1 port, anonymous unless users are given (a `password_file` made with
/// `mosquitto_passwd -b`), with an optional TLS listener whose CA and server certificate are made
/// by `openssl` in the private folder. Runs as a child of the test process; its log goes to `log`.
final class MosquittoBroker {
    /// The private folder: config, log, password file, certificates.
    let directory: String
    /// The plain MQTT listener's port on 127.0.0.1.
    let port: Int
    /// The TLS listener's port on 127.0.0.1, when made with `tls: true`.
    let tlsPort: Int?
    private(set) var server: Child?

    var configPath: String { directory + "/mosquitto.conf" }
    var log: String { directory + "/mosquitto.log" }
    /// The CA certificate (PEM) that signed the TLS listener's certificate.
    var caFile: String { directory + "/ca.crt" }

    /// Makes the private folder, the password file and certificates as asked, and starts the broker.
    /// - Parameters:
    ///   - users: User names and passwords; when not empty, anonymous clients are refused.
    ///   - tls: Whether to add a TLS listener (server certificate for `localhost` and 127.0.0.1).
    /// - Throws: `TestFailure` when a tool fails or the broker does not accept connections.
    init(users: [String: String] = [:], tls: Bool = false) throws {
        directory = makePrivateDirectory("eggtimer-broker")
        port = try freePort()
        tlsPort = tls ? try freePort() : nil
        var config = [
            "user root", "persistence false", "per_listener_settings false", "log_dest stderr", "log_type all",
            "connection_messages true", "allow_anonymous \(users.isEmpty)",
            "listener \(port) 127.0.0.1",
        ]
        if let tlsPort {
            try makeCertificates()
            config += [
                "listener \(tlsPort) 127.0.0.1", "cafile \(caFile)", "certfile \(directory)/server.crt",
                "keyfile \(directory)/server.key",
            ]
        }
        if !users.isEmpty {
            let passwords = directory + "/passwords"
            try writeFile(passwords, "")
            for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                try Child.run(SystemTool.mosquittoPasswd.path, ["-b", passwords, user, password], stderrPath: log)
            }
            config.append("password_file \(passwords)")
        }
        try writeFile(configPath, config.joined(separator: "\n") + "\n")
        try start()
    }

    deinit {
        stop()
        removeDirectory(directory)
    }

    /// Starts the broker (again, after ``kill()`` or ``stop()``, on the same ports) and waits
    /// until every listener accepts a TCP connection.
    /// - Throws: `TestFailure` if it exits or does not accept within 20 s.
    func start() throws {
        let child = Child.spawn(SystemTool.mosquitto.path, ["-c", configPath], stderrPath: log)
        server = child
        let deadline = ContinuousClock.now + .seconds(20)
        for listener in [port] + (tlsPort.map { [$0] } ?? []) {
            while !accepts(port: listener) {
                if child.hasExited {
                    let status = child.wait(timeout: .seconds(1))
                    server = nil
                    throw TestFailure("the test broker exited (\(status)) before listening; see \(log)")
                }
                guard ContinuousClock.now < deadline else {
                    throw TestFailure("the test broker did not accept on port \(listener) within 20 s; see \(log)")
                }
                // Not listening yet: look again shortly, or at once if the broker exits meanwhile.
                child.exits(within: .milliseconds(20))
            }
        }
    }

    /// Kills the broker with SIGKILL (no clean shutdown) and reaps it.
    func kill() {
        server?.signal(SIGKILL)
        server?.wait(timeout: .seconds(10))
        server = nil
    }

    /// Stops the broker with SIGTERM (SIGKILL after 5 s) and reaps it.
    func stop() {
        server?.signal(SIGCONT)
        server?.signal(SIGTERM)
        server?.wait(timeout: .seconds(5))
        server = nil
    }

    /// Stops the broker's process (SIGSTOP): connections stay open, nothing is answered.
    func freeze() { server?.signal(SIGSTOP) }

    /// Lets a frozen broker run again (SIGCONT).
    func thaw() { server?.signal(SIGCONT) }

    /// Kills the broker and starts it again on the same ports (retained messages are gone:
    /// `persistence false`).
    func restart() throws {
        kill()
        try start()
    }

    /// A CA (self-signed) and a server certificate it signs, for `localhost` and 127.0.0.1.
    private func makeCertificates() throws {
        let openssl = SystemTool.openssl.path
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Child.run(
            openssl,
            ["req", "-x509"] + curve + [
                "-keyout", directory + "/ca.key", "-out", caFile, "-subj", "/CN=eggtimer test CA", "-days", "2",
            ], stderrPath: directory + "/openssl.log")
        try Child.run(
            openssl,
            ["req"] + curve + [
                "-keyout", directory + "/server.key", "-out", directory + "/server.csr", "-subj", "/CN=localhost",
            ], stderrPath: directory + "/openssl.log")
        try writeFile(directory + "/server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        try Child.run(
            openssl,
            [
                "x509", "-req", "-in", directory + "/server.csr", "-CA", caFile, "-CAkey", directory + "/ca.key",
                "-CAcreateserial", "-out", directory + "/server.crt", "-days", "2", "-extfile",
                directory + "/server.ext",
            ], stderrPath: directory + "/openssl.log")
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw TestFailure("bind 127.0.0.1:0: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// `sockaddr_in` for 127.0.0.1:`port`.
func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// Whether a TCP connection to 127.0.0.1:`port` is accepted now (connected and closed at once).
func accepts(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
