import Glibc
import TestSupport
import Testing

/// Device names ALSA's configuration does not define exit 69 at start, before counting.
///
/// Custom definitions come from an `.asoundrc` in a private HOME given to the child only.
@Suite struct DeviceLookupEndToEndTests {
    @Test(arguments: [
        ["2s", "-D", "nosuchdevice"], ["2s", "--json", "-D", "nosuchdevice"], ["soft", "-D", "nosuchdevice"],
    ])
    func anUndefinedDeviceIsOneLineAndExit69BeforeCounting(arguments: [String]) {
        let result = runEggtimer(arguments, stdin: .null, timeout: .seconds(10))
        #expect(result.termination == .exited(69))
        #expect(result.stdout.isEmpty)  // with --json, not even "started": it never counted
        #expect(result.stderr.hasPrefix("eggtimer: no ALSA device called 'nosuchdevice' (defined: hw, plughw, "))
        #expect(result.stderr.contains(", null, "))
        #expect(result.stderr.hasSuffix("; see aplay -L)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("ALSA lib"))
    }

    @Test func aDeviceDefinedInAsoundrcPlaysAndAnotherNameListsIt() throws {
        let home = makePrivateDirectory()
        defer { removeDirectory(home) }
        writeFile(home + "/.asoundrc", Array("pcm.kitchen { type null }\n".utf8))
        let environment = ["HOME": home]

        let defined = runEggtimer(["1", "-D", "kitchen", "--loops", "1"], environment: environment)
        #expect(defined.termination == .exited(0), "\(defined.stderr)")
        #expect(defined.stderr.isEmpty)

        let dotted = runEggtimer(["1", "-D", "pcm.kitchen", "--loops", "1"], environment: environment)
        #expect(dotted.termination == .exited(0), "\(dotted.stderr)")

        let undefined = runEggtimer(["1", "-D", "kitchn", "--loops", "1"], environment: environment)
        #expect(undefined.termination == .exited(69))
        #expect(undefined.stderr.contains("'kitchn'"))
        #expect(undefined.stderr.contains(", kitchen; see aplay -L)"))  // added after alsa.conf's own
    }

    /// `pcm.!name` replaces a definition; a name redefined as an alias to nothing is still a
    /// definition (alsa-lib reports the dangling target when opening), so it counts and falls back.
    @Test func anOverrideInAsoundrcStaysDefined() {
        let home = makePrivateDirectory()
        defer { removeDirectory(home) }
        writeFile(home + "/.asoundrc", Array("pcm.!null \"nowhere\"\n".utf8))
        let result = runEggtimer(["1", "-D", "null", "--loops", "1", "--json"], environment: ["HOME": home])
        #expect(result.termination == .exited(69))
        #expect(result.stdout.contains("\"started\""))
        #expect(result.stderr.contains("cannot open audio device 'null'"))
    }
}
