import AlarmAudio
import SystemKit
import TimerEngine
import TimerText

// The config file's keys are options of the one table (Options+Table.swift): a key is an option's
// long name without `--`, its value is checked by the option's own `apply`, so a key's values and
// messages are the option's. A row with `inConfigFile: true` adds a key.

extension Options {
    /// The config file's keys with their options, in table order, then the keys of the file
    /// alone (``configOnlySpecs``: the keypad's).
    static let configSpecs: [(key: String, spec: Spec)] = (optionSpecs + configOnlySpecs).compactMap { spec in
        spec.configKey.map { ($0, spec) }
    }

    /// The built-in defaults with the config file's settings over them: the base the command line
    /// is parsed on (``parse(_:raw:base:)``), so that options given win over the file.
    ///
    /// A relative `sound` path is taken from the file's folder.
    /// - Parameter file: The file, or nil for none (the defaults).
    /// - Returns: The options the file sets; `command` stays `.menu`.
    /// - Throws: `ConfigError` naming the file, the first bad line and its key: not UTF-8, no `=`,
    ///   an unknown key, a key given twice, a malformed or bad value.
    static func settings(from file: ConfigFile?) throws(ConfigError) -> Options {
        var options = Options()
        guard let file else { return options }
        var seen: [String: Int] = [:]
        for (index, line) in ConfigSyntax.lines(of: file.contents).enumerated() {
            let number = index + 1
            do throws(ConfigSyntax.Problem) {
                guard case .setting(let key, let raw) = try ConfigSyntax.parse(line) else { continue }
                guard let spec = configSpecs.first(where: { $0.key == key })?.spec else {
                    let keys = configSpecs.map(\.key).joined(separator: ", ")
                    throw ConfigSyntax.Problem(description: "\(key): unknown key (the keys are \(keys))")
                }
                if let first = seen[key] {
                    throw ConfigSyntax.Problem(description: "\(key): given twice (first on line \(first))")
                }
                seen[key] = number
                try apply(spec, key: key, value: ConfigSyntax.value(raw, key: key), from: file, to: &options)
                if key == "voice" { options.voiceConfigLine = ConfigLine(file: file.location.name, number: number) }
                if key == "wake" { options.wakeConfigLine = ConfigLine(file: file.location.name, number: number) }
            } catch {
                throw ConfigError(file: file.location.name, line: number, error.description)
            }
        }
        return options
    }

    /// Reads the config file the environment points at.
    /// - Parameter environment: An environment variable's value by name.
    /// - Returns: ``settings(from:)`` of the file; the defaults when there is none.
    /// - Throws: `ConfigError`, as ``ConfigFile/read(_:)`` and ``settings(from:)`` do.
    static func configured(environment: (String) -> [UInt8]? = ConfigFile.processEnvironment) throws(ConfigError)
        -> Options
    {
        guard let location = ConfigFile.location(environment: environment) else { return Options() }
        return try settings(from: ConfigFile.read(location))
    }

    /// The options of a long-running subcommand (`follow`, `kitchen`): the config file's
    /// settings (``configured(environment:)``) under the command line.
    ///
    /// One-shot subcommands never read the file; these do, so a kitchen Pi runs them with no
    /// options. Prints the one line of a failure to standard error.
    /// - Parameters:
    ///   - arguments: The command line after the program name.
    ///   - raw: The same arguments as bytes (``parse(_:raw:base:)``).
    /// - Returns: The options.
    /// - Throws: ``ExitStatus/configuration`` (78) for a bad config file, ``ExitStatus/usage`` (64)
    ///   for a bad command line.
    static func longRunning(_ arguments: [String], raw: [[UInt8]]) throws(ExitStatus) -> Options {
        let settings: Options
        do { settings = try Options.configured() } catch {
            printError("eggtimer: \(error.description)")
            throw .configuration
        }
        do { return try Options.parse(arguments, raw: raw, base: settings) } catch {
            printError("eggtimer: \(error.description)")
            throw .usage
        }
    }

    /// Sets one key's value through its option; a relative `sound` is taken from the file's folder.
    /// - Throws: `ConfigSyntax.Problem` with the option's message for a bad value, naming the key.
    private static func apply(
        _ spec: Spec, key: String, value: String, from file: ConfigFile, to options: inout Options
    ) throws(ConfigSyntax.Problem) {
        let sound = spec.names.last == "--sound" ? file.location.resolving(Array(value.utf8)) : nil
        do {
            try spec.apply(&options, .key(key), sound.map { SoundFilePath(bytes: $0).description } ?? value)
        } catch {
            throw ConfigSyntax.Problem(description: error.description)
        }
        // The path's own bytes: the folder's need not be UTF-8.
        if let sound { options.soundPath = SoundFilePath(bytes: sound) }
    }
}
