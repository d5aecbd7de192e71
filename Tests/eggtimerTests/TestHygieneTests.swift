import Glibc
import TestSupport
import Testing

/// The shim module only SystemKit may import.
private let module = "CSystem"

/// What the suite itself must hold to on a fresh machine: every outside program it runs comes
/// from a package the Makefile installs, and nothing it does leaves the machine.
@Suite struct TestHygieneTests {
    @Test(arguments: SystemTool.all)
    func everyToolsPackageIsInAMakefilePackageList(tool: SystemTool) {
        #expect(MakefilePackages.names.contains(tool.package), "\(tool.location): \(tool.problem ?? "")")
    }

    @Test func aToolFromAnUnlistedPackageIsReported() {
        let tool = SystemTool("/bin/true", package: "no-such-listed-package")
        #expect(
            tool.problem
                == "/bin/true comes from Debian package no-such-listed-package, which no package list in the Makefile names"
        )
        #expect(MakefilePackages.names.isSuperset(of: ["libasound2-dev", "pulseaudio", "gcc", "iproute2"]))
    }

    @Test func aMissingToolIsReported() {
        let tool = SystemTool("/usr/bin/eggtimer-no-such-tool", package: "gcc")
        #expect(tool.problem?.hasPrefix("/usr/bin/eggtimer-no-such-tool is missing: Debian package gcc") == true)
    }

    /// A path of a system program, library or zone file written in a test source outside
    /// SystemTool.swift would bypass the package check.
    @Test func testsNameSystemFilesOnlyThroughSystemTool() {
        let programs = ["\"/bin/", "\"/sbin/", "\"/usr/bin/", "\"/usr/sbin/", "\"/usr/share/zoneinfo/"]
        func namesASystemFile(_ code: Substring) -> Bool {
            programs.contains { code.contains($0) } || (code.contains("\"/usr/lib/") && code.contains(".so"))
        }
        var found: [String] = []
        for file in swiftFiles(under: repositoryRoot + "/Tests")
        where !file.hasSuffix("/SystemTool.swift") && !file.hasSuffix("/TestHygieneTests.swift") {
            for (number, line) in readText(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                guard !code.hasPrefix("//") else { continue }
                if namesASystemFile(code) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// CSystem (the declarations Glibc lacks) is seen by SystemKit alone: every other target,
    /// the tests' included, goes through SystemKit's typed wrappers (issue 23).
    @Test func onlySystemKitImportsCSystem() {
        var found: [String] = []
        for folder in ["/Sources", "/Tests"] {
            for file in swiftFiles(under: repositoryRoot + folder)
            where !file.hasPrefix(repositoryRoot + "/Sources/SystemKit/") {
                for (number, line) in readText(file).split(separator: "\n", omittingEmptySubsequences: false)
                    .enumerated()
                where Self.importsCSystem(line) {
                    found.append("\(file):\(number + 1): \(line)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect(
            !swiftFiles(under: repositoryRoot + "/Sources/SystemKit").filter { readText($0).contains("CSystem_") }
                .isEmpty)
    }

    @Test(arguments: [
        // Built from parts, so that this file itself does not hold the text `grep` looks for.
        ("import " + module, true), ("public import " + module, true),
        ("  @_implementationOnly import " + module, true), ("@testable import " + module + "  // why", true),
        ("import SystemKit", false), ("// import " + module, false), ("import " + module + "Extras", false),
        ("let text = \"import " + module + "\"", false),
    ])
    func aCSystemImportIsRecognised(line: String, imports: Bool) {
        #expect(Self.importsCSystem(Substring(line)) == imports)
    }

    /// Whether `line` is an import declaration of the CSystem module (any access level or attribute).
    private static func importsCSystem(_ line: Substring) -> Bool {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = code.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return false }
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        guard words[..<index].allSatisfy({ $0.hasPrefix("@") || modifiers.contains($0) }) else { return false }
        return words[index + 1] == "CSystem" || words[index + 1].hasPrefix("CSystem.")
    }

    /// `make test` runs the suite through scripts/isolated.sh; run otherwise, this fails.
    @Test func theSuiteRunsInAPrivateNetworkNamespace() throws {
        try NetworkIsolation.require()
        // Beyond loopback nothing is reachable: a connect fails at once, with nothing sent.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(9).bigEndian
        address.sin_addr.s_addr = UInt32(0xC000_0201).bigEndian  // 192.0.2.1, a documentation address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(result == -1 && errno == ENETUNREACH, "connect: \(result), errno \(errno)")
    }

    /// A mechanism and the marks of writing it again, each with its one home (issue 38).
    ///
    /// A second hex table, calendar algorithm, zero-padder, printable rule, percent decoder, spawn
    /// path, `accept4` call, connection pool or JSON writer in the shipped sources fails here,
    /// naming the line. JSON's marks: a string escaper's U+2028 or `\u` escapes, and JSON objects
    /// written by hand in a string literal (`"{\"`, `#"{"`, `\":\(`).
    static let homes: [(mechanism: String, home: String, marks: [String])] = [
        ("hex digits", "/Sources/TextCoding/Hex.swift", ["0123456789abcdef", "0123456789ABCDEF", "func hexValue"]),
        ("civil dates", "/Sources/TextCoding/CivilDate.swift", ["146_097", "146097", "719_468", "719468"]),
        ("zero-padding", "/Sources/TextCoding/CivilDate.swift", [#"String(repeating: "0""#]),
        (
            "the printable rule", "/Sources/TextCoding/ControlCharacters.swift",
            ["0x7F...0x9F", "generalCategory == .control", "value == 0x7F"]
        ),
        ("percent decoding", "/Sources/TextCoding/PercentCoding.swift", ["func percentDecod", "plusIsSpace: Bool"]),
        ("process spawning", "/Sources/SystemKit/ChildProcess.swift", ["posix_spawn("]),
        ("accepting a connection", "/Sources/SystemKit/SystemCalls.swift", ["accept4("]),
        (
            "a control socket's connection pool", "/Sources/EventLoop/ControlPool.swift",
            ["server.accept()", "dropIdlest"]
        ),
        ("binding a control socket", "/Sources/ControlChannel/ControlServer.swift", ["Glibc.bind("]),
        ("binding a lost control socket again", "/Sources/EventLoop/SocketKeeper.swift", [".rebindIfLost()"]),
        ("JSON writing", "/Sources/TextCoding/JSONText.swift", ["0x2028", #""\\u"#, #""{\""#, ##"#"{""##, #"\":\("#]),
    ]

    /// The one home of small-file reads (issue 38): a file that opens a file for reading and
    /// calls `read(2)` on a descriptor itself is a second bounded file reader.
    static let fileReaderHome = "/Sources/SystemKit/RegularFile.swift"
    /// Files that still read for themselves, each with its reason: a stream, not a small file, or
    /// (issue 38) a reader in a folder another move owns, to switch to ``fileReaderHome`` there.
    static let fileReaderExceptions: [String: String] = [
        "/Sources/AlarmAudio/SoundFile.swift": "streams a sound file of any length in chunks to the decoder"
    ]

    @Test func smallFileReadsHaveOneHome() throws {
        let reads = ["read(fd,", "read(descriptor", "Glibc.read(", "read(file.rawValue"]
        var found: [String] = []
        for file in swiftFiles(under: repositoryRoot + "/Sources") {
            let name = String(file.dropFirst(repositoryRoot.count))
            guard name != Self.fileReaderHome, Self.fileReaderExceptions[name] == nil else { continue }
            let code = readText(file).split(separator: "\n").filter { !$0.drop { $0 == " " }.hasPrefix("//") }
            guard code.contains(where: { $0.contains("O_RDONLY") }) else { continue }
            for line in code where reads.contains(where: { line.contains($0) }) && !line.contains("RegularFile.read(") {
                found.append("\(name): \(line)")
            }
        }
        #expect(found.isEmpty, "a file read outside \(Self.fileReaderHome):\n\(found.joined(separator: "\n"))")
        let home = readText(repositoryRoot + Self.fileReaderHome)
        #expect(home.contains("O_RDONLY") && home.contains("Glibc.read("), "the home lost its reader")
    }

    @Test(arguments: homes.map(\.mechanism))
    func eachTextMechanismHasOneHome(mechanism: String) throws {
        let entry = try #require(Self.homes.first { $0.mechanism == mechanism })
        var found: [String] = []
        for file in swiftFiles(under: repositoryRoot + "/Sources") where file != repositoryRoot + entry.home {
            for (number, line) in readText(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                guard !code.hasPrefix("//") else { continue }
                if entry.marks.contains(where: { code.contains($0) }) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(found.isEmpty, "\(mechanism) written again outside \(entry.home):\n\(found.joined(separator: "\n"))")
        #expect(entry.marks.contains { readText(repositoryRoot + entry.home).contains($0) }, "the home lost its mark")
    }

    /// The test harness's home (issue 38): the one way to run eggtimer (`Eggtimer`, from the
    /// binary's path) and the one poll-until wait (`eventually`, and the spawn's own ETXTBSY retry).
    static let harnessHome = [
        "/Tests/TestSupport/Eggtimer.swift", "/Tests/TestSupport/Paths.swift", "/Tests/TestSupport/Eventually.swift",
        "/Tests/TestSupport/Spawn.swift",
    ]

    /// A test file runs eggtimer through the harness and waits with its `eventually`: one that
    /// names the binary's path itself, sleeps between looks or defines its own wait loop fails here.
    @Test func testsRunEggtimerAndPollOnlyThroughTheHarness() {
        var found: [String] = []
        for file in swiftFiles(under: repositoryRoot + "/Tests")
        where !Self.harnessHome.contains(where: { file == repositoryRoot + $0 })
            && !file.hasSuffix("/TestHygieneTests.swift")
        {
            for (number, line) in readText(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let work = Self.harnessWork(line) { found.append("\(file):\(number + 1): \(work): \(line)") }
            }
        }
        #expect(found.isEmpty, "use Eggtimer and eventually (Tests/TestSupport):\n\(found.joined(separator: "\n"))")
        for home in Self.harnessHome.prefix(3) {
            #expect(
                readText(repositoryRoot + home).split(separator: "\n").contains { Self.harnessWork($0) != nil },
                "\(home) lost its mark")
        }
    }

    @Test(
        arguments: [
            // Built from parts, so that this file itself holds none of the marks it looks for.
            (
                "let pid = spawnProcess(eggtimer" + "Path, arguments, actions: &actions, environment: [:])",
                "spawns eggtimer"
            ),
            ("    Child.spawn(setpriv, [\"--reuid=1\", eggtimer" + "Path, \"1\"])", "spawns eggtimer"),
            ("let bundle = readlink(\"/proc/self/" + "exe\", &buffer, 4096)", "spawns eggtimer"),
            ("    _ = poll(" + "nil, 0, 20)  // look again", "sleeps between looks"),
            ("    var pause = timespec(); nano" + "sleep(&pause, nil)", "sleeps between looks"),
            ("    try await Task." + "sleep(for: .milliseconds(5))", "sleeps between looks"),
            ("    u" + "sleep(1000)", "sleeps between looks"),
            ("        sleep" + "(until: .now + .milliseconds(5))", "sleeps between looks"),
            ("    private func wait" + "Until(_ deadline: ContinuousClock.Instant) -> Bool {", "defines a wait loop"),
            ("    func event" + "ually(timeout: Duration, _ condition: () -> Bool) -> Bool {", "defines a wait loop"),
            ("    try eventually(\"a file\", deadline: soon()) { readFile(mark) != nil }", nil),
            ("    let timer = Eggtimer([\"1\"], launcher: [SystemTool.nohup.path]).piped()", nil),
            ("    func sleep(until deadline: ContinuousClock.Instant, control: PlaybackControl) {", nil),
            ("    // _ = poll(" + "nil, 0, 20): a comment", nil),
            ("    _ = poll(&ready, 1, pollTimeout(until: deadline))", nil),
            ("    let asleep = isAsleep(pid)", nil),
        ] as [(String, String?)])
    func harnessWorkIsRecognised(line: String, work: String?) {
        #expect(Self.harnessWork(Substring(line)) == work)
    }

    /// What `line` of a test does that only the harness may: `spawns eggtimer` (names the binary's
    /// path), `sleeps between looks` (a poll-until loop's pause), `defines a wait loop`; nil: none.
    static func harnessWork(_ line: Substring) -> String? {
        let code = line.drop { $0 == " " }
        guard !code.hasPrefix("//") else { return nil }
        if code.contains("eggtimer" + "Path") || code.contains("/proc/self/" + "exe") { return "spawns eggtimer" }
        let sleeps = ["poll(" + "nil", "nano" + "sleep(", "u" + "sleep(", "Task." + "sleep(", "Thread." + "sleep("]
        if sleeps.contains(where: { code.contains($0) }) { return "sleeps between looks" }
        var rest = code[...]
        while let found = rest.firstRange(of: "sleep(") {
            let before = rest[..<found.lowerBound]
            if !(before.last.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ?? false)
                && !before.hasSuffix("func ")
            {
                return "sleeps between looks"
            }
            rest = rest[found.upperBound...]
        }
        let loops = ["func event" + "ually(", "func wait" + "Until(", "func poll" + "Until("]
        return loops.contains(where: { code.contains($0) }) ? "defines a wait loop" : nil
    }

    private func swiftFiles(under folder: String) -> [String] {
        folderEntries(folder).filter { !$0.name.hasPrefix(".") }.flatMap { entry in
            let path = folder + "/" + entry.name
            return entry.isFolder ? swiftFiles(under: path) : entry.name.hasSuffix(".swift") ? [path] : []
        }
    }
}
