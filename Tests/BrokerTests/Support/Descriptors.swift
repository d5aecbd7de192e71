import Glibc

/// A socket's address family (`SO_DOMAIN`), or -1 when `descriptor` is not a socket.
func socketDomain(_ descriptor: Int32) -> Int32 {
    var domain: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 ? domain : -1
}
