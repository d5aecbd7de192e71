import Glibc
import SystemKit
import Testing

/// The one `dlopen` wrapper of the libraries loaded only when used (libmosquitto, libespeak-ng,
/// libsamplerate): a missing file and a missing function are one line naming the file.
@Suite struct SharedObjectTests {
    @Test func aPresentLibraryGivesItsFunctionsWithTheirCType() throws {
        let libc = try SharedObject.open("libc.so.6").get()
        typealias GetPID = @convention(c) () -> pid_t
        let function = try #require(libc.function("getpid", as: GetPID.self))
        #expect(function() == getpid())
        #expect(libc.function("no_such_function_in_libc", as: GetPID.self) == nil)
        let error = libc.lookupError.description  // dlerror's text is there to be read once
        #expect(error.hasPrefix("libc.so.6: ") && error.contains("no_such_function_in_libc"), "\(error)")
    }

    @Test func aMissingLibraryIsOneLineNamingIt() {
        switch SharedObject.open("libeggtimer-no-such-library.so.9") {
        case .success: Issue.record("opened a library that does not exist")
        case .failure(let error):
            #expect(error.description.hasPrefix("libeggtimer-no-such-library.so.9: "), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }
}
