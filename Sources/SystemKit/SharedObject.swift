import Glibc

/// A shared object opened with `dlopen` for a library loaded only when a feature needs it
/// (libmosquitto for `--mqtt`, libespeak-ng and libsamplerate for a spoken line), so the binary
/// does not link it and a box without it still runs.
///
/// Opened with `RTLD_NOW | RTLD_LOCAL` (every symbol resolved at once, none exported to later
/// loads) and never closed: the function pointers looked up in it stay valid for the process.
/// Immutable; any thread (the loader's calls are thread-safe; `dlerror`'s text is per thread).
public struct SharedObject: @unchecked Sendable {
    /// The `dlopen` handle.
    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by (a SONAME such as `libmosquitto.so.1`, or a path).
    public let fileName: String

    /// Opens `fileName`.
    /// - Parameter fileName: A SONAME or a path.
    /// - Returns: The shared object, or the reason in one line: `fileName: ` and `dlerror()`'s
    ///   message (`libespeak-ng.so.1: cannot open shared object file: No such file or directory`).
    /// C: `dlopen`.
    public static func open(_ fileName: String) -> Result<SharedObject, SharedObjectError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(SharedObjectError(description: "\(fileName): \(lastError())"))
        }
        return .success(SharedObject(handle: handle, fileName: fileName))
    }

    /// The function `name` as the C function pointer type `T`, or nil when there is none.
    ///
    /// `T` is the header's exact type, made with `__typeof__` in a shim header.
    /// C: `dlsym`.
    public func function<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }

    /// Why the last lookup failed, in one line: `fileName: ` and `dlerror()`'s message.
    ///
    /// Read it once, right after the failed ``function(_:as:)`` on the same thread: `dlerror`
    /// clears its message when read.
    public var lookupError: SharedObjectError { SharedObjectError(description: "\(fileName): \(Self.lastError())") }

    /// `dlerror()`'s message, or a placeholder when it has none.
    private static func lastError() -> String {
        guard let message = dlerror() else { return "unknown dlopen error" }
        return String(cString: message)
    }
}

/// Why a shared object could not be opened or lacks a function: one line naming the file.
public struct SharedObjectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public let description: String
}
