import ControlChannel
import Glibc
import Testing

/// Issue 40: a control socket whose file is deleted while its process runs is bound again at the
/// same path; a path another file took is never removed.
@Suite struct ControlServerRebindTests {
    /// A fresh private folder (mode 0700) for one test.
    private func privateFolder() -> String {
        var template = Array("/tmp/eggtimer-rebind-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Removes a test folder and the files these tests leave in it.
    private func removeFolder(_ path: String) {
        for name in ["tea.sock", "tea.lock", "other"] { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// Whether a client connects to `path` (a listener takes it).
    private func connects(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// The inode number at `path` (not following a link), or nil when nothing is there.
    private func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    private static let bound = ControlServer.FileIdentity(device: 1, inode: 10)
    private static let held = ControlServer.FileIdentity(device: 1, inode: 20)
    private static let other = ControlServer.FileIdentity(device: 1, inode: 30)

    @Test(
        arguments: [
            (.file(bound), .file(held), .intact),
            (.unknown, .nothing, .intact),  // cannot be told: nothing is done
            (.file(other), .file(held), .replaced),
            (.file(other), .nothing, .replaced),
            (.nothing, .file(held), .lost(relock: false)),
            (.nothing, .nothing, .lost(relock: true)),
            (.nothing, .file(other), .lost(relock: true)),
            (.nothing, .unknown, .lost(relock: false)),
        ] as [(ControlServer.Found, ControlServer.Found, ControlServer.Standing)])
    func aGonePathIsBoundAgainAndAnotherFileIsLeftAlone(
        socket: ControlServer.Found, lock: ControlServer.Found, standing: ControlServer.Standing
    ) {
        #expect(ControlServer.standing(socket: socket, bound: Self.bound, lock: lock, held: Self.held) == standing)
    }

    @Test func aDeletedSocketIsBoundAgainAtTheSamePathAndTakesConnections() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        #expect(server.rebindIfLost() == .intact)
        let before = server.descriptor
        #expect(unlink(server.path) == 0)
        #expect(!connects(server.path), "out of reach")
        #expect(server.rebindIfLost() == .rebound)
        #expect(server.descriptor != before, "a new listening socket")
        #expect(connects(server.path))
        var info = stat()
        #expect(lstat(server.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(server.accept() != nil, "the connection arrived on the new socket")
        #expect(server.rebindIfLost() == .intact, "its own again")
        #expect(throws: ControlError.labelInUse(label: "tea")) { try ControlServer(folder: folder, label: "tea") }
    }

    @Test func aFileInItsPlaceIsLeftAloneAndTheSocketBoundAgainOnceItGoes() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        #expect(unlink(server.path) == 0)
        let fd = open(server.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        close(fd)
        let planted = inode(server.path)
        #expect(server.rebindIfLost() == .replaced(owner: nil))
        #expect(inode(server.path) == planted, "never removed")
        #expect(unlink(server.path) == 0)
        #expect(server.rebindIfLost() == .rebound)
        #expect(connects(server.path))
    }

    /// The socket and its lock file both deleted: another process may take the label meanwhile;
    /// its socket is its own, never removed, and the line names its pid.
    @Test func aSocketAndLockTakenByAnotherServerMeanwhileAreLeftToIt() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        var first: ControlServer? = try ControlServer(folder: folder, label: "tea")
        #expect(unlink(folder + "/tea.sock") == 0 && unlink(folder + "/tea.lock") == 0)
        let second = try ControlServer(folder: folder, label: "tea")
        let theirs = (inode(second.path), inode(folder + "/tea.lock"))
        #expect(first?.rebindIfLost() == .replaced(owner: getpid()))
        first = nil  // closing, it leaves the other's socket and lock file alone
        #expect(inode(second.path) == theirs.0 && inode(folder + "/tea.lock") == theirs.1)
        #expect(throws: ControlError.labelInUse(label: "tea")) { try ControlServer(folder: folder, label: "tea") }
        #expect(
            ControlServer.Rebinding.replaced(owner: 42).line(path: second.path)
                == "control socket \(second.path) is now process 42's: left alone, this one cannot be reached there")
    }

    /// The socket and its lock file deleted: the lock is taken again before the socket is bound,
    /// so no second server of the label starts afterwards.
    @Test func aDeletedLockIsTakenAgainWithTheSocket() throws {
        let folder = privateFolder()
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        #expect(unlink(server.path) == 0 && unlink(folder + "/tea.lock") == 0)
        #expect(server.rebindIfLost() == .rebound)
        #expect(inode(folder + "/tea.lock") != nil)
        #expect(throws: ControlError.labelInUse(label: "tea")) { try ControlServer(folder: folder, label: "tea") }
        #expect(connects(server.path))
    }

    @Test func aDeletedFolderIsMadeAgainPrivateAndTheSocketBoundInIt() throws {
        let base = privateFolder()
        defer { rmdir(base) }
        let folder = base + "/eggtimer"
        try RuntimeFolder.prepare(folder)
        defer { removeFolder(folder) }
        let server = try ControlServer(folder: folder, label: "tea")
        #expect(unlink(server.path) == 0 && unlink(folder + "/tea.lock") == 0 && rmdir(folder) == 0)
        #expect(server.rebindIfLost() == .rebound)
        var info = stat()
        #expect(lstat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(connects(server.path))
    }
}
