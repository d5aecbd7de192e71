import Glibc

/// eggtimer: parse the command line, then run the event loop.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus
do {
    let options = try Options.parse(arguments)
    switch options.command {
    case .help, .version:
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(options.command == .help ? Options.help + "\n" : "eggtimer \(Version.current)\n")
        status = out.failed == nil ? .done : .ioError
    default:
        status = App(options: options).run()
    }
} catch {
    printError("eggtimer: \(error.description)")
    status = .usage
}
exit(status.code)
