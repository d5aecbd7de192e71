import Glibc

extension ControlClient {
    /// Starts watching the timer labelled `label`: sends `watch` (protocol version 2) and waits
    /// for its first line, the timer's status now.
    ///
    /// Nothing is sent unless `folder` passes the timer's own rules (``RuntimeFolder/checkForUse(_:)``)
    /// and the socket's listener runs as this user (SO_PEERCRED), as for
    /// ``exchange(_:label:folder:timeout:)``.
    /// - Parameters:
    ///   - label: The timer's label or socket name.
    ///   - folder: The runtime folder.
    ///   - timeout: How long to wait for the connection and the first line.
    /// - Returns: The watch; its first ``ControlWatch/next(until:)`` is the status line just read.
    /// - Throws: ``ControlError/olderTimer(path:)`` for a timer of protocol version 1 (it answers
    ///   with its error line), ``ControlError/refused(path:reason:)`` for a timer that has the most
    ///   watchers it keeps, ``ControlError/badAnswer(path:)`` for a first line that is not a status,
    ///   and the errors of ``exchange(_:label:folder:timeout:)``.
    /// Blocks the calling thread for at most `timeout`. C: `connect`, `send`, `poll`, `read`.
    public static func watch(
        label: String, folder: String, timeout: Duration = .seconds(2)
    ) throws(ControlError) -> ControlWatch {
        let path = try socketPath(label: label, folder: folder)
        let deadline = ContinuousClock.now + timeout
        let fd = try connect(to: path, folder: folder, until: deadline)
        let watch = ControlWatch(descriptor: fd, path: path)
        guard UnixSocket.write(Array((ControlRequest.watch.line + "\n").utf8), to: fd, until: deadline) else {
            throw .noAnswer(path: path, peerPID: peerPID(fd))
        }
        switch try watch.readLine(until: deadline) {
        case .line(let line) where line.hasPrefix("ok\t"):
            watch.pending = line
            return watch
        case .line(let line) where ControlRequest.isOlderTimerRefusal(line):
            throw .olderTimer(path: path)
        case .line(let line) where line.hasPrefix("error\t"):
            throw .refused(path: path, reason: String(line.dropFirst("error\t".count)))
        case .line, .ended: throw .badAnswer(path: path)
        case .quiet: throw .noAnswer(path: path, peerPID: peerPID(fd))
        }
    }
}

extension ControlClient {
    /// Starts watching the timer labelled `label` without waiting: connects, sends `watch` and
    /// returns at once; the timer's first status line comes later, on the watch's descriptor.
    ///
    /// For an event loop (the kitchen follows every timer of this user this way): a connection
    /// the kernel cannot make at once fails at once. The same checks as
    /// ``watch(label:folder:timeout:)``: `folder` must pass ``RuntimeFolder/checkForUse(_:)`` and the
    /// listener must run as this user (SO_PEERCRED).
    /// - Parameters:
    ///   - label: The timer's label or socket name.
    ///   - folder: The runtime folder.
    /// - Returns: The watch, with nothing read yet: poll ``ControlWatch/descriptor`` for `POLLIN`,
    ///   then ``ControlWatch/next(until:)`` with a deadline of now. A first line that is an error
    ///   (a timer of version 1, one with the most watchers it keeps) is thrown there as
    ///   ``ControlError/badAnswer(path:)``.
    /// - Throws: `.system("connect", ECONNREFUSED or ENOENT)` for a stale socket, none, or a timer
    ///   between bind() and listen(); `.system("connect", EAGAIN)` for a full queue;
    ///   ``ControlError/noAnswer(path:peerPID:)`` when the request cannot be sent at once; and the
    ///   folder and listener errors of ``exchange(_:label:folder:timeout:)``.
    /// Never blocks. C: `connect`, `getsockopt(SO_PEERCRED)`, `send`.
    public static func beginWatch(label: String, folder: String) throws(ControlError) -> ControlWatch {
        try beginExchange(ControlRequest.watch.line, label: label, folder: folder)
    }

    /// Sends one request to the timer labelled `label` without waiting for its reply: connects,
    /// sends `request` and returns at once; the reply comes later, on the watch's descriptor.
    ///
    /// The non-blocking form of ``exchange(_:label:folder:timeout:)`` for an event loop (the
    /// kitchen's commands to its timers): poll ``ControlWatch/descriptor`` for `POLLIN`, then read
    /// the reply with ``ControlWatch/reply(until:)`` and a deadline of now; the caller keeps the
    /// deadline and drops the watch (closing the connection) when it passes. The same checks as
    /// ``beginWatch(label:folder:)``, which is this with the `watch` request.
    /// - Parameters:
    ///   - request: One line, without a newline.
    ///   - label: The timer's label or socket name.
    ///   - folder: The runtime folder.
    /// - Returns: The connection, with nothing read yet.
    /// - Throws: As ``beginWatch(label:folder:)``.
    /// Never blocks. C: `connect`, `getsockopt(SO_PEERCRED)`, `send`.
    public static func beginExchange(_ request: String, label: String, folder: String) throws(ControlError)
        -> ControlWatch
    {
        let path = try socketPath(label: label, folder: folder)
        let now = ContinuousClock.now
        let fd = try connect(to: path, folder: folder, until: now)
        let watch = ControlWatch(descriptor: fd, path: path)
        guard UnixSocket.write(Array((request + "\n").utf8), to: fd, until: now) else {
            throw .noAnswer(path: path, peerPID: peerPID(fd))
        }
        return watch
    }
}
