import Glibc
import Testing

@testable import SystemKit

@Suite struct RandomBytesTests {
    @Test func theKernelFillsEveryByteAskedFor() throws {
        #expect(try randomBytes(0).isEmpty)
        let first = try randomBytes(32)
        let second = try randomBytes(32)
        #expect(first.count == 32 && second.count == 32)
        // Two 256-bit draws are equal with probability 2^-256; all zero likewise.
        #expect(first != second)
        #expect(first.contains { $0 != 0 })
    }

    @Test func shortReadsAndInterruptionsAreRetriedUntilFull() throws {
        var calls = 0
        let bytes = try randomBytes(10) { buffer in
            calls += 1
            if calls % 2 == 1 { return (-1, EINTR) }  // every other call is interrupted
            let count = min(3, buffer.count)  // at most 3 bytes a call: short reads
            for index in 0..<count { buffer[index] = UInt8(calls) }
            return (count, 0)
        }
        #expect(bytes == [2, 2, 2, 4, 4, 4, 6, 6, 6, 8])
        #expect(calls == 8)
    }

    @Test func aFailureThrowsItsErrno() {
        #expect(throws: Errno(ENOSYS)) { try randomBytes(4) { _ in (-1, ENOSYS) } }
        #expect(throws: Errno(EIO)) { try randomBytes(4) { _ in (0, 0) } }
        #expect(throws: Errno(EIO)) { try randomBytes(4) { buffer in (buffer.count + 1, 0) } }
    }
}
