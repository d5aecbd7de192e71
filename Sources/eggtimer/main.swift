import Glibc

/// eggtimer: parse the command line, then run the event loop.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    let options = try Options.parse(arguments)
    switch options.command {
    case .help:
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(Options.help + "\n")
        status = 0
    case .version:
        var out = Output(descriptor: STDOUT_FILENO)
        out.write("eggtimer \(Version.current)\n")
        status = 0
    default:
        var app = App(options: options)
        status = app.run()
    }
} catch {
    printError("eggtimer: \(error.description)")
    status = 64
}
exit(status)
