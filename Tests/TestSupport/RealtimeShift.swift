import Glibc
import Synchronization

/// The tests' wall-clock seam for whole processes: a preload shim that moves CLOCK_REALTIME alone.
///
/// `Tests/Shims/realtime-shift.c`, built once per test process with gcc and preloaded
/// (`LD_PRELOAD`) into a child, moves that child's CLOCK_REALTIME (and only it: the boot clock and
/// its timers are left alone) by the offset in a file, read on every call.
///
/// Children inherit the seam of the test process itself: when the suite runs under it (`make
/// test-any-day`: days ahead, in a far time zone), ``spawnProcess(_:_:actions:environment:newSession:)``
/// passes `LD_PRELOAD`, `REALTIME_SHIFT_FILE` and `TZ` on to children whose environment does not
/// set them, so end-to-end tests run on the same shifted day.
public enum RealtimeShift {
    /// The environment variable naming the offset file (the shim reads it).
    public static let fileVariable = "REALTIME_SHIFT_FILE"

    /// The built shim's path.
    /// - Throws: `TestFailure` when gcc is missing or fails (its output is in the message's log).
    public static func library() throws(TestFailure) -> String {
        let result = built.withLock { state -> Result<String, TestFailure> in
            if let state { return state }
            let made = build()
            state = made
            return made
        }
        return try result.get()
    }

    /// The environment that makes a child read its wall clock `offset` ahead (negative: behind)
    /// of the real one, the offset kept in `file` (written here, and again by ``step(_:to:)``).
    /// - Parameters:
    ///   - file: The offset file, in a private folder of the test's.
    ///   - offset: The first offset.
    /// - Returns: `LD_PRELOAD` and `REALTIME_SHIFT_FILE`, to merge into the child's environment.
    /// - Throws: `TestFailure` when the shim cannot be built.
    public static func environment(file: String, offset: Duration) throws(TestFailure) -> [String: String] {
        step(file, to: offset)
        return ["LD_PRELOAD": try library(), fileVariable: file]
    }

    /// The environment that makes a child's wall clock read `now` (a time since the Unix epoch)
    /// at this moment, and run on from there; the offset is kept in `file` (see
    /// ``environment(file:offset:)``).
    /// - Throws: `TestFailure` when the shim cannot be built.
    public static func environment(file: String, now: Duration) throws(TestFailure) -> [String: String] {
        try environment(file: file, offset: now - realNow())
    }

    /// The real wall clock now, as a time since the Unix epoch: what CLOCK_REALTIME reads, less
    /// this process's own offset when the suite runs under the seam (``inherited``).
    public static func realNow() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let read = Duration.seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        guard let file = inherited[fileVariable], let bytes = readFile(file) else { return read }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return read - .nanoseconds(Int64(text) ?? 0)
    }

    /// Sets the offset that children reading `file` see from their next clock read on.
    /// - Parameters:
    ///   - file: The offset file.
    ///   - offset: Wall clock minus the real one; at most ±292 years.
    public static func step(_ file: String, to offset: Duration) {
        let (seconds, attoseconds) = offset.components
        writeFile(file, Array("\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)\n".utf8))
    }

    /// The seam of this test process (empty unless the suite runs under it), for its children.
    public static let inherited: [String: String] = {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        guard let file = variable(fileVariable), let preload = variable("LD_PRELOAD") else { return [:] }
        var seam = [fileVariable: file, "LD_PRELOAD": preload]
        seam["TZ"] = variable("TZ")
        return seam
    }()

    private static let built = Mutex<Result<String, TestFailure>?>(nil)

    private static func build() -> Result<String, TestFailure> { PreloadShim.build("realtime-shift") }
}
