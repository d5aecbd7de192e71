import AlarmAudio
import EventLoop
import Glibc
package import Listening
import SystemKit
import TimerEngine

/// The kitchen's ears (issue 46): a thread of its own reads the capture device, cuts utterances
/// by voice activity (``UtteranceCutter``) and recognises each with the command grammar
/// (``Recogniser``); what it heard comes to the event loop as `.heard(words:confident:)`.
///
/// The audio stays in the thread's memory and is dropped as it is processed: nothing is recorded,
/// and only the recognised words reach the loop. The thread never waits for the loop: what it
/// heard waits in a queue of at most ``queueLimit`` reports (the oldest dropped first), and the
/// loop is woken through a pipe. A capture device that fails or stalls later is one line
/// (`listen: …`) and opened again every ``retryDelay``; one line says when it is back.
///
/// A source of the event loop (the wake pipe's descriptor); the loop's side is confined to its
/// thread. The listening thread runs until the process ends.
package final class ListenerSource: LoopSource {
    /// The most reports waiting for the loop: 8.
    static let queueLimit = 8
    /// How long after a device failure the listener opens it again: 1 s.
    static let retryDelay = Duration.seconds(1)
    /// How long ``start(device:grammar:modelFolder:libraryName:)`` waits for the thread to load
    /// the model and open the device: 10 s.
    static let startLimit = Duration.seconds(10)

    /// What the listening thread tells the loop.
    enum Report: Equatable, Sendable {
        /// The model is loaded and the device open: listening.
        case ready
        /// Listening could not start: the recogniser's refusal.
        case recogniserFailed(ListeningError)
        /// Listening could not start: the capture device's refusal.
        case deviceFailed(String)
        /// An utterance was recognised: its words, and whether the recogniser was sure.
        case heard(words: [String], confident: Bool)
        /// A line for the log.
        case note(String)
    }

    /// Why listening did not start.
    package enum StartFailure: Error, Equatable {
        /// The recogniser's refusal (library, model, words).
        case recogniser(ListeningError)
        /// The capture device's refusal, one line.
        case device(String)
        /// The thread did not answer within ``startLimit``, or could not be started: why.
        case thread(String)
        /// A signal came while waiting (the kitchen is being ended or stopped).
        case interrupted
    }

    /// The queue and the pipe the thread and the loop share.
    private final class Shared: Sendable {
        let reports = Locked<[Report]>([])
        let wake = WakePipe()

        func post(_ report: Report) {
            reports.withLock { reports in
                if reports.count >= ListenerSource.queueLimit {
                    let oldest = reports.firstIndex(where: \.isHeard) ?? 0
                    reports.remove(at: oldest)
                }
                reports.append(report)
            }
            wake.ring()
        }

        func take() -> [Report] {
            wake.drain()
            return reports.withLock { reports in
                defer { reports = [] }
                return reports
            }
        }
    }

    private let shared: Shared

    private init(shared: Shared) { self.shared = shared }

    /// Starts the listening thread and waits until it listens or failed.
    ///
    /// Blocks the caller for the model's load and the device's open (about 0.3 s here), at most
    /// ``startLimit``; the kitchen calls it once, at start, before its loop runs.
    /// - Parameters:
    ///   - device: The ALSA capture PCM's name.
    ///   - grammar: The JSGF text (``CommandGrammar/text(for:)``).
    ///   - modelFolder: PocketSphinx's model folder.
    ///   - libraryName: libpocketsphinx's SONAME (the tests' seam).
    ///   - interrupts: Descriptors whose readiness ends the wait (the kitchen's signalfd: a
    ///     SIGTERM while a device takes its time to open is not held up for ``startLimit``).
    /// - Returns: The source, or why listening did not start.
    package static func start(
        device: String, grammar: String, modelFolder: String = Recogniser.defaultModelFolder,
        libraryName: String = "libpocketsphinx.so.3", interrupts: [Int32] = []
    ) -> Result<ListenerSource, StartFailure> {
        let shared = Shared()
        if let error = SystemThread.startDetached({
            listen(device: device, grammar: grammar, modelFolder: modelFolder, libraryName: libraryName, shared: shared)
        }) {
            return .failure(.thread("cannot start the listening thread: \(error)"))
        }
        let clock = ContinuousClock()
        let deadline = clock.now + startLimit
        while clock.now < deadline {
            var requests = ([shared.wake.descriptor] + interrupts).map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&requests, nfds_t(requests.count), 100)
            if requests.dropFirst().contains(where: { $0.revents != 0 }) { return .failure(.interrupted) }
            var early: [Report] = []
            for report in shared.take() {
                switch report {
                case .ready:
                    let source = ListenerSource(shared: shared)
                    for report in early { shared.post(report) }
                    return .success(source)
                case .recogniserFailed(let error): return .failure(.recogniser(error))
                case .deviceFailed(let line): return .failure(.device(line))
                default: early.append(report)
                }
            }
            for report in early { shared.post(report) }
        }
        return .failure(.thread("the listener did not start within \(startLimit.components.seconds) s"))
    }

    /// The wake pipe.
    var pollRequests: [PollRequest] { [PollRequest(descriptor: shared.wake.descriptor, events: Int16(POLLIN))] }

    /// Hands what the thread reported to the loop: `.heard(words:confident:)` and `.note(_:)`.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for report in shared.take() {
            switch report {
            case .heard(let words, let confident): inputs.append(.heard(words: words, confident: confident))
            case .note(let line): inputs.append(.note(line))
            case .ready, .recogniserFailed, .deviceFailed: break
            }
        }
    }

    /// The listening thread's body: loads the recogniser, opens the device, then reads,
    /// cuts and recognises until the process ends; a device failure is one line and a retry.
    private static func listen(
        device: String, grammar: String, modelFolder: String, libraryName: String, shared: Shared
    ) {
        var recogniser: Recogniser
        do {
            recogniser = try Recogniser(grammar: grammar, modelFolder: modelFolder, libraryName: libraryName)
        } catch {
            return shared.post(.recogniserFailed(error))
        }
        var failing: String?
        var first = true
        while true {
            do {
                var capture = try CaptureDevice(device: device, sampleRate: Recogniser.sampleRate)
                if first {
                    shared.post(.ready)
                    first = false
                } else if failing != nil {
                    shared.post(.note("listen: \(device) is back"))
                    failing = nil
                }
                try hear(&capture, with: &recogniser, shared: shared)
            } catch {
                if first { return shared.post(.deviceFailed("\(device): \(error)")) }
                let line = "listen: \(device): \(error); opened again every \(retryDelay.components.seconds) s"
                if failing != line { shared.post(.note(line)) }
                failing = line
            }
            var pause = timespec(tv_sec: Int(retryDelay.components.seconds), tv_nsec: 0)
            _ = nanosleep(&pause, nil)
        }
    }

    /// Reads `capture` in 100 ms blocks, cuts them into utterances and posts each one heard,
    /// until the device fails.
    private static func hear(
        _ capture: inout CaptureDevice, with recogniser: inout Recogniser, shared: Shared
    ) throws(CaptureError) {
        var cutter = UtteranceCutter()
        var block = [Int16](repeating: 0, count: Recogniser.sampleRate / 10)
        while true {
            let frames = try capture.read(into: &block)
            // Only an utterance that stands alone may be a command: the pieces of a long stretch
            // of speech forced onto the grammar were most of the false wakes (issue 46).
            for utterance in cutter.append(block[0..<frames]) where utterance.isWhole {
                guard let hypothesis = recogniser.decode(utterance: utterance.samples) else { continue }
                shared.post(.heard(words: hypothesis.words, confident: hypothesis.isConfident))
            }
        }
    }
}

extension ListenerSource.Report {
    /// Whether it is an utterance heard (which may be dropped when the queue is full).
    fileprivate var isHeard: Bool {
        if case .heard = self { return true }
        return false
    }
}
