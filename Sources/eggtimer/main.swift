import Glibc
import Kitchen
import SystemKit
import TimerEngine

/// eggtimer: parse the command line, then read the config file and run the event loop (or, for a
/// subcommand, talk to the running timers and end).
reopenClosedStandardDescriptors()
let arguments = Array(CommandLine.arguments.dropFirst())
/// The same arguments as bytes: file names need not be UTF-8.
let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { pointer in
        Array(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    } ?? []
}
let status: ExitStatus
do {
    let options = try Options.parse(arguments, raw: rawArguments)
    switch options.command {
    case .help, .version, .print:
        // Asked-for text that cannot be written is said on standard error; the status stays 0,
        // as for every run: a failing standard output never decides the exit status.
        signal(SIGPIPE, SIG_IGN)  // `eggtimer --help | head -1`: EPIPE, not death by SIGPIPE
        var out = Output(descriptor: STDOUT_FILENO)
        switch options.command {
        case .help: out.write(Options.help + "\n")
        case .print(let document): out.write(document.text)
        default: out.write(Version.text)
        }
        if let error = out.failed { printError("eggtimer: cannot write to standard output: \(errorText(error))") }
        status = .done
    case .control(.kitchen):
        signal(SIGPIPE, SIG_IGN)
        status = Kitchen.run(arguments: arguments, raw: rawArguments)
    case .control(.pair), .control(.unpair):
        signal(SIGPIPE, SIG_IGN)
        status = PairingCommand.run(unpair: options.command != .control(.pair))
    case .control(.start(let what, let label)):
        signal(SIGPIPE, SIG_IGN)
        status = StartCommand.run(what: what, label: label)
    case .control(let command) where command == .follow || options.bus.url != nil:
        signal(SIGPIPE, SIG_IGN)
        status = HouseCommands.run(command, options: options, arguments: arguments, raw: rawArguments)
    case .control(let command):
        signal(SIGPIPE, SIG_IGN)  // `eggtimer status | head -1`: EPIPE, not death by SIGPIPE
        status = ControlCommands.run(command)
    default:
        // Only a timer (or the menu, or `follow` above) reads the config file, so help, version and
        // the one-shot subcommands never fail because of it; the command line is then parsed again
        // over its settings.
        switch Result(catching: { () throws(ConfigError) in try Options.configured() }) {
        case .success(let settings):
            status = App(options: try Options.parse(arguments, raw: rawArguments, base: settings)).run()
        case .failure(let error):
            printError("eggtimer: \(error.description)")
            status = .configuration
        }
    }
} catch {
    printError("eggtimer: \(error.description)")
    status = .usage
}
exit(status.code)
