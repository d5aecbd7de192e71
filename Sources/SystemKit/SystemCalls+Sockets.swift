import CSystem

/// The bytes written on the socket `descriptor` that its peer has not read yet.
///
/// For a Unix stream socket they fall as the peer reads (the kernel frees each buffer once read):
/// a request still counted was never read, so its peer cannot have acted on it. For TCP they are
/// the bytes not sent yet or not acknowledged: they stay once the peer's receive window is full
/// (a reader that stopped) or its host stopped answering (a phone asleep off the network).
/// - Parameter descriptor: A connected socket.
/// - Returns: The count, 0 or more.
/// - Throws: ``Errno`` (`ENOTTY` for what is not a socket, `EBADF`). C: `ioctl(SIOCOUTQ)`.
public func unreadBytes(on descriptor: Int32) throws(Errno) -> Int {
    let count = CSystem_unreadBytes(descriptor)
    guard count >= 0 else { throw .current }
    return Int(count)
}

/// The `poll` event of a stream socket whose peer closed its end or shut down its writing half
/// (`POLLRDHUP`), seen without reading; `POLLHUP` and `POLLERR` are reported whatever is asked.
public let pollPeerClosed = CSystem_POLLRDHUP
