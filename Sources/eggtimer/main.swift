import Glibc

/// eggtimer: parse the command line, then run the event loop.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    let options = try Options.parse(arguments)
    switch options.command {
    case .help, .version:
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(options.command == .help ? Options.help + "\n" : "eggtimer \(Version.current)\n")
        status = out.failed == nil ? 0 : 74
    default:
        var app = App(options: options)
        status = app.run()
    }
} catch {
    printError("eggtimer: \(error.description)")
    status = 64
}
exit(status)
