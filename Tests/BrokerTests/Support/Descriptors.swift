import Glibc

/// The process's open descriptors, from /proc/self/fd.
func openDescriptors() -> Set<Int32> {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var descriptors = Set<Int32>()
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if let descriptor = Int32(name) { descriptors.insert(descriptor) }
    }
    descriptors.remove(dirfd(directory))
    return descriptors
}

/// A socket's address family (`SO_DOMAIN`), or -1 when `descriptor` is not a socket.
func socketDomain(_ descriptor: Int32) -> Int32 {
    var domain: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 ? domain : -1
}
