package import ControlChannel
import Glibc

/// Keeps a control socket's file in place, as a source of the event loop: when the file is
/// deleted (a tmp cleaner, a script) or replaced while the process runs, the server binds it
/// again (``ControlServer/rebindIfLost()``) and one line says what happened.
///
/// The one keeper of both kinds of control socket, a timer's (beside its ``ControlInbox``) and the
/// kitchen's. It looks when the folder says something changed there: an inotify watch
/// (``FolderWatch``) on the socket's folder for names deleted, moved out, made or moved in, so a
/// deleted socket is bound again in the same round, milliseconds later. Without a watch (no
/// inotify instance left, or the folder itself deleted or moved) and while the socket cannot be
/// bound again, it looks every ``recheckPeriod`` instead, and watches again once it can. Each
/// outcome other than "intact" is one line, said when it changes (a failed bind tried again
/// every second is said once). Never blocks. Owned by the event loop's thread; not thread-safe.
package final class SocketKeeper: LoopSource {
    private let server: ControlServer
    /// The socket's file name in its folder.
    private let name: String
    private var watch: FolderWatch?
    /// When to look without an event; nil while the watch sees the folder and the socket is fine.
    private var recheck: ContinuousClock.Instant?
    /// The last outcome said.
    private var said = ControlServer.Rebinding.intact

    /// How often it looks when no event can tell it (no watch, or a bind that failed).
    package static let recheckPeriod: Duration = .seconds(1)

    /// The events of the socket's folder it looks after: a name deleted or moved out (the
    /// socket gone), made or moved in (another file in its place).
    package static let folderChanges = UInt32(IN_DELETE | IN_MOVED_FROM | IN_CREATE | IN_MOVED_TO | IN_MOVE_SELF)

    /// Keeps `server`'s socket file.
    /// - Parameters:
    ///   - server: The listening server, shared with its inbox (the inbox polls its descriptor,
    ///     which a rebind replaces).
    ///   - now: The boot clock now: without a watch, the first look is a ``recheckPeriod`` later.
    package init(server: ControlServer, at now: ContinuousClock.Instant = .now) {
        self.server = server
        name = String(server.path.dropFirst(server.folder.count + 1))
        rewatch(at: now, failed: false)
    }

    /// Watches the socket's folder again when it has no watch (none yet, or its folder went),
    /// and plans the next look without an event: a ``recheckPeriod`` later while there is no
    /// watch or the last bind `failed`, else none.
    private func rewatch(at now: ContinuousClock.Instant, failed: Bool) {
        if watch == nil { watch = FolderWatch(folder: server.folder, events: Self.folderChanges) }
        recheck = watch == nil || failed ? now + Self.recheckPeriod : nil
    }

    /// The watch's descriptor, when it has one.
    package var pollRequests: [PollRequest] { watch?.pollRequests ?? [] }

    /// The next look without an event, if one is due.
    package var nextCheck: ContinuousClock.Instant? { recheck }

    /// Reads the watch's events and looks at the socket when its name (or anything: a full
    /// queue, the folder gone) changed, or when a look without an event is due.
    package func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into lines: inout [String]) {
        var look = recheck.map { now >= $0 } ?? false
        if let watch, !ready.isEmpty {
            var names: [String?] = []
            watch.service(ready, at: now, into: &names)
            look = look || names.contains { $0 == nil || $0 == name }
            if !watch.isWatching {
                self.watch = nil
                look = true
            }
        }
        guard look else { return }
        let outcome = server.rebindIfLost()
        // Each rebind is said; a trouble once until it changes (a failed bind is retried each second).
        if outcome == .rebound || outcome != said, let line = outcome.line(path: server.path) { lines.append(line) }
        said = outcome
        if case .failed = outcome { rewatch(at: now, failed: true) } else { rewatch(at: now, failed: false) }
    }
}
