import Glibc
import TestSupport

/// The `kitchen` sink's monitor recorded by `parec` in ~10 ms chunks, each stamped on arrival.
///
/// Frames are S16LE stereo at the server's rate. A frame's time is its chunk's arrival stamp (as
/// the issue defines heard onset: the first loud chunk against the deadline). Arrival is causal:
/// a frame cannot arrive before eggtimer wrote it, so a frame arriving before the deadline was
/// played early; a stop's last loud chunk bounds when the sound ended, give or take one ~10 ms chunk.
final class Monitor {
    static let bytesPerFrame = 4
    let output: StampedOutput

    /// Starts `parec` on the server's monitor and waits until the first chunk arrives (the
    /// recording is live).
    /// - Throws: `TestFailure` if nothing arrives within 10 s.
    init(_ server: PulseServer) throws {
        let environment = server.environment(for: "parec")
        output = StampedOutput { stdout in
            Child.spawn(
                SystemTool.parec.path,
                [
                    "-d", "\(PulseServer.sink).monitor", "--format=s16le", "--rate=\(PulseServer.sampleRate)",
                    "--channels=2", "--raw", "--latency-msec=10",
                ], environment: environment, stdout: stdout, stderrPath: server.directory + "/parec.log")
        }
        guard output.wait(timeout: .seconds(10), until: { !$0.isEmpty }) else {
            stop()
            throw TestFailure("parec recorded nothing from \(PulseServer.sink).monitor within 10 s")
        }
    }

    /// Stops `parec` (SIGTERM) and reads what it had left.
    func stop() {
        output.child.signal(SIGTERM)
        output.waitForEnd(timeout: .seconds(5))
        output.child.wait(timeout: .seconds(5))
    }

    /// Waits until a frame recorded after `instant` (CLOCK_BOOTTIME ns) has arrived, so everything
    /// played up to `instant` is in the recording.
    @discardableResult
    func waitPast(_ instant: Int64, timeout: Duration = .seconds(5)) -> Bool {
        output.wait(timeout: timeout) { chunks in (chunks.last?.stamp ?? 0) > instant + 50_000_000 }
    }

    /// Waits until at least `frames` non-silent frames after the first have arrived.
    @discardableResult
    func waitForSound(frames: Int, timeout: Duration) -> Bool {
        output.wait(timeout: timeout) { chunks in
            let recording = Recording(chunks)
            return recording.firstLoudFrame.map { recording.frameCount - $0 >= frames } ?? false
        }
    }

    /// What has been recorded so far.
    var recording: Recording { Recording(output.chunks) }
}

/// A monitor recording: the bytes, and when each frame arrived.
struct Recording {
    let bytes: [UInt8]
    /// For each chunk: the index of its first frame past the end, and its arrival stamp.
    private let chunkEnds: [(frameEnd: Int, stamp: Int64)]

    init(_ chunks: [StampedOutput.Chunk]) {
        var bytes: [UInt8] = []
        var ends: [(Int, Int64)] = []
        for chunk in chunks {
            bytes += chunk.bytes
            ends.append((bytes.count / Monitor.bytesPerFrame, chunk.stamp))
        }
        self.bytes = bytes
        self.chunkEnds = ends
    }

    var frameCount: Int { bytes.count / Monitor.bytesPerFrame }

    /// Whether frame `index` is all zero.
    func isSilent(_ index: Int) -> Bool {
        let start = index * Monitor.bytesPerFrame
        return bytes[start..<(start + Monitor.bytesPerFrame)].allSatisfy { $0 == 0 }
    }

    /// The first frame that is not silent, if any.
    var firstLoudFrame: Int? { (0..<frameCount).first { !isSilent($0) } }

    /// The last frame that is not silent, if any.
    var lastLoudFrame: Int? { (0..<frameCount).reversed().first { !isSilent($0) } }

    /// How many frames that arrived after `instant` (CLOCK_BOOTTIME ns) are not silent.
    func loudFrames(after instant: Int64) -> Int {
        var loud = 0
        var start = 0
        for (end, stamp) in chunkEnds {
            if stamp > instant { loud += (start..<end).count { !isSilent($0) } }
            start = end
        }
        return loud
    }

    /// When frame `index` arrived: its chunk's CLOCK_BOOTTIME stamp, in nanoseconds.
    func time(ofFrame index: Int) -> Int64 {
        (chunkEnds.first { $0.frameEnd > index } ?? chunkEnds[chunkEnds.count - 1]).stamp
    }
}
