import Glibc
import SystemKit

/// The other end of ``ControlServer``: finds the running timers in a runtime folder and sends
/// each one request line, reading its one reply line, within a deadline.
///
/// Blocks the calling thread for at most the deadline per timer. Used by the short-lived
/// `eggtimer status|ack|cancel|snooze` commands, never by a timer's event loop.
public enum ControlClient {
    /// The socket names in `folder` (`*.sock`, see ``ControlServer/socketName(for:)``), sorted;
    /// includes stale ones.
    ///
    /// C: `opendir`, `readdir`.
    public static func labels(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var labels: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".sock"), name.count > 5 { labels.append(String(name.dropLast(5))) }
        }
        return labels.sorted()
    }

    /// The socket path of the timer `label` in `folder`, checked as the timer checks it when it binds.
    /// - Parameters:
    ///   - label: The timer's label or socket name.
    ///   - folder: The runtime folder.
    /// - Returns: The path.
    /// - Throws: ``ControlError/pathTooLong(path:)`` when it does not fit a socket address.
    public static func socketPath(label: String, folder: String) throws(ControlError) -> String {
        try UnixSocket.path(in: folder, name: ControlServer.socketName(for: label))
    }

    /// Sends `request` to the timer labelled `label` and returns its reply line.
    ///
    /// Nothing is sent unless `folder` passes the timer's own rules (``RuntimeFolder/checkForUse(_:)``)
    /// and the socket's listener runs as this user (SO_PEERCRED): another user's socket cannot
    /// answer for a timer.
    /// - Parameters:
    ///   - request: One line, without a newline.
    ///   - label: The timer's label or socket name.
    ///   - folder: The runtime folder.
    ///   - timeout: How long to wait for the whole exchange.
    /// - Returns: The reply, without its newline.
    /// - Throws: ``ControlError/unsafeFolder(path:reason:)`` for a folder the timer would refuse,
    ///   ``ControlError/foreignListener(path:uid:)`` for a socket served by another user,
    ///   `.system("connect", ECONNREFUSED or ENOENT)` for a stale socket or none (left in place:
    ///   only the timer that holds the label's lock removes a socket), `.system("connect", EAGAIN)`
    ///   when its queue stayed full until the deadline, ``ControlError/noAnswer(path:peerPID:)``
    ///   when it does not answer in time (with the pid of the process listening, from
    ///   SO_PEERCRED: a stopped one does not answer), ``ControlError/closedUnanswered(path:)`` when
    ///   it closes before a word (it is ending), ``ControlError/badAnswer(path:)`` for a reply cut
    ///   short or longer than 64 KiB, ``ControlError/pathTooLong(path:)`` when the
    ///   socket's path does not fit a socket address (no timer can listen there).
    /// C: `lstat`, `socket`, `connect`, `getsockopt(SO_PEERCRED)`, `send`, `poll`, `read`.
    public static func exchange(
        _ request: String, label: String, folder: String, timeout: Duration = .seconds(2)
    ) throws(ControlError) -> String {
        let path = try socketPath(label: label, folder: folder)
        let deadline = ContinuousClock.now + timeout
        let fd = try connect(to: path, folder: folder, until: deadline)
        defer { close(fd) }
        var partial: [UInt8] = []
        guard UnixSocket.write(Array((request + "\n").utf8), to: fd, until: deadline),
            let reply = try readReply(fd, path: path, until: deadline, into: &partial)
        else { throw .noAnswer(path: path, peerPID: peerPID(fd)) }
        return reply
    }

    /// Reads one reply line on `fd`, waiting until `deadline` at most.
    /// - Parameters:
    ///   - fd: The connection.
    ///   - path: The socket's path, for errors.
    ///   - deadline: When to give up.
    ///   - reply: What came of the line so far; kept across calls that each wait a while.
    /// - Returns: The line, without its newline; nil when none came by the deadline.
    /// - Throws: ``ControlError/closedUnanswered(path:)`` when the peer closed before a word,
    ///   ``ControlError/badAnswer(path:)`` for a reply cut short or longer than 64 KiB.
    /// C: `poll`, `read`.
    private static func readReply(
        _ fd: Int32, path: String, until deadline: ContinuousClock.Instant, into reply: inout [UInt8]
    ) throws(ControlError) -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(UInt8(ascii: "\n")) {
            guard UnixSocket.wait(for: Int16(POLLIN), on: fd, until: deadline) else { return nil }
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            // Closed (or reset) before a word: the timer is ending, not something foreign.
            if reply.isEmpty, count == 0 || (count < 0 && errno == ECONNRESET) {
                throw .closedUnanswered(path: path)
            }
            guard count > 0, reply.count < 65536 else { throw .badAnswer(path: path) }
            reply += chunk[0..<count]
        }
        return String(decoding: reply.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// Sends `request` and returns the reply; a timer older than the request's version (its
    /// origin, protocol version 4) is asked again without it (``ControlRequest/withoutOrigin``).
    ///
    /// Blocks as ``exchange(_:label:folder:timeout:)`` does, each of the at most two exchanges
    /// with its own `timeout`.
    /// - Parameters:
    ///   - request: The request.
    ///   - label: The timer's label (its socket's name).
    ///   - folder: The runtime folder.
    ///   - timeout: How long to wait for each exchange.
    /// - Returns: The reply, without its newline.
    /// - Throws: As ``exchange(_:label:folder:timeout:)``.
    public static func exchange(
        _ request: ControlRequest, label: String, folder: String, timeout: Duration = .seconds(2)
    ) throws(ControlError) -> String {
        let reply = try exchange(request.line, label: label, folder: folder, timeout: timeout)
        guard ControlRequest.isOlderTimerRefusal(reply), request.withoutOrigin != request else { return reply }
        return try exchange(request.withoutOrigin.line, label: label, folder: folder, timeout: timeout)
    }

    /// Connects to the timer's socket at `path` in `folder` once `folder` passes the timer's own
    /// rules and only if its listener runs as this user.
    /// - Returns: The connected descriptor (close-on-exec, non-blocking; the caller closes it).
    /// - Throws: As ``exchange(_:label:folder:timeout:)``, but for the answer.
    /// Blocks until `deadline` at most. C: `lstat`, `socket`, `connect`, `getsockopt(SO_PEERCRED)`.
    static func connect(to path: String, folder: String, until deadline: ContinuousClock.Instant) throws(ControlError)
        -> Int32
    {
        try RuntimeFolder.checkForUse(folder)
        // A refused connection (ECONNREFUSED) is a stale socket or one whose timer is between
        // bind() and listen(): never removed here, only by the holder of its label's lock.
        // A full queue (idle peers flooding it) is tried again within the deadline.
        let fd = try UnixSocket.connect(to: path, retryingUntil: deadline)
        var listener = PeerCredentials()
        guard peerCredentials(fd, &listener) == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "getsockopt", code: code)
        }
        guard listener.uid == getuid() else {
            close(fd)
            throw .foreignListener(path: path, uid: listener.uid)
        }
        return fd
    }

    /// The pid of the process listening on the socket that `fd` is connected to.
    ///
    /// It answers once it accepts. nil when the kernel does not say. C: `getsockopt(SO_PEERCRED)`.
    static func peerPID(_ fd: Int32) -> Int32? {
        var peer = PeerCredentials()
        return peerCredentials(fd, &peer) == 0 && peer.pid > 0 ? peer.pid : nil
    }
}

extension ControlClient {
    /// How one delivery of a request that may be sent again ended (``deliver(_:label:folder:timeout:)``).
    public enum Delivery: Equatable, Sendable {
        /// The reply, without its newline.
        case answered(String)
        /// No reply by the deadline, and the request was never read: the listener cannot have
        /// acted on it, and once this connection is closed it will not (it drops a request whose
        /// asker has gone). The listener's pid, when the kernel says.
        case unread(peerPID: Int32?)
        /// No reply by the deadline, though the request was read: the listener may have acted.
        case unanswered(peerPID: Int32?)
        /// The listener closed without a word (it ended, or was killed): `read` says whether it
        /// had read the request first (then it may have acted), as last seen while it lived.
        case closed(read: Bool)
    }

    /// Sends `request` and waits for its reply as ``exchange(_:label:folder:timeout:)-(String,_,_,_)``
    /// does, but says at the deadline whether the listener read the request at all.
    ///
    /// For a request that must act once (the kitchen's `start`, issue 42): an unread one is
    /// certainly not acted on, a read one without a reply may have been. Blocks until the reply
    /// or `timeout`.
    /// - Parameters:
    ///   - request: One line, without a newline.
    ///   - label: The socket's label.
    ///   - folder: The runtime folder.
    ///   - timeout: How long to wait for the reply.
    /// - Returns: The reply, or which way it did not come.
    /// - Throws: As ``exchange(_:label:folder:timeout:)-(String,_,_,_)``, but for a missing reply
    ///   and a close without a word (``Delivery/closed(read:)``): `.system("connect", ENOENT or
    ///   ECONNREFUSED)` for no listener.
    /// C: as `exchange`, and `ioctl(SIOCOUTQ)` every ``readCheck`` while it waits.
    public static func deliver(
        _ request: String, label: String, folder: String, timeout: Duration
    ) throws(ControlError) -> Delivery {
        let path = try socketPath(label: label, folder: folder)
        let deadline = ContinuousClock.now + timeout
        let fd = try connect(to: path, folder: folder, until: deadline)
        defer { close(fd) }
        // A request cut short is a line the listener never takes as one.
        guard UnixSocket.write(Array((request + "\n").utf8), to: fd, until: deadline) else {
            return .unread(peerPID: peerPID(fd))
        }
        // Whether it read the request is looked at while it lives: once it is gone (killed while
        // stopped) the kernel frees what it never read, and the count says nothing more.
        var read = false
        var partial: [UInt8] = []
        while true {
            do throws(ControlError) {
                let slice = min(deadline, ContinuousClock.now + Self.readCheck)
                if let reply = try readReply(fd, path: path, until: slice, into: &partial) { return .answered(reply) }
            } catch .closedUnanswered {
                return .closed(read: read)
            }
            // Unknown (not a socket the kernel counts): taken as read, the uncertain side.
            if !read, (try? unreadBytes(on: fd)) ?? 0 == 0 { read = true }
            if ContinuousClock.now >= deadline {
                return read ? .unanswered(peerPID: peerPID(fd)) : .unread(peerPID: peerPID(fd))
            }
        }
    }

    /// How often ``deliver(_:label:folder:timeout:)`` looks whether its request was read.
    static let readCheck = Duration.milliseconds(100)
}
