import Glibc

/// `eggtimer follow --mqtt URL` and `eggtimer status|ack|cancel|snooze --mqtt URL`: the
/// subcommands that reach every timer in the house through the MQTT broker.
enum HouseCommands {
    /// Runs `command` against the broker `options.bus` names.
    /// - Parameters:
    ///   - command: The subcommand.
    ///   - options: The command line (without the config file).
    ///   - arguments: The arguments as text, parsed again over the config file for `follow`.
    ///   - raw: The same arguments as bytes.
    /// - Returns: The exit status.
    static func run(_ command: ControlCommand, options: Options, arguments: [String], raw: [[UInt8]]) -> ExitStatus {
        printError("eggtimer: MQTT is not built in yet")
        return .unavailable
    }
}
