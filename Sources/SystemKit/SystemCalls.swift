import CSystem
import Glibc

/// Who is at the other end of a connected Unix socket, as the kernel recorded it at connect time
/// (`SO_PEERCRED`; `struct ucred`, which Swift's Glibc module lacks).
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id (a `pid_t`).
    public var pid: Int32 = 0
    /// The peer's user id (a `uid_t`).
    public var uid: UInt32 = 0
    /// The peer's group id (a `gid_t`).
    public var gid: UInt32 = 0

    /// All zero, to be filled by ``peerCredentials(_:_:)``.
    public init() {}
}

/// Reads the peer's credentials of the connected Unix socket `descriptor` into `credentials`.
/// - Parameters:
///   - descriptor: A connected `AF_UNIX` socket.
///   - credentials: Filled on success.
/// - Returns: 0, or -1 with `errno` set. Any thread. C: `getsockopt(SO_PEERCRED)`.
public func peerCredentials(_ descriptor: Int32, _ credentials: inout PeerCredentials) -> Int32 {
    var peer = CSystem_PeerCredentials()
    let result = CSystem_peerCredentials(descriptor, &peer)
    if result == 0 { (credentials.pid, credentials.uid, credentials.gid) = (peer.pid, peer.uid, peer.gid) }
    return result
}

/// Accepts one waiting connection on the listening socket `listener`, close-on-exec from birth.
/// - Parameters:
///   - listener: A listening socket.
///   - flags: More `accept4` flags (`SOCK_NONBLOCK`); `SOCK_CLOEXEC` is added.
/// - Returns: The connected socket (the caller owns it), or -1 with `errno` set. C: `accept4`.
public func acceptConnection(on listener: Int32, flags: Int32 = 0) -> Int32 {
    accept4(listener, nil, nil, flags | Int32(SOCK_CLOEXEC.rawValue))
}
