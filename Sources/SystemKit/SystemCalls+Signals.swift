import CSystem
import Glibc

extension FileDescriptor {
    /// A descriptor that reads the `signals` pending for the calling thread or the
    /// process, close-on-exec from birth; block them first (`pthread_sigmask`), or they are
    /// delivered as usual.
    /// - Parameters:
    ///   - signals: The signal numbers to read (`SIGINT`, …).
    ///   - nonBlocking: Whether a read with none pending fails with `EAGAIN` (`SFD_NONBLOCK`).
    /// - Returns: The descriptor; it polls readable while one of them is pending.
    /// - Throws: ``Errno`` (`EMFILE`, `ENOMEM`). Any thread. C: `signalfd`.
    public static func signals(_ signals: [Int32], nonBlocking: Bool = true) throws(Errno) -> FileDescriptor {
        let flags = Int32(SFD_CLOEXEC) | (nonBlocking ? Int32(SFD_NONBLOCK) : 0)
        let result = systemSignalDescriptor(signals, flags: flags)
        guard result >= 0 else { throw .current }
        return FileDescriptor(owning: result)
    }
}

/// Reads one pending signal from a signal descriptor (``FileDescriptor/signals(_:nonBlocking:)``),
/// which takes it off the pending set.
/// - Parameter descriptor: A signalfd; a non-blocking one never blocks here.
/// - Returns: The signal number (`SIGINT`, …), or nil when none is pending (or the read failed).
/// C: `read` of a `signalfd_siginfo`.
public func readSignal(from descriptor: Int32) -> Int32? {
    var info = signalfd_siginfo()
    let bytes = withUnsafeMutableBytes(of: &info) { read(descriptor, $0.baseAddress, $0.count) }
    guard bytes == MemoryLayout<signalfd_siginfo>.size else { return nil }
    return Int32(bitPattern: info.ssi_signo)
}
