import Glibc
import SystemKit

/// A lost socket file bound again: the one home of that mechanism, for a timer's socket and the
/// kitchen's alike (a ``SocketKeeper`` in the event loop calls ``ControlServer/rebindIfLost()``).
///
/// A listening socket lives on when its file is deleted (a tmp cleaner, a script), but nobody
/// can connect to it any more: the process is out of reach. The server looks at its path, and
/// when the file is gone binds a new socket there, taking the label's lock again first if its
/// file went too. It never removes a file that is not its own socket: a path another file now
/// holds is left alone (one line says so) and bound again once that file goes.
extension ControlServer {
    /// A file's identity: the device and inode number `lstat` reports.
    public struct FileIdentity: Equatable, Sendable {
        /// `st_dev`.
        public let device: UInt64
        /// `st_ino`.
        public let inode: UInt64

        /// The identity of the file on `device` with inode `inode`.
        public init(device: UInt64, inode: UInt64) { (self.device, self.inode) = (device, inode) }
    }

    /// What a look at a path found.
    public enum Found: Equatable, Sendable {
        /// No file has the name (`ENOENT`, or `ENOTDIR`: its folder is gone too).
        case nothing
        /// A file (of any kind) with this identity.
        case file(FileIdentity)
        /// The path could not be looked at (another error): nothing can be told.
        case unknown

        /// The file's identity, when one was found.
        public var identity: FileIdentity? {
            if case .file(let identity) = self { return identity }
            return nil
        }
    }

    /// What became of a server's socket file.
    public enum Standing: Equatable, Sendable {
        /// Still this server's socket, or it cannot be told: nothing to do.
        case intact
        /// The file is gone: bind a socket there again, first taking the label's lock again when
        /// `relock` (its lock file went too, or is another file now).
        case lost(relock: Bool)
        /// Another file has the name: leave it alone.
        case replaced
    }

    /// Decides what became of the socket file from what its path and its lock's path hold (pure).
    /// - Parameters:
    ///   - socket: What the socket's path holds now.
    ///   - bound: The socket file as this server bound it.
    ///   - lock: What the lock file's path holds now.
    ///   - held: The lock file this server holds its `flock` on.
    /// - Returns: ``Standing/intact`` while the path holds the bound file (or cannot be read),
    ///   ``Standing/lost(relock:)`` when it holds nothing, ``Standing/replaced`` when another file.
    public static func standing(socket: Found, bound: FileIdentity, lock: Found, held: FileIdentity) -> Standing {
        switch socket {
        case .unknown: return .intact
        case .file(let found): return found == bound ? .intact : .replaced
        case .nothing:
            switch lock {
            case .nothing: return .lost(relock: true)
            case .file(let found): return .lost(relock: found != held)
            case .unknown: return .lost(relock: false)
            }
        }
    }

    /// What ``rebindIfLost()`` did.
    public enum Rebinding: Equatable, Sendable {
        /// The socket file is still this server's: nothing done.
        case intact
        /// The file was gone: a new socket listens at the same path.
        case rebound
        /// Another file has the name, left alone; `owner` is the process listening there, when
        /// one answers a connection.
        case replaced(owner: Int32?)
        /// The file and its lock file were gone and another process holds the label's lock now.
        case lockTaken
        /// The file was gone and no socket could be bound there again (the folder gone and not
        /// made again, no descriptor left, …).
        case failed(ControlError)

        /// The one log line for this outcome, or nil for ``intact``.
        /// - Parameter path: The socket's path.
        /// - Returns: The line, without a newline.
        public func line(path: String) -> String? {
            switch self {
            case .intact: nil
            case .rebound: "control socket \(path) was deleted: bound again"
            case .replaced(let owner?):
                "control socket \(path) is now process \(owner)'s: left alone, this one cannot be reached there"
            case .replaced(nil):
                "control socket \(path) was replaced by another file: left alone, bound again once it goes"
            case .lockTaken:
                "control socket \(path) was deleted and another process holds its lock now: not bound again"
            case .failed(let error): "control socket \(path) was deleted and cannot be bound again: \(error)"
            }
        }
    }

    /// Looks whether the socket file is still this server's and, when it is gone, binds a new
    /// socket at the same path (the folder made again if it went, mode 0700 as
    /// ``RuntimeFolder/prepare(_:)`` makes it; the label's lock taken again if its file went).
    ///
    /// Connections already accepted and watchers go on; those still queued on the old socket are
    /// dropped with it (the caller accepts them first). A file that is not this server's socket
    /// is never removed: it is left where it is. Never blocks. On the event loop's thread.
    /// - Returns: What it found and did.
    /// C: `lstat`, `fstat`, `mkdir`, `open`, `flock`, `socket`, `bind`, `chmod`, `listen`,
    /// `connect` (who listens on a replaced path), `close`.
    public func rebindIfLost() -> Rebinding {
        let standing = Self.standing(
            socket: Self.look(at: path), bound: bound, lock: Self.look(at: lockPath),
            held: Self.identity(of: lock) ?? FileIdentity(device: 0, inode: 0))
        switch standing {
        case .intact: return .intact
        case .replaced: return .replaced(owner: Self.listener(at: path))
        case .lost(let relock):
            do throws(ControlError) {
                if case .nothing = Self.look(at: folder) { try RuntimeFolder.prepare(folder) }
                if relock {
                    let taken = try Self.takeLock(lockPath, label: label)
                    close(lock)
                    lock = taken
                }
                let fd = try UnixSocket.make()
                let made: FileIdentity
                do throws(ControlError) {
                    made = try Self.listen(fd, at: path, label: label, replacingStale: false)
                } catch {
                    close(fd)
                    throw error
                }
                close(descriptor)
                (descriptor, bound) = (fd, made)
                return .rebound
            } catch .labelInUse {
                return .lockTaken
            } catch .system(_, let code) where code == EADDRINUSE {
                return .replaced(owner: Self.listener(at: path))  // made meanwhile by another: theirs
            } catch {
                return .failed(error)
            }
        }
    }

    /// What `path` holds, without following a symbolic link.
    ///
    /// C: `lstat`.
    /// - Returns: ``Found/nothing`` for `ENOENT` or `ENOTDIR`, ``Found/unknown`` for another error.
    static func look(at path: String) -> Found {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .nothing : .unknown }
        return .file(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The identity of the file open on `fd`, or nil when the kernel does not say.
    ///
    /// C: `fstat`.
    static func identity(of fd: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The pid of the process listening on the socket at `path`, if one takes a connection.
    ///
    /// Never blocks (the connection is not retried). C: `socket`, `connect`,
    /// `getsockopt(SO_PEERCRED)`, `close`.
    static func listener(at path: String) -> Int32? {
        guard let fd = try? UnixSocket.connect(to: path) else { return nil }
        defer { close(fd) }
        return ControlClient.peerPID(fd)
    }
}
