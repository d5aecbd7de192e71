import Glibc
import TestSupport
import Testing

/// Issue 40: a runtime folder another local user made first.
///
/// With `XDG_RUNTIME_DIR` unset and no `/run/user/UID`, the folder is `/tmp/eggtimer-UID`; a user
/// who makes it first owns every socket there. Each run here is in a mount namespace of its own
/// with a fresh `/tmp` (and `/run/user`), where that folder is made and given to user id 4242, so
/// nothing changes outside it; it needs root (`chown`), so it runs from `make test-services`,
/// which may change the system, and never from `make test`. A detached start is refused before
/// anything runs and the kitchen says which folder would work; a timer in a terminal runs without
/// a socket (its keys stop it) and says so.
@Suite struct HostileFolderTests {
    /// Runs `arguments` with the runtime folder another user's, in a private state and config
    /// folder under /var/tmp (the namespace's /tmp is empty).
    private func runAsVictim(_ arguments: [String], timeout: Duration = .seconds(30)) throws -> (
        Eggtimer.Finished, String
    ) {
        try #require(getuid() == 0, "needs root: it gives a folder to another user (chown) in a mount namespace")
        var template = Array("/var/tmp/eggtimer-hostile-XXXXXX".utf8CString)
        let base = try #require(
            template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } })
        #expect(mkdir(base + "/state", 0o700) == 0 && mkdir(base + "/config", 0o700) == 0)
        let folder = "/tmp/eggtimer-\(getuid())"
        let script =
            "\(SystemTool.mount.path) --make-rprivate / && \(SystemTool.mount.path) -t tmpfs -o mode=1777 tmpfs /tmp"
            + " && { [ ! -d /run/user ] || \(SystemTool.mount.path) -t tmpfs tmpfs /run/user; }"
            + " && \(SystemTool.mkdir.path) -m 700 \(folder) && \(SystemTool.chown.path) 4242 \(folder) && exec \"$@\""
        let environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": base, "XDG_STATE_HOME": base + "/state",
            "XDG_CONFIG_HOME": base + "/config",
        ]
        let run = Eggtimer(
            arguments, wholeEnvironment: environment,
            launcher: [SystemTool.unshare.path, "-m", SystemTool.sh.path, "-c", script, "hostile"]
        ).run(timeout: timeout)
        let left = folderEntries(base + "/state").map(\.name)
        removeDirectory(base)
        return (run, left.joined(separator: ","))
    }

    private let advice =
        "unsafe runtime folder '/tmp/eggtimer-\(getuid())': it belongs to user 4242; set XDG_RUNTIME_DIR to a "
        + "folder of yours with mode 700 (mkdir -m 700 ~/.run; XDG_RUNTIME_DIR=~/.run)\n"

    @Test func aDetachedStartIsRefusedBeforeAnythingRuns() throws {
        let (start, state) = try runAsVictim(["start", "10m", "--label", "tea"])
        #expect(start.termination == .exited(71), "\(start.stderr)")
        #expect(start.stderr == "eggtimer: start: tea: not started: " + advice)
        #expect(state.isEmpty, "nothing ran: \(state)")
    }

    @Test func theKitchenSaysWhyAndWhichFolderWouldWork() throws {
        let (kitchen, _) = try runAsVictim(["kitchen"])
        #expect(kitchen.termination == .exited(71))
        #expect(kitchen.stderr == "eggtimer: kitchen: " + advice)
    }

    @Test func aTimerInATerminalRunsWithoutASocketAndSaysHowToStopIt() throws {
        let (timer, _) = try runAsVictim(["1s", "--label", "tea", "-D", "null", "--loops", "1"])
        #expect(timer.termination == .exited(0), "\(timer.stderr)")
        #expect(
            timer.stderr.contains(
                "eggtimer: warning: no control socket (unsafe runtime folder '/tmp/eggtimer-\(getuid())': it belongs "
                    + "to user 4242); stop the alarm with kill -USR1 "), "\(timer.stderr)")
    }
}
