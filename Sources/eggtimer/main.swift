import Glibc

/// eggtimer: parse the command line, then run the event loop (or, for a subcommand, talk to the
/// running timers and end).
reopenClosedStandardDescriptors()
let arguments = Array(CommandLine.arguments.dropFirst())
/// The same arguments as bytes: file names need not be UTF-8.
let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { pointer in
        Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    } ?? []
}
let status: ExitStatus
do {
    let options = try Options.parse(arguments, raw: rawArguments)
    switch options.command {
    case .help, .version:
        // Asked-for text that cannot be written is said on standard error; the status stays 0,
        // as for every run: a failing standard output never decides the exit status.
        signal(SIGPIPE, SIG_IGN)  // `eggtimer --help | head -1`: EPIPE, not death by SIGPIPE
        var out = Output(descriptor: STDOUT_FILENO)
        out.write(options.command == .help ? Options.help + "\n" : "eggtimer \(Version.current)\n")
        if let error = out.failed { printError("eggtimer: cannot write to standard output: \(errorText(error))") }
        status = .done
    case .control(let command):
        signal(SIGPIPE, SIG_IGN)  // `eggtimer status | head -1`: EPIPE, not death by SIGPIPE
        status = ControlCommands.run(command)
    default:
        status = App(options: options).run()
    }
} catch {
    printError("eggtimer: \(error.description)")
    status = .usage
}
exit(status.code)
