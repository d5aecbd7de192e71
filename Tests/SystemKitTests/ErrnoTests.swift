import Glibc
import Testing

@testable import SystemKit

@Suite struct ErrnoTests {
    @Test(arguments: [
        (ENOENT, "No such file or directory"),
        (EAGAIN, "Resource temporarily unavailable"),
        (EACCES, "Permission denied"),
        (ENOSPC, "No space left on device"),
        (Int32(0), "Success"),
        (Int32(9999), "Unknown error 9999"),
        (Int32(-1), "Unknown error -1"),
    ])
    func codesHaveTheCLibrarysText(code: Int32, text: String) {
        #expect(Errno(code).text == text)
        #expect(errorText(code) == text)
        #expect("\(Errno(code))" == text)
    }

    @Test func currentIsWhatTheFailedCallLeft() {
        #expect(open("/nonexistent-systemkit-test/file", O_RDONLY | O_CLOEXEC) == -1)
        let error = Errno.current
        #expect(error == Errno(ENOENT))
        #expect(error.code == ENOENT)
    }
}
