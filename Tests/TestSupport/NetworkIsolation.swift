import Glibc

/// Whether this process runs in a private network namespace with loopback as its only interface
/// (`make test` and `make test-services` run the tests so, through `scripts/isolated.sh`): then a
/// connect to any other address fails at once and no name resolves, with nothing sent.
public enum NetworkIsolation {
    /// The interfaces of this process's network namespace (`/proc/self/net/dev`), loopback included.
    public static var interfaces: [String] {
        let text = String(decoding: readFile("/proc/self/net/dev") ?? [], as: UTF8.self)
        return text.split(separator: "\n").dropFirst(2).compactMap { line in
            line.split(separator: ":", maxSplits: 1).first.map { String($0.filter { $0 != " " }) }
        }
    }

    /// Throws unless only loopback is there (and up: see `scripts/isolated.sh`), for a test that
    /// aims at an address or name beyond loopback to see it fail.
    /// - Throws: `TestFailure` naming the other interfaces.
    public static func require() throws(TestFailure) {
        let others = interfaces.filter { $0 != "lo" }
        guard others.isEmpty, !interfaces.isEmpty else {
            throw TestFailure(
                "not in a private network namespace (interfaces: \(interfaces.joined(separator: ", "))): "
                    + "run the tests with make test / make test-services, which isolate them")
        }
    }
}
