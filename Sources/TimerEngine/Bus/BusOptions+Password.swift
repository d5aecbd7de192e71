import Glibc
import SystemKit
package import TimerText

// The broker password's one reader, for a timer, the kitchen, `follow` and the subcommands alike.

extension BusOptions {
    /// The broker password: the first line of `--mqtt-password-file`, else
    /// `$EGGTIMER_MQTT_PASSWORD`, else none.
    /// - Parameter environment: An environment variable's value by name.
    /// - Returns: The password, or nil.
    /// - Throws: `UsageError` naming the file when it cannot be read or is not a regular file (a
    ///   FIFO is refused at once, never waited on).
    package func password(environment: (String) -> String? = Self.processEnvironment) throws(UsageError) -> String? {
        guard let passwordFile else { return environment(Self.passwordVariable).flatMap { $0.isEmpty ? nil : $0 } }
        let descriptor: Int32
        do { descriptor = try RegularFile.open(passwordFile) } catch {
            throw UsageError(
                description: "option '--mqtt-password-file': cannot read '\(passwordFile)': \(error.reason)")
        }
        defer { close(descriptor) }
        let bytes = (try? RegularFile.read(descriptor, limit: 65536)) ?? []
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return String(decoding: line, as: UTF8.self)
    }

    /// An environment variable's value, from the process's environment.
    package static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
