public import Glibc

/// A child started with standard input a pipe the test keeps open (keys typed whenever it likes)
/// and standard output a pipe read on demand (``output``).
///
/// Both pipes are close-on-exec from birth; the child's ends are closed here once it is spawned.
/// Not thread-safe: one test owns it. The keys' end is closed at ``closeKeys()`` or deinit.
public final class ChildPipes {
    public let pid: Glibc.pid_t
    /// The child's standard output.
    public let output: PipeReader
    private var keys: Int32

    /// Starts a child through `start`, given the file actions for descriptors 0, 1 and 2.
    /// - Parameters:
    ///   - stderrPath: Where standard error goes: this file (created 0600, appended), or /dev/null.
    ///   - start: Spawns the child with the actions (``spawnProcess(_:_:actions:environment:newSession:)``
    ///     or a wrapper of it) and returns its pid.
    public init(stderrPath: String? = nil, start: (inout Glibc.posix_spawn_file_actions_t) -> Glibc.pid_t) {
        let input = makePipe()
        let out = makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        pid = start(&actions)
        close(input.read)
        close(out.write)
        (keys, output) = (input.write, PipeReader(out.read))
    }

    deinit { closeKeys() }

    /// Writes `text` to the child's standard input.
    public func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(keys, $0.baseAddress, $0.count) } }

    /// Closes the test's end of standard input (once): the child reads end of file.
    public func closeKeys() {
        if keys >= 0 { close(keys) }
        keys = -1
    }
}
