import Glibc
import Synchronization

/// One exclusive sound device for end-to-end tests, as a `hw:` device is: while one process holds
/// it, another one's non-blocking open answers `EBUSY`.
///
/// This machine has no sound card, and the PCMs that work without one never lock. The preload
/// shim `Tests/Shims/busy-pcm.c` (built once per test process with gcc) makes every PCM a child
/// opens take an flock on ``lockPath`` first and let it go on close or exit; the PCMs themselves
/// are `file:` PCMs in ``folder`` (``device(_:)``), so a test reads what each timer played. The
/// test holds the device itself with ``hold()``.
///
/// Not thread-safe: one test owns it. Its folder is private (0700) and removed on deinit.
public final class BusyDevice {
    /// The private folder holding the lock file and the played files.
    public let folder: String
    /// The lock file that stands for the device.
    public var lockPath: String { folder + "/device.lock" }
    /// The test's own hold on the device, or -1.
    private var held: Int32 = -1

    /// Makes the folder; the shim is built on first use by ``environment()``.
    public init() {
        folder = makePrivateDirectory("eggtimer-busy")
    }

    deinit {
        if held >= 0 { close(held) }
        removeDirectory(folder)
    }

    /// The ALSA device name of a file PCM in ``folder`` called `name`.raw (raw S16 samples).
    public func device(_ name: String) -> String { "file:'\(playedPath(name))',raw" }

    /// Where ``device(_:)`` `name` writes what it plays.
    public func playedPath(_ name: String) -> String { folder + "/\(name).raw" }

    /// The bytes `name` has played so far (its file's size; 0 before it was ever opened).
    public func playedBytes(_ name: String) -> Int {
        var status = stat()
        return stat(playedPath(name), &status) == 0 ? Int(status.st_size) : 0
    }

    /// The environment that makes a child's PCMs this one device: `LD_PRELOAD` (after any preload
    /// the test process itself runs under, see ``RealtimeShift/inherited``) and `BUSY_PCM_LOCK`.
    /// - Throws: `TestFailure` when the shim cannot be built.
    public func environment() throws(TestFailure) -> [String: String] {
        let library = try Self.library()
        let preload = [RealtimeShift.inherited["LD_PRELOAD"], library].compactMap { $0 }.joined(separator: " ")
        return ["LD_PRELOAD": preload, "BUSY_PCM_LOCK": lockPath]
    }

    /// Takes the device as another player would, for the test; fails if a child holds it now.
    /// - Throws: `TestFailure` when it is held or the lock file cannot be opened.
    public func hold() throws(TestFailure) {
        precondition(held < 0, "already held")
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot open \(lockPath): errno \(errno)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw TestFailure("cannot hold \(lockPath): errno \(errno)")
        }
        held = descriptor
    }

    /// Lets the test's hold go: the device is free for the next open.
    public func release() {
        if held >= 0 { close(held) }
        held = -1
    }

    /// The built shim's path.
    /// - Throws: `TestFailure` when gcc is missing or fails.
    public static func library() throws(TestFailure) -> String {
        let result = built.withLock { state -> Result<String, TestFailure> in
            if let state { return state }
            let made = build()
            state = made
            return made
        }
        return try result.get()
    }

    private static let built = Mutex<Result<String, TestFailure>?>(nil)

    private static func build() -> Result<String, TestFailure> { PreloadShim.build("busy-pcm") }
}
