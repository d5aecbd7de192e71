import AlarmAudio
import Glibc
import TestSupport
import Testing
import TimerCore
import TimerText

@testable import eggtimer

/// A config file at `path` holding `text`, without touching the disk.
private func file(_ text: String, at path: String = "/home/u/.config/eggtimer/config") -> ConfigFile {
    ConfigFile(location: .init(path: Array(path.utf8), required: false), contents: Array(text.utf8))
}

/// The message `Options.settings(from:)` throws for `text`, or nil when it is accepted.
private func message(_ text: String) -> String? {
    do {
        _ = try Options.settings(from: file(text))
        return nil
    } catch {
        return error.description
    }
}

@Suite struct ConfigSyntaxTests {
    @Test(arguments: [
        ("volume = 50", "volume", "50"),
        ("volume=50", "volume", "50"),
        ("  volume \t=\t 50  ", "volume", "50"),
        ("volume = 50\r", "volume", "50"),
        ("ring-for = 2 min", "ring-for", "2 min"),
        (#"device = "  spaced  ""#, "device", "  spaced  "),
        (#"device = "a \"b\" c\\d""#, "device", #"a "b" c\d"#),
        (##"device = "#not a comment""##, "device", "#not a comment"),
        (#"device = a"b\c"#, "device", #"a"b\c"#),  // without quotes, quotes and backslashes are plain
        ("device = a = b", "device", "a = b"),  // the first `=` splits
        ("sound = x # y.mp3", "sound", "x # y.mp3"),  // no comment after a value
        ("device = file:'/tmp/c.raw',raw", "device", "file:'/tmp/c.raw',raw"),
        ("sound = Réveil.mp3", "sound", "Réveil.mp3"),
    ])
    func acceptedSettings(line: String, key: String, value: String) throws {
        let parsed = try ConfigSyntax.parse(Array(line.utf8)[...])
        guard case .setting(let parsedKey, let raw) = parsed else {
            Issue.record("'\(line)' read as \(parsed)")
            return
        }
        #expect(parsedKey == key)
        #expect(try ConfigSyntax.value(raw, key: key) == value)
    }

    @Test(arguments: ["", "   ", "\t", "\r", "# a comment", "   # indented", "#volume = 200", "# = ="])
    func blankLinesAndCommentsSayNothing(line: String) throws {
        #expect(try ConfigSyntax.parse(Array(line.utf8)[...]) == .blank)
    }

    @Test func linesSplitAtLFAndALastLineWithoutOneCounts() {
        #expect(ConfigSyntax.lines(of: Array("a\nb".utf8)).map { Array($0) } == [Array("a".utf8), Array("b".utf8)])
        #expect(ConfigSyntax.lines(of: Array("a\n\nb\n".utf8)).count == 3)
        #expect(ConfigSyntax.lines(of: []).isEmpty)
    }
}

@Suite struct ConfigFileErrorTests {
    static let keys =
        "device, fallback-device, sound, ring-for, volume, ramp, announce, voice, soft, medium, hard, size, weight, from, "
        + "fridge-temperature, altitude, water, "
        + "mqtt, mqtt-cafile, mqtt-password-file, node, mqtt-prefix, http, http-cert, http-key, http-host, max-timers, keys, listen, wake, listen-labels, key-4, key-5, key-6, key-7, key-8, key-9, "
        + "key-guard, key-debounce"

    /// Each bad file, and the whole message: file, the first bad line's number, key and problem.
    @Test(arguments: [
        ("volume 50", "1: expected 'key = value', got 'volume 50'"),
        ("= 5", "1: expected 'key = value', got '= 5'"),
        ("  = 5", "1: expected 'key = value', got '= 5'"),
        ("frobnicate = 1", "1: frobnicate: unknown key (the keys are \(keys))"),
        ("Volume = 5", "1: Volume: unknown key (the keys are \(keys))"),
        ("loops = 3", "1: loops: unknown key (the keys are \(keys))"),
        ("label = kitchen", "1: label: unknown key (the keys are \(keys))"),
        ("--volume = 5", "1: --volume: unknown key (the keys are \(keys))"),
        ("help = 1", "1: help: unknown key (the keys are \(keys))"),
        ("# volume\n\n   \nvolume = 200", "4: volume: needs a whole number from 10 to 100 (percent), got '200'"),
        ("volume = 50 # quieter", "1: volume: needs a whole number from 10 to 100 (percent), got '50 # quieter'"),
        ("ramp = soon", "1: ramp: invalid duration 'soon': no number in it"),
        ("ring-for = 0", "1: ring-for: invalid duration '0': must be more than zero"),
        ("soft = 1000h", "1: soft: invalid duration '1000h': longer than the maximum 999:59:59"),
        ("device =", "1: device: needs a value"),
        ("device =   ", "1: device: needs a value"),
        (#"device = """#, "1: device: needs a value"),
        (#"device = "abc"#, "1: device: the quote is not closed"),
        (#"device = "abc\""#, "1: device: the quote is not closed"),
        (#"device = "a" b"#, "1: device: text after the closing quote: ' b'"),
        (#"device = "a\nb""#, #"1: device: unknown escape '\n' in quotes (only \" and \\)"#),
        ("device = a\u{1B}[2Jb", "1: device: has a control character in its value"),
        ("device = \"a\tb\"", "1: device: has a control character in its value"),
        (#"fallback-device = """#, "1: fallback-device: needs a value"),
        (
            "fallback-device = " + String(repeating: "x", count: 256),
            "1: fallback-device: takes at most 255 bytes, got 256"
        ),
        ("volume = 50\ndevice = null\nvolume = 60", "3: volume: given twice (first on line 1)"),
        // Issue 37, the audible floor: no volume below 10 %, no ramp longer than 60 s.
        ("device = null\nvolume = 0", "2: volume: \(TimerOptionTests.belowFloor("0"))"),
        ("volume = 9%", "1: volume: \(TimerOptionTests.belowFloor("9%"))"),
        ("ramp = 61s", "1: ramp: \(TimerOptionTests.rampTooLong("61s"))"),
        ("# wake gently\nramp = 5 min", "2: ramp: \(TimerOptionTests.rampTooLong("5 min"))"),
        ("soft = x\nvolume 1", "1: soft: invalid duration 'x': no number in it"),  // the first bad line
        ("volume 1\nsoft = x", "1: expected 'key = value', got 'volume 1'"),
        ("device = null\r\nvolume = 101\r\n", "2: volume: needs a whole number from 10 to 100 (percent), got '101'"),
    ])
    func aBadLineIsNamedByFileLineAndKey(text: String, expected: String) {
        #expect(message(text) == "/home/u/.config/eggtimer/config:" + expected)
    }

    @Test func invalidUTF8IsNamedByItsLine() {
        var bytes = Array("device = null\nsound = R".utf8)
        bytes += [0xE9] + Array("veil.mp3\n".utf8)
        let file = ConfigFile(location: .init(path: Array("/c/config".utf8), required: true), contents: bytes)
        #expect(throws: ConfigError(file: "/c/config", line: 2, "not UTF-8 text")) { try Options.settings(from: file) }
    }

    /// A UTF-8 byte-order mark at the start of the file is dropped; anywhere else it is an error.
    ///
    /// Issue 21: a file saved with one read its first key as "\u{FEFF}volume", an unknown key with
    /// an invisible character.
    @Test func aByteOrderMarkAtTheStartIsAccepted() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let location = ConfigFile.Location(path: Array("/c/config".utf8), required: true)
        let options = try Options.settings(
            from: ConfigFile(location: location, contents: bom + Array("volume = 40\r\ndevice = null\r\n".utf8)))
        #expect(options.volume == 40)
        #expect(options.device == "null")
        #expect(throws: ConfigError.self) {
            try Options.settings(from: ConfigFile(location: location, contents: Array("volume = 40\n".utf8) + bom))
        }
    }

    @Test func aPathThatIsNotUTF8IsShownEscaped() {
        let location = ConfigFile.Location(path: Array("/c/k".utf8) + [0xFF] + Array("/config".utf8), required: true)
        #expect(location.name == "/c/k\\xFF/config")
        #expect(throws: ConfigError(file: "/c/k\\xFF/config", line: 1, "volume: needs a value")) {
            try Options.settings(from: ConfigFile(location: location, contents: Array("volume =".utf8)))
        }
    }
}

@Suite struct ConfigSettingsTests {
    @Test func anEmptyOrMissingFileIsTheDefaults() throws {
        #expect(try Options.settings(from: nil) == Options())
        #expect(try Options.settings(from: file("")) == Options())
        #expect(try Options.settings(from: file("# only a comment\n\n")) == Options())
    }

    @Test func everyKeySetsItsOption() throws {
        let options = try Options.settings(
            from: file(
                """
                # the kitchen
                device = sysdefault:CARD=Headphones
                sound = /usr/share/sounds/bell.mp3
                volume = 40%
                ramp = 20s
                ring-for = 5m
                soft = 4m30s
                medium = 6:30
                hard = 10m
                """))
        var expected = Options()
        expected.device = "sysdefault:CARD=Headphones"
        expected.soundPath = SoundFilePath("/usr/share/sounds/bell.mp3")
        expected.volume = 40
        expected.ramp = .seconds(20)
        expected.ringFor = .seconds(300)
        expected.presets[0].duration = .seconds(270)
        expected.presets[1].duration = .seconds(390)
        expected.presets[2].duration = .seconds(600)
        expected.explicitPresets = [true, true, true]
        #expect(options == expected)
    }

    @Test(arguments: [
        ("/home/u/.config/eggtimer/config", "bell.mp3", "/home/u/.config/eggtimer/bell.mp3"),
        ("/home/u/.config/eggtimer/config", "../../sounds/bell.mp3", "/home/u/.config/eggtimer/../../sounds/bell.mp3"),
        ("/home/u/.config/eggtimer/config", "/opt/bell.mp3", "/opt/bell.mp3"),
        ("/config", "bell.mp3", "/bell.mp3"),
        ("config", "bell.mp3", "./bell.mp3"),
        ("conf/config", "1s", "conf/1s"),  // a file, not a duration: it is named from the folder
        ("/etc/eggtimer/config", "\"  spaced.mp3\"", "/etc/eggtimer/  spaced.mp3"),
    ])
    func aRelativeSoundIsTakenFromTheFilesFolder(configPath: String, value: String, expected: String) throws {
        let options = try Options.settings(from: file("sound = \(value)", at: configPath))
        #expect(options.soundPath == SoundFilePath(expected))
    }

    @Test func theSoundKeepsTheFoldersBytes() throws {
        let folder = Array("/home/".utf8) + [0xE9] + Array("/eggtimer".utf8)
        let file = ConfigFile(
            location: .init(path: folder + Array("/config".utf8), required: true), contents: Array("sound = a.mp3".utf8)
        )
        #expect(try Options.settings(from: file).soundPath == SoundFilePath(bytes: folder + Array("/a.mp3".utf8)))
    }

    /// The file over the built-in defaults, the command line over the file.
    @Test func theCommandLineWinsOverTheFileAndTheFileOverTheDefaults() throws {
        let base = try Options.settings(
            from: file("device = null\nvolume = 30\nsoft = 4m\nmedium = 6m\nring-for = 1m\nsound = bell.mp3"))
        let options = try Options.parse(
            ["soft", "-D", "plughw:1", "--soft", "3m", "--sound", "/tmp/x.mp3", "--ramp", "5s"], base: base)
        #expect(options.device == "plughw:1")
        #expect(options.presets[0].duration == .seconds(180))
        #expect(options.soundPath == SoundFilePath("/tmp/x.mp3"))
        #expect(options.ramp == .seconds(5))
        // Not given: the file's.
        #expect(options.volume == 30)
        #expect(options.presets[1].duration == .seconds(360))
        #expect(options.ringFor == .seconds(60))
        // In neither: the default.
        #expect(options.presets[2].duration == Preset.eggs[2].duration)
        #expect(options.command == .preset(0))
        #expect(options.start == .timer(.egg(0), .seconds(180), label: "Soft"))
        // The file's egg time starts the preset when the command line leaves it.
        #expect(try Options.parse(["medium"], base: base).start == .timer(.egg(1), .seconds(360), label: "Medium"))
    }

    @Test func aSettingTheCommandLineAlsoGivesIsNotGivenTwice() throws {
        let base = try Options.settings(from: file("volume = 30"))
        #expect(try Options.parse(["1m", "--volume", "70"], base: base).volume == 70)
        #expect(throws: UsageError(description: "option '--volume' given twice")) {
            try Options.parse(["1m", "--volume", "70", "--volume", "20"], base: base)
        }
    }

    /// The example in docs/DESIGN.md's "Config file" is a valid file that sets every key.
    @Test func theDesignNotesExampleIsAValidFile() throws {
        let readme = String(decoding: try #require(readFile(repositoryRoot + "/docs/DESIGN.md")), as: UTF8.self)
        let start = try #require(readme.firstRange(of: "```ini\n"))
        let end = try #require(readme[start.upperBound...].firstRange(of: "```\n"))
        let example = String(readme[start.upperBound..<end.lowerBound])
        let options = try Options.settings(from: file(example))
        #expect(options.device == "sysdefault:CARD=Headphones")
        #expect(options.soundPath == SoundFilePath("/home/u/.config/eggtimer/bell.mp3"))
        #expect(options.volume == 60 && options.ramp == .seconds(20) && options.ringFor == .seconds(600))
        #expect(options.presets.map(\.duration) == [.seconds(270), .seconds(390), .seconds(660)])
        // Every key it sets is one; the egg keys it leaves out are said in its comments.
        let keys = Set(example.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.prefix { $0 != " " } })
        #expect(keys.isSubset(of: Set(Options.configSpecs.map { Substring($0.key) })))
        for key in Options.configSpecs.map(\.key) {
            #expect(example.contains(key), "docs/DESIGN.md's example does not mention \(key)")
        }
    }

    /// The config file's keys are the table's rows marked for it; every one has a value.
    @Test func theKeysAreTheOptionsMarkedForTheFile() {
        #expect(
            Options.configSpecs.map(\.key) == [
                "device", "fallback-device", "sound", "ring-for", "volume", "ramp", "announce", "voice", "soft",
                "medium", "hard", "size",
                "weight", "from",
                "fridge-temperature", "altitude", "water", "mqtt", "mqtt-cafile", "mqtt-password-file", "node",
                "mqtt-prefix", "http", "http-cert", "http-key", "http-host", "max-timers", "keys", "listen", "wake",
                "listen-labels", "key-4", "key-5",
                "key-6", "key-7", "key-8", "key-9", "key-guard", "key-debounce",
            ])
        // A flag's key takes yes or no (`announce = yes`); every other key has the option's value.
        #expect(
            Options.configSpecs.allSatisfy {
                ($0.spec.takesValue || $0.key == "announce") && $0.spec.group != .subcommand
            })
    }
}

@Suite struct ConfigLocationTests {
    @Test(arguments: [
        ([String: String](), nil as String?, false),
        (["HOME": "/home/u"], "/home/u/.config/eggtimer/config", false),
        (["HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg"], "/xdg/eggtimer/config", false),
        (["HOME": "/home/u", "XDG_CONFIG_HOME": "relative"], "/home/u/.config/eggtimer/config", false),
        (["HOME": "/home/u", "XDG_CONFIG_HOME": ""], "/home/u/.config/eggtimer/config", false),
        (["XDG_CONFIG_HOME": "/xdg", "EGGTIMER_CONFIG": "/etc/k"], "/etc/k", true),
        (["XDG_CONFIG_HOME": "/xdg", "EGGTIMER_CONFIG": ""], "/xdg/eggtimer/config", false),
        (["EGGTIMER_CONFIG": "here"], "here", true),
        (["HOME": ""], nil, false),
    ])
    func theFileIsFoundFromTheEnvironment(environment: [String: String], path: String?, required: Bool) {
        let location = ConfigFile.location { environment[$0].map { Array($0.utf8) } }
        #expect(location?.path == path.map { Array($0.utf8) })
        #expect(location.map(\.required) ?? false == required)
    }
}

@Suite struct ConfigFileReadingTests {
    private func read(_ path: String, required: Bool) -> Result<ConfigFile?, ConfigError> {
        Result { () throws(ConfigError) in try ConfigFile.read(.init(path: Array(path.utf8), required: required)) }
    }

    @Test func aMissingFileIsNoneUnlessItWasNamed() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        #expect(read(dir + "/config", required: false) == .success(nil))
        #expect(
            read(dir + "/config", required: true)
                == .failure(ConfigError(file: dir + "/config", "cannot open it: No such file or directory")))
    }

    @Test func aFileIsReadWhole() throws {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        let text = Array(String(repeating: "# a long comment line\n", count: 2000).utf8) + Array("volume = 5".utf8)
        writeFile(dir + "/config", text)
        let file = try read(dir + "/config", required: false).get()
        #expect(file?.contents == text)
        #expect(try read("/dev/null", required: true).get()?.contents == [])
    }

    @Test func aFolderAFIFOAHugeFileAndABadPathAreErrors() {
        let dir = makePrivateDirectory()
        defer { removeDirectory(dir) }
        #expect(read(dir, required: false) == .failure(ConfigError(file: dir, "is a directory, not a config file")))
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        // Opened without blocking (no writer will ever come) and refused.
        #expect(
            read(dir + "/fifo", required: true) == .failure(ConfigError(file: dir + "/fifo", "is not a regular file")))
        writeFile(dir + "/huge", [UInt8](repeating: UInt8(ascii: "#"), count: ConfigFile.sizeLimit + 1))
        #expect(
            read(dir + "/huge", required: true)
                == .failure(ConfigError(file: dir + "/huge", "is longer than 64 KiB; a config file is a few lines")))
        writeFile(dir + "/limit", [UInt8](repeating: UInt8(ascii: "#"), count: ConfigFile.sizeLimit))
        #expect((try? read(dir + "/limit", required: true).get())??.contents.count == ConfigFile.sizeLimit)
        // A default location under a file (XDG_CONFIG_HOME naming a file): not missing, an error.
        writeFile(dir + "/file", [])
        #expect(
            read(dir + "/file/eggtimer/config", required: false)
                == .failure(ConfigError(file: dir + "/file/eggtimer/config", "cannot open it: Not a directory")))
        #expect(symlink(dir + "/loop", dir + "/loop") == 0)
        #expect(
            read(dir + "/loop", required: false)
                == .failure(ConfigError(file: dir + "/loop", "cannot open it: Too many levels of symbolic links")))
    }
}

/// The boundary numbers every parser of outside bytes is tried with, in every key that takes a
/// number, a duration or a temperature: accepted, or one line naming the file, line and key.
@Suite struct ConfigFileBoundaryTests {
    static let numericKeys = [
        "ring-for", "volume", "ramp", "soft", "medium", "hard", "weight", "from", "fridge-temperature", "altitude",
        "water",
    ]
    static let boundaries = [
        "0", "-0", "+0", "1", "-1", "+1", "2147483647", "-2147483648", "4294967296", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1e999", "-1e999", "1e308", "-1e308", "1e-999", "4.9e-324",
        "nan", "NaN", "-nan", "inf", "-inf", "infinity", "0x10", "0.0", "-0.0", "1e999C", "-1e999C", "nanC", "infC",
        "-273.15C", "-274C", "1e999g", "nang", "infm", "-1e999m", "9223372036854775807m", "\"1e999\"",
    ]

    @Test(arguments: numericKeys)
    func boundaryNumbersAreAcceptedOrOneNamedLine(key: String) {
        let path = "/home/u/.config/eggtimer/config"
        for value in Self.boundaries {
            guard let message = message("\(key) = \(value)") else { continue }
            #expect(
                message.hasPrefix("\(path):1: \(key): ") && !message.contains("\n"), "\(key) = \(value): \(message)")
        }
    }
}
