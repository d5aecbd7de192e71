import Glibc

/// The tests' reference synthesis: `Tests/Shims/espeak-first.c`, built with gcc and run as a
/// process of its own, which says a text in a voice a number of times in that one fresh process.
///
/// espeak-ng's output depends on what its process said before (SpeechEngine's doc: the pitch
/// flutter's place in its table and the cycle counter of a voice's roughness are function-local
/// statics in its wave generator that no call resets), so only a fresh process's first synthesis
/// can be reproduced by another process: eggtimer's spoken line is its process's first.
public enum SpeechReference {
    /// Says `text` in `voice` `count` times in one fresh process, at `wordsPerMinute`.
    /// - Parameters:
    ///   - text: Plain UTF-8 text.
    ///   - voice: An espeak-ng voice name, selected as SpeechEngine does: by name, else by language.
    ///   - count: How many times, 1 to 10.
    ///   - wordsPerMinute: espeak-ng's `espeakRATE`, 80 to 450: `SpeechSynthesizer.wordsPerMinute`
    ///     to reproduce eggtimer's line (TestSupport does not see the Speech target).
    /// - Returns: The rate in Hz and each synthesis's mono S16 samples, in order.
    /// - Throws: `TestFailure` when gcc or libespeak-ng-dev is missing, or the program fails.
    public static func synthesize(
        _ text: String, voice: String, count: Int = 1, wordsPerMinute: Int
    ) throws(TestFailure) -> (sampleRate: Int, syntheses: [[Int16]]) {
        precondition((1...10).contains(count) && (80...450).contains(wordsPerMinute))
        let program = try build().get()
        let directory = makePrivateDirectory("eggtimer-espeak")
        defer { removeDirectory(directory) }
        let (read, write) = makePipe()
        defer { close(read) }
        let child = Child.spawn(
            program, [voice, text, String(count), directory + "/line", String(wordsPerMinute)], stdout: write,
            stderrPath: directory + "/stderr")
        close(write)
        let status = child.wait(timeout: .seconds(60))
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while case let got = Glibc.read(read, &buffer, buffer.count), got > 0 { output += buffer[0..<got] }
        let said = String(decoding: readFile(directory + "/stderr") ?? [], as: UTF8.self)
        guard status == .exited(0) else { throw TestFailure("espeak-first \(voice): \(status): \(said)") }
        guard let rate = Int(String(decoding: output, as: UTF8.self).split(separator: "\n").first ?? "") else {
            throw TestFailure("espeak-first printed no rate")
        }
        var syntheses: [[Int16]] = []
        for index in 0..<count {
            guard let bytes = readFile(directory + "/line.\(index).raw") else {
                throw TestFailure("espeak-first wrote no line.\(index).raw")
            }
            syntheses.append(bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
        }
        return (rate, syntheses)
    }

    /// Builds `Tests/Shims/espeak-first.c` into `.build/shims/espeak-first` (once per process,
    /// renamed into place so processes side by side never run a half-written file).
    private static func build() -> Result<String, TestFailure> { built }

    private static let built: Result<String, TestFailure> = {
        let gcc = SystemTool.gcc
        if let problem = gcc.problem { return .failure(TestFailure(problem)) }
        let folder = repositoryRoot + "/.build/shims"
        mkdir(repositoryRoot + "/.build", 0o755)
        mkdir(folder, 0o755)
        let program = folder + "/espeak-first"
        let partial = folder + "/espeak-first.\(getpid())"
        let log = folder + "/gcc-espeak-first.\(getpid()).log"
        do throws(TestFailure) {
            try Child.run(
                gcc.location,
                [
                    "-O2", "-Wall", "-Werror", "-o", partial, repositoryRoot + "/Tests/Shims/espeak-first.c",
                    "-lespeak-ng",
                ],
                stderrPath: log)
        } catch {
            return .failure(error)
        }
        guard rename(partial, program) == 0 else {
            return .failure(TestFailure("cannot rename \(partial): errno \(errno)"))
        }
        unlink(log)
        return .success(program)
    }()
}
