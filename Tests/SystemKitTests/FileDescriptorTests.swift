import Glibc
import Testing

@testable import SystemKit

@Suite struct FileDescriptorTests {
    private static func isCloseOnExec(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0
    }

    @Test func everyMakerGivesACloseOnExecDescriptor() throws {
        let file = try FileDescriptor.open(Array("/dev/null".utf8), O_RDONLY)
        #expect(Self.isCloseOnExec(file.rawValue))
        let pipe = try FileDescriptor.pipe(flags: O_NONBLOCK)
        #expect(Self.isCloseOnExec(pipe.read.rawValue) && Self.isCloseOnExec(pipe.write.rawValue))
        #expect(fcntl(pipe.read.rawValue, F_GETFL) & O_NONBLOCK != 0)
        let socket = try FileDescriptor.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue))
        #expect(Self.isCloseOnExec(socket.rawValue))
        let timer = try FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true)
        #expect(Self.isCloseOnExec(timer.rawValue))
        #expect(fcntl(timer.rawValue, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func openFailuresThrowTheirErrno() {
        #expect(throws: Errno(ENOENT)) { try FileDescriptor.open(Array("/nonexistent-systemkit/x".utf8), O_RDONLY) }
        #expect(throws: Errno(EINVAL)) { try FileDescriptor.open([UInt8(ascii: "a"), 0, UInt8(ascii: "b")], O_RDONLY) }
    }

    @Test func acceptGivesACloseOnExecConnection() throws {
        let listener = try FileDescriptor.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)  // autobind: an abstract address of the kernel's choice
        var length = socklen_t(MemoryLayout<sa_family_t>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener.rawValue, $0, length) }
        }
        try #require(bound == 0 && listen(listener.rawValue, 1) == 0)
        length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener.rawValue, $0, &length) }
        }
        try #require(named == 0)
        let client = try FileDescriptor.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client.rawValue, $0, length) }
        }
        try #require(connected == 0)
        let connection = try listener.accept(flags: Int32(SOCK_NONBLOCK.rawValue))
        #expect(Self.isCloseOnExec(connection.rawValue))
        #expect(fcntl(connection.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(throws: Errno(EAGAIN)) {
            let nonBlocking = try FileDescriptor.socket(
                domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            _ = nonBlocking
            _ = fcntl(listener.rawValue, F_SETFL, O_NONBLOCK)
            _ = try listener.accept()
        }
    }

    @Test func droppingClosesAndReleasingDoesNot() throws {
        // Both ends of one pipe: the write end's close is seen on the read end as end-of-file.
        let pipe = try FileDescriptor.pipe(flags: O_NONBLOCK)
        let read = pipe.read
        do { _ = consume pipe.write }  // dropped: closed
        var byte: UInt8 = 0
        #expect(Glibc.read(read.rawValue, &byte, 1) == 0, "end-of-file once the only write end closed")
        let raw = read.release()
        #expect(fcntl(raw, F_GETFD) >= 0, "still open after release")
        close(raw)
    }
}

@Suite struct SystemCallTests {
    @Test func peerCredentialsNameThisProcess() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        defer { for end in ends { close(end) } }
        var peer = PeerCredentials()
        #expect(peerCredentials(ends[0], &peer) == 0)
        #expect(peer.pid == getpid() && peer.uid == getuid() && peer.gid == getgid())
        #expect(peerCredentials(-1, &peer) == -1 && errno == EBADF)
    }

    @Test func anArmedTimerFiresAtItsAbsoluteDeadline() throws {
        let timer = try FileDescriptor.timer(clock: CLOCK_BOOTTIME, nonBlocking: true)
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        #expect(armTimer(timer.rawValue, at: now))  // already due: fires at once
        var entry = pollfd(fd: timer.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 10_000) == 1)
        var expirations: UInt64 = 0
        #expect(read(timer.rawValue, &expirations, 8) == 8 && expirations == 1)
        #expect(!armTimer(-1, at: now) && errno == EBADF)
    }
}
