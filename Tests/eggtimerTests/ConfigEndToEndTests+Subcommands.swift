import Glibc
import TestSupport
import Testing

/// Which subcommands read the config file (issue 24): the long-running ones (`follow`) do, the
/// one-shot ones (`status`, `ack`, …) never do.
@Suite struct ConfigSubcommandTests {
    @Test func aOneShotSubcommandIgnoresABrokenConfigFileWhileFollowReportsIt() {
        let dir = makePrivateDirectory()
        let runtime = makePrivateDirectory()
        defer {
            removeDirectory(dir)
            removeDirectory(runtime)
        }
        writeFile(dir + "/config", Array("volume = 200\n".utf8))
        let environment = ["EGGTIMER_CONFIG": dir + "/config", "XDG_RUNTIME_DIR": runtime]
        let status = runEggtimer(["status"], environment: environment, timeout: .seconds(10))
        #expect(status.termination != .exited(78), "\(status.stderr)")
        #expect(!status.stderr.contains("config") && !status.stdout.contains("config"), "\(status.stderr)")
        let follow = runEggtimer(["follow", "-D", "null"], environment: environment, timeout: .seconds(10))
        #expect(follow.termination == .exited(78), "\(follow.stderr)")
        #expect(
            follow.stderr
                == "eggtimer: \(dir)/config:1: volume: needs a whole number from 10 to 100 (percent), got '200'\n")
    }
}
