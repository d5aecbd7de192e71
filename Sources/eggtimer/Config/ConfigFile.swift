import AlarmAudio
import Glibc
import SystemKit

/// A bad config file: one line naming the file and, for a bad line, its number and key; the app
/// exits 78 (EX_CONFIG).
///
/// `/home/u/.config/eggtimer/config:3: volume: needs a whole number from 10 to 100 (percent), got '200'`.
struct ConfigError: Error, Equatable, CustomStringConvertible {
    let description: String

    /// - Parameters:
    ///   - file: The file's path, as messages show it (``ConfigFile/Location/name``).
    ///   - line: The bad line's number, counted from 1, or nil for the file as a whole.
    ///   - problem: What is wrong.
    init(file: String, line: Int? = nil, _ problem: String) {
        description = file + (line.map { ":\($0)" } ?? "") + ": " + problem
    }

    /// A bad setting found after the file was read (the voice, checked at start), at `line`.
    /// - Parameters:
    ///   - line: Where the setting is.
    ///   - problem: What is wrong, starting with the key: `voice: espeak-ng has no voice 'xx'`.
    init(at line: ConfigLine, _ problem: String) { self.init(file: line.file, line: line.number, problem) }
}

/// Where the config file set a value: its path as messages show it and the line, counted from 1.
///
/// Kept with a value that is checked only later (``Options/voiceConfigLine``), so that its
/// message names the file and line as the reader's own do.
struct ConfigLine: Equatable, Sendable {
    let file: String
    let number: Int
}

/// The config file's bytes and where they came from.
///
/// Found at `$EGGTIMER_CONFIG`, else `$XDG_CONFIG_HOME/eggtimer/config`, else
/// `$HOME/.config/eggtimer/config` (XDG Base Directory: an empty or relative `XDG_CONFIG_HOME` is
/// ignored). Read once, on the main thread, before the timer starts.
struct ConfigFile: Equatable {
    /// Where the config file is looked for.
    struct Location: Equatable {
        /// The path as the kernel takes it: bytes, which need not be UTF-8.
        var path: [UInt8]
        /// Whether it was named (`EGGTIMER_CONFIG`), so that a missing file is an error; the
        /// default location may be missing.
        var required: Bool

        /// The path for messages: one line, invalid UTF-8 and control characters as `\xHH`.
        var name: String { SoundFilePath(bytes: path).description }

        /// `relative` taken from the file's folder: an absolute path as it is, else the file's path
        /// up to its last `/` (or `./`) with `relative` after it.
        /// - Parameter relative: A path in the file, as bytes.
        /// - Returns: The path to open.
        func resolving(_ relative: [UInt8]) -> [UInt8] {
            let slash = UInt8(ascii: "/")
            if relative.first == slash { return relative }
            guard let last = path.lastIndex(of: slash) else { return Array("./".utf8) + relative }
            return path[...last] + relative
        }
    }

    /// The longest file read, in bytes: a config file is a few lines; `/dev/zero` is not one.
    static let sizeLimit = 64 * 1024

    var location: Location
    /// The file's contents.
    var contents: [UInt8]

    /// The process's environment variable `name`, as bytes (`getenv`).
    static func processEnvironment(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value)))
    }

    /// Where the config file is, from the environment.
    /// - Parameter environment: An environment variable's value by name; an empty one counts as unset.
    /// - Returns: The location, or nil when neither `EGGTIMER_CONFIG`, an absolute
    ///   `XDG_CONFIG_HOME` nor `HOME` is set (there is then no config file).
    static func location(environment: (String) -> [UInt8]?) -> Location? {
        func variable(_ name: String) -> [UInt8]? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        if let path = variable("EGGTIMER_CONFIG") { return Location(path: path, required: true) }
        let suffix = Array("/eggtimer/config".utf8)
        if let home = variable("XDG_CONFIG_HOME"), home.first == UInt8(ascii: "/") {
            return Location(path: home + suffix, required: false)
        }
        if let home = variable("HOME") {
            return Location(path: home + Array("/.config".utf8) + suffix, required: false)
        }
        return nil
    }

    /// Reads the config file at `location`.
    ///
    /// Blocks for the read (a local file); opens with `O_NONBLOCK` so that a FIFO cannot hang it.
    /// - Parameter location: Where it is.
    /// - Returns: The file, or nil when it does not exist and was not named.
    /// - Throws: `ConfigError` naming the file when it cannot be opened or read (a named one missing,
    ///   permissions), is a directory, FIFO or socket, or is longer than ``sizeLimit``.
    /// C: `open`, `fstat`, `read`.
    static func read(_ location: Location) throws(ConfigError) -> ConfigFile? {
        let descriptor = (location.path + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            }
        }
        if descriptor < 0 {
            let error = errno
            if error == ENOENT, !location.required { return nil }
            throw ConfigError(file: location.name, "cannot open it: \(errorText(error))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ConfigError(file: location.name, "cannot read it: \(errorText(errno))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw ConfigError(file: location.name, "is a directory, not a config file")
        case S_IFIFO, S_IFSOCK: throw ConfigError(file: location.name, "is not a regular file")
        default: break
        }
        let contents: [UInt8]
        do { contents = try RegularFile.read(descriptor, limit: sizeLimit) } catch {
            throw ConfigError(file: location.name, "cannot read it: \(error.text)")
        }
        guard contents.count <= sizeLimit else {
            throw ConfigError(
                file: location.name, "is longer than \(sizeLimit / 1024) KiB; a config file is a few lines")
        }
        return ConfigFile(location: location, contents: contents)
    }
}
