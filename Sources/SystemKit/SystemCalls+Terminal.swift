import CSystem
import Glibc

/// A terminal's size in character cells.
public struct WindowSize: Sendable, Hashable {
    /// Lines, 0 when the terminal does not say.
    public var rows: UInt16
    /// Characters per line, 0 when the terminal does not say.
    public var columns: UInt16

    /// A size of `rows` lines of `columns` characters.
    public init(rows: UInt16, columns: UInt16) { (self.rows, self.columns) = (rows, columns) }
}

/// The window size of the terminal open on `descriptor`.
/// - Parameter descriptor: A terminal (or pseudo-terminal side).
/// - Returns: Its rows and columns.
/// - Throws: ``Errno`` (`ENOTTY` when it is not a terminal, `EBADF`). C: `ioctl(TIOCGWINSZ)`.
public func windowSize(of descriptor: Int32) throws(Errno) -> WindowSize {
    var rows: UInt16 = 0
    var columns: UInt16 = 0
    guard CSystem_windowSize(descriptor, &rows, &columns) == 0 else { throw .current }
    return WindowSize(rows: rows, columns: columns)
}

/// Sets the window size of the terminal open on `descriptor`, as a terminal emulator does on a
/// resize (the foreground process group gets SIGWINCH).
/// - Parameters:
///   - descriptor: A terminal (or pseudo-terminal side).
///   - size: The new size.
/// - Throws: ``Errno`` (`ENOTTY`, `EBADF`). C: `ioctl(TIOCSWINSZ)`.
public func setWindowSize(of descriptor: Int32, to size: WindowSize) throws(Errno) {
    guard CSystem_setWindowSize(descriptor, size.rows, size.columns) == 0 else { throw .current }
}

extension FileDescriptor {
    /// A new pseudo-terminal's controlling side, close-on-exec from birth, granted and
    /// unlocked: open ``pseudoTerminalPath(of:)`` for the terminal side.
    /// - Parameter flags: More open flags (`O_NONBLOCK`); `O_RDWR | O_NOCTTY | O_CLOEXEC` are added.
    /// - Returns: The controlling side.
    /// - Throws: ``Errno`` (`ENOENT` without `/dev/ptmx`, `EMFILE`). C: `posix_openpt`,
    ///   `grantpt`, `unlockpt`.
    public static func pseudoTerminal(flags: Int32 = 0) throws(Errno) -> FileDescriptor {
        let result = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | flags)
        guard result >= 0 else { throw .current }
        let controller = FileDescriptor(owning: result)
        guard grantpt(result) == 0, unlockpt(result) == 0 else { throw .current }
        return controller
    }
}

/// The path of the terminal side of the pseudo-terminal whose controlling side is `controller`.
/// - Parameter controller: From ``FileDescriptor/pseudoTerminal(flags:)``.
/// - Returns: Its device path (`/dev/pts/N`).
/// - Throws: ``Errno`` (`ENOTTY`, `EBADF`). C: `ptsname_r`.
public func pseudoTerminalPath(of controller: Int32) throws(Errno) -> String {
    var name = [CChar](repeating: 0, count: 128)
    let result = ptsname_r(controller, &name, name.count)
    guard result == 0 else { throw Errno(result) }
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
