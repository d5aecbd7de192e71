import Glibc

/// A C `errno` value with its text: what a failed system call left behind.
///
/// A plain value; any thread.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The positive `errno` value (`ENOENT`, `EAGAIN`, …).
    public let code: Int32

    /// Wraps `code`.
    /// - Parameter code: A positive `errno` value, or a value a pthread call returned.
    public init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno` now: read it right after the failed call.
    public static var current: Errno { Errno(errno) }

    /// The C library's text for the code in the C locale (`No such file or directory`;
    /// `Unknown error 9999` for a code it does not know).
    ///
    /// C: `strerror` (glibc's table, or a thread-local buffer for unknown codes).
    public var text: String { String(cString: strerror(code)) }

    public var description: String { text }
}

/// The C library's text for `errno` value `code` (``Errno/text``): `No such file or directory`.
/// - Parameter code: An `errno` value.
/// - Returns: Its text; any thread.
public func errorText(_ code: Int32) -> String { Errno(code).text }
