import Glibc
import SystemKit

/// A running timer's control socket: `<folder>/<label>.sock`, mode 0600, accepting requests only
/// from processes of the same user (SO_PEERCRED).
///
/// The socket's name is the label, so two running timers can never share one. The owner of a
/// name holds an exclusive `flock` on `<folder>/<label>.lock` from before it binds until it closes
/// (the kernel drops it when the process dies, however it dies): a second timer with the same
/// label, even one starting while the first is between bind() and listen(), fails to take it and
/// is refused. Only the lock's holder removes the socket: its own when it closes, or a stale one
/// (left by a killed owner, whose lock died with it) that it replaces. Clients never remove one.
///
/// A socket file deleted or replaced while the server runs is bound again at the same path by
/// ``rebindIfLost()`` (ControlServer+Rebind.swift), which a ``SocketKeeper`` calls when the folder
/// changes.
///
/// Owned by the event loop's thread; never blocks. Closing it (deinit) removes the socket file if
/// it is still this server's, then its lock file.
public final class ControlServer {
    /// The listening descriptor, for the poll set (close-on-exec, non-blocking); a new one once
    /// the socket was bound again (``rebindIfLost()``).
    public internal(set) var descriptor: Int32
    /// The socket's path.
    public let path: String
    /// The folder the socket lies in.
    public let folder: String
    /// The label the socket was named after.
    let label: String
    /// The socket file's identity as bound (`stat` after `bind`).
    var bound: FileIdentity
    /// The lock file's descriptor, holding the `flock` that makes this server the name's owner.
    var lock: Int32
    let lockPath: String

    /// Binds and listens on `<folder>/<label>.sock`.
    /// - Parameters:
    ///   - folder: A safe runtime folder (``RuntimeFolder/prepare(_:)``).
    ///   - label: The timer's label: one word of letters, digits, `-`, `_`, `.`.
    ///   - beforeListening: Called on this thread once the socket is bound and before it listens
    ///     (a test seam: a connect meanwhile is refused); nothing by default.
    /// - Throws: ``ControlError/labelInUse(label:)`` when another process holds the label's lock or
    ///   a timer answers on that socket; ``ControlError/pathTooLong(path:)`` when its path does not
    ///   fit a socket address; `.system` when the lock or the socket cannot be made.
    /// C: `open`, `flock`, `socket`, `bind`, `chmod`, `listen`, `connect` (to test an existing
    /// socket), `unlink`.
    public init(folder: String, label: String, beforeListening: () -> Void = {}) throws(ControlError) {
        let path = try UnixSocket.path(in: folder, name: Self.socketName(for: label))
        let lockPath = folder + "/" + Self.socketName(for: label) + ".lock"
        let lock = try Self.takeLock(lockPath, label: label)
        let fd: Int32
        do throws(ControlError) { fd = try UnixSocket.make() } catch {
            close(lock)
            throw error
        }
        let made: FileIdentity
        do throws(ControlError) {
            made = try Self.listen(fd, at: path, label: label, beforeListening: beforeListening)
        } catch {
            close(fd)
            close(lock)
            throw error
        }
        (descriptor, self.path, self.folder, self.label, bound) = (fd, path, folder, label, made)
        (self.lock, self.lockPath) = (lock, lockPath)
    }

    deinit {
        close(descriptor)
        // Remove the file only if it is still ours (not a successor's after a stale-socket replace).
        if Self.look(at: path).identity == bound { unlink(path) }
        // Still holding the lock: a process that opened this file meanwhile finds it unlinked
        // once it gets the lock, and opens the path again (takeLock). Only the file it holds: one
        // made after its own was deleted is another process's.
        if Self.look(at: lockPath).identity == Self.identity(of: lock) { unlink(lockPath) }
        close(lock)
    }

    /// Opens (or creates, mode 0600) the lock file at `path` and takes its exclusive `flock`
    /// without waiting.
    /// - Returns: The descriptor holding the lock (close-on-exec, so no child keeps it).
    /// - Throws: ``ControlError/labelInUse(label:)`` when another process holds it; `.system`.
    /// C: `open`, `flock`, `fstat`, `stat`.
    static func takeLock(_ path: String, label: String) throws(ControlError) -> Int32 {
        for _ in 0..<3 {
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .system(call: "open \(path)", code: errno) }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                if code == EWOULDBLOCK { throw .labelInUse(label: label) }
                throw .system(call: "flock \(path)", code: code)
            }
            // The previous owner unlinks the file before it lets go: a lock on an unlinked file
            // is no lock on the name.
            var held = stat()
            var named = stat()
            if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev,
                held.st_ino == named.st_ino
            {
                return fd
            }
            close(fd)
        }
        throw .system(call: "flock \(path)", code: EAGAIN)
    }

    /// Binds `fd` to `path` (mode 0600) and listens on it: the one way a server's socket file is
    /// made, at start and when it is bound again (ControlServer+Rebind.swift).
    ///
    /// When the socket cannot listen, the file just bound is removed again.
    /// - Parameters:
    ///   - fd: A new unbound socket (``UnixSocket/make()``); the caller closes it on a throw.
    ///   - path: The socket's path.
    ///   - label: The label, for ``ControlError/labelInUse(label:)``.
    ///   - replacingStale: Whether a stale socket at `path` is replaced (at start); false: a
    ///     file there fails with `.system("bind …", EADDRINUSE)` and is left alone.
    ///   - beforeListening: Called once the socket is bound and before it listens.
    /// - Returns: The socket file's identity.
    /// - Throws: As ``bind(_:path:label:replacingStale:)``; `.system` for `chmod` or `listen`.
    /// C: `bind`, `chmod`, `listen`, `lstat`, `unlink`.
    static func listen(
        _ fd: Int32, at path: String, label: String, replacingStale: Bool = true, beforeListening: () -> Void = {}
    ) throws(ControlError) -> FileIdentity {
        try bind(fd, path: path, label: label, replacingStale: replacingStale)
        let made = look(at: path).identity ?? FileIdentity(device: 0, inode: 0)
        do throws(ControlError) {
            guard chmod(path, 0o600) == 0 else { throw .system(call: "chmod", code: errno) }
            beforeListening()
            // A long queue (the kernel caps it at net.core.somaxconn): idle peers do not fill it
            // before the timer's loop accepts them, dropping the idlest (ControlInbox).
            guard Glibc.listen(fd, SOMAXCONN) == 0 else { throw .system(call: "listen", code: errno) }
        } catch {
            if look(at: path).identity == made { unlink(path) }  // the file this call bound
            throw error
        }
        return made
    }

    /// Binds `fd` to `path`, replacing a stale socket when `replacingStale`.
    ///
    /// The caller holds the label's lock, so an
    /// existing socket's owner is dead (its lock went with it) unless a listener of this user
    /// answers there (a timer that took no lock); a listener of another user's cannot be a timer
    /// of this user's and is replaced too.
    private static func bind(_ fd: Int32, path: String, label: String, replacingStale: Bool) throws(ControlError) {
        for _ in 0..<3 {
            if UnixSocket.withAddress(path, { Glibc.bind(fd, $0, $1) }) == 0 { return }
            guard errno == EADDRINUSE else { throw .system(call: "bind \(path)", code: errno) }
            guard replacingStale else { throw .system(call: "bind \(path)", code: EADDRINUSE) }
            let probe: Int32
            do throws(ControlError) {
                probe = try UnixSocket.connect(to: path)
            } catch let ControlError.system(_, code) where code == ECONNREFUSED || code == ENOENT {
                unlink(path)  // stale: left by an owner that was killed
                continue
            } catch {
                throw .labelInUse(label: label)  // alive, just busy (EAGAIN)
            }
            var listener = PeerCredentials()
            let ours = peerCredentials(probe, &listener) == 0 && listener.uid == getuid()
            close(probe)
            guard ours else {
                unlink(path)
                continue
            }
            throw .labelInUse(label: label)  // it answered: a live timer
        }
        throw .system(call: "bind \(path)", code: EADDRINUSE)
    }

    /// Accepts one waiting connection, if any, from a process of this user.
    /// - Returns: The connection, or nil when none is waiting or the peer was refused (another
    ///   user: closed at once).
    /// C: `accept4`, `getsockopt(SO_PEERCRED)`.
    public func accept() -> ControlConnection? {
        let fd = acceptConnection(on: descriptor, flags: Int32(SOCK_NONBLOCK.rawValue))
        guard fd >= 0 else { return nil }
        var peer = PeerCredentials()
        guard peerCredentials(fd, &peer) == 0, Self.accepts(peerUID: peer.uid, ownUID: getuid()) else {
            close(fd)
            return nil
        }
        return ControlConnection(descriptor: fd, peerProcess: peer.pid)
    }

    /// Why a timer labelled `label` could not listen in `folder`.
    ///
    /// So that a detached start is refused before anything runs (issue 40: it would run out of
    /// reach, and a retry start a second one): its socket's path would not fit a socket address (``UnixSocket/path(in:name:)``,
    /// the one length check). Pure.
    /// - Parameters:
    ///   - label: The timer's label.
    ///   - folder: The runtime folder (``RuntimeFolder/current()``).
    /// - Returns: The reason, one line; nil when the path fits.
    public static func unreachableReason(label: String, folder: String) -> String? {
        do throws(ControlError) {
            _ = try UnixSocket.path(in: folder, name: socketName(for: label))
            return nil
        } catch {
            return error.description
        }
    }

    /// The socket's file name (without `.sock`) for `label`: the label's key (``LabelRule/key(_:)``,
    /// the label lowercased), which also names its lock, its record and the kitchen's log of it.
    ///
    /// Injective on label classes: two labels get one name exactly when they are the same timer
    /// (equal keys), so `1:30` and `1-30`, `roast beef` and `roast_beef` never share a socket.
    /// Nothing needs escaping: a label holds no `/`, no NUL and no leading `.` (``LabelRule``),
    /// and lowercasing adds none. A long label's key may be too long for a socket address:
    /// ``UnixSocket/path(in:name:)`` checks the path (``unreachableReason(label:folder:)``).
    /// - Parameter label: A valid label.
    /// - Returns: Its socket name.
    public static func socketName(for label: String) -> String { LabelRule.key(label) }

    /// Whether a peer with user id `peerUID` may control a timer run by `ownUID`: only the same user.
    public static func accepts(peerUID: UInt32, ownUID: UInt32) -> Bool { peerUID == ownUID }
}

/// One accepted control connection: reads one request line, sends one reply line, closes.
///
/// Never blocks: reads what is there; a line longer than ``maximumLineBytes`` closes it.
/// Owned by the event loop's thread.
public final class ControlConnection {
    /// The connected descriptor, for the poll set.
    public let descriptor: Int32
    /// The peer's process id, as the kernel recorded it.
    public let peerProcess: Int32
    private var buffer: [UInt8] = []

    /// The longest request accepted, in bytes.
    public static let maximumLineBytes = 512

    init(descriptor: Int32, peerProcess: Int32) {
        self.descriptor = descriptor
        self.peerProcess = peerProcess
    }

    deinit { close(descriptor) }

    /// What a read found.
    public enum ReadResult: Equatable {
        /// A whole request line (without its newline).
        case line(String)
        /// Not a whole line yet.
        case pending
        /// The peer closed, failed, or sent too much; drop the connection.
        case closed
    }

    /// Reads what has arrived.
    ///
    /// C: `read`.
    public func read() -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: Self.maximumLineBytes)
        let count = Glibc.read(descriptor, &chunk, chunk.count)
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .pending : .closed }
        if count == 0 { return .closed }
        buffer += chunk[0..<count]
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            return .line(String(decoding: buffer[..<newline], as: UTF8.self))
        }
        return buffer.count >= Self.maximumLineBytes ? .closed : .pending
    }

    /// Sends `line` and a newline, waiting at most 100 ms for room (a reply is a few hundred bytes;
    /// a peer that does not read loses it).
    ///
    /// C: `send`.
    public func reply(_ line: String) {
        _ = UnixSocket.write(Array((line + "\n").utf8), to: descriptor, until: .now + .milliseconds(100))
    }
}
