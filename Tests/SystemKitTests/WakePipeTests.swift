import Glibc
import Testing

@testable import SystemKit

@Suite struct WakePipeTests {
    private func readable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    @Test func ringWakesAndDrainQuiets() {
        let pipe = WakePipe()
        #expect(pipe.failure == nil)
        #expect(pipe.descriptor >= 0)
        #expect(!readable(pipe.descriptor))
        pipe.ring()
        #expect(readable(pipe.descriptor))
        pipe.drain()
        #expect(!readable(pipe.descriptor))
    }

    @Test func ringingAFullPipeNeverBlocks() {
        let pipe = WakePipe()
        for _ in 0..<200_000 { pipe.ring() }  // more than a pipe's 64 KiB
        #expect(readable(pipe.descriptor))
        pipe.drain()
        #expect(!readable(pipe.descriptor))
    }

    @Test func theReadEndIsCloseOnExecAndNonBlockingFromBirth() {
        let pipe = WakePipe()
        #expect(fcntl(pipe.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.descriptor, F_GETFL) & O_NONBLOCK != 0)
    }

}
