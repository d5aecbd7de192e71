import Glibc

extension HTTPServer {
    /// Opens the listening socket: close-on-exec and non-blocking from birth, `SO_REUSEADDR`,
    /// bound and listening, handed to libmicrohttpd (which closes it when the daemon stops).
    /// - Parameters:
    ///   - address: A numeric IPv4 or IPv6 address.
    ///   - port: The TCP port; 0 for any free one.
    /// - Returns: The socket and the port it is bound to.
    /// - Throws: ``HTTPServerError`` naming the address and the reason (`Address already in use`).
    /// C: `socket`, `inet_pton`, `bind`, `listen`, `getsockname`.
    static func listen(address: String, port: UInt16) throws(HTTPServerError) -> (Int32, UInt16) {
        let isIPv6 = address.contains(":")
        let shown = isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
        var storage = sockaddr_storage()
        let length: Int
        let parsed = withUnsafeMutablePointer(to: &storage) { pointer -> Bool in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = port.bigEndian
                    return inet_pton(AF_INET6, address, &$0.pointee.sin6_addr) == 1
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                $0.pointee.sin_family = sa_family_t(AF_INET)
                $0.pointee.sin_port = port.bigEndian
                return inet_pton(AF_INET, address, &$0.pointee.sin_addr) == 1
            }
        }
        length = isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        guard parsed else { throw HTTPServerError(description: "not a numeric IP address: \(address)") }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let listener = socket(isIPv6 ? AF_INET6 : AF_INET, type, 0)
        guard listener >= 0 else {
            throw HTTPServerError(description: "cannot listen on \(shown): \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(length)) }
        }
        guard bound == 0, Glibc.listen(listener, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw HTTPServerError(description: "cannot listen on \(shown): \(reason)")
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &actualLength) }
        }
        let boundPort = withUnsafePointer(to: &actual) { pointer in
            isIPv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
        }
        return (listener, boundPort)
    }

    /// The numeric text of a peer address (IPv4-mapped IPv6 addresses as plain IPv4).
    ///
    /// C: `inet_ntop`.
    static func numericText(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var bytes = v4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var bytes = v6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
            }
        default: return ""
        }
        let result = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return result.hasPrefix("::ffff:") && result.contains(".") ? String(result.dropFirst(7)) : result
    }
}
