import Glibc

/// Builds a test-only `LD_PRELOAD` shim from `Tests/Shims/NAME.c` with gcc, once per process.
///
/// Into the ignored build folder (`.build/shims/NAME.so`), under a name of this process's, then
/// renamed into place: atomic, so test processes running side by side never preload a
/// half-written file. Used by ``RealtimeShift`` (the wall clock's shift) and ``BusyDevice`` (an
/// exclusive PCM); gcc comes from ``SystemTool/gcc``.
enum PreloadShim {
    /// Compiles `Tests/Shims/name.c` into `.build/shims/name.so`.
    /// - Parameter name: The shim's file name without `.c` (`busy-pcm`).
    /// - Returns: The shared object's path, or why it could not be built (gcc missing, its error
    ///   log's path).
    static func build(_ name: String) -> Result<String, TestFailure> {
        let gcc = SystemTool.gcc
        if let problem = gcc.problem { return .failure(TestFailure(problem)) }
        let folder = repositoryRoot + "/.build/shims"
        mkdir(repositoryRoot + "/.build", 0o755)
        mkdir(folder, 0o755)
        let library = folder + "/\(name).so"
        let partial = folder + "/\(name).\(getpid()).so"
        let log = folder + "/gcc-\(name).\(getpid()).log"
        let source = repositoryRoot + "/Tests/Shims/\(name).c"
        do throws(TestFailure) {
            try Child.run(
                gcc.location, ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", partial, source, "-ldl"],
                stderrPath: log)
        } catch {
            return .failure(error)
        }
        guard rename(partial, library) == 0 else {
            return .failure(TestFailure("cannot rename \(partial): errno \(errno)"))
        }
        unlink(log)
        return .success(library)
    }
}
