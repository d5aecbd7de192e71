import Glibc
import TestSupport
import Testing

/// The helpers' own promises: descriptors close-on-exec from birth, and a spawned child gets only
/// 0, 1 and 2 from the test process, so parallel tests never hold each other's pipes or terminals.
@Suite struct SubprocessHygieneTests {
    @Test func pipesAndTerminalsAreCloseOnExec() {
        let ends = makePipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        #expect(isCloseOnExec(ends.read) && isCloseOnExec(ends.write))
        let pty = PseudoTerminal(["10m", "-D", "null"])
        #expect(isCloseOnExec(pty.master) && isCloseOnExec(pty.slave))
    }

    /// Even a descriptor the test process leaves inheritable (as another library might) stays out.
    @Test func aSpawnedChildHoldsNoneOfTheTestProcessesDescriptors() throws {
        var inheritable: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&inheritable) == 0)  // deliberately not close-on-exec
        defer { for fd in inheritable { close(fd) } }
        let (pid, reader) = Eggtimer(["10m", "--json", "-D", "null"]).intoPipe()
        defer { close(reader) }
        var byte: UInt8 = 0
        while read(reader, &byte, 1) == 1 && byte != UInt8(ascii: "\n") {}  // running: past exec
        let childTargets = descriptorTargets("/proc/\(pid)/fd")
        kill(pid, SIGTERM)
        _ = waitForExit(pid)
        let ours = Set(inheritable.map { target("/proc/self/fd/\($0)") })
        #expect(!childTargets.isEmpty)
        #expect(childTargets.isDisjoint(with: ours), "the child holds \(childTargets.intersection(ours))")
    }

    private func isCloseOnExec(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) & FD_CLOEXEC != 0 }

    /// What a `/proc/…/fd/N` link points at, such as `pipe:[1234]`.
    private func target(_ link: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(link, &buffer, buffer.count - 1)
        return String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The targets of every descriptor listed in a `/proc/PID/fd` folder.
    private func descriptorTargets(_ folder: String) -> Set<String> {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var targets: Set<String> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { targets.insert(target(folder + "/" + name)) }
        }
        return targets
    }
}
