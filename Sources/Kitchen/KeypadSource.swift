import EventLoop
import Glibc
import KeyInput
import SystemKit
import TimerEngine
import TimerText

/// The kitchen's keypad as a source of the event loop: the input devices' descriptors
/// (``KeyDevices``), an inotify watch on each folder they are found in (a change is a rescan), and
/// as its next check the earliest of the devices' deadline (a key held becoming a long press, a
/// release counting once its debounce passed) and the key map's pending cancel; each press
/// becomes `.keyAction(_:)` through the ``KeyMap`` (which keeps the key guard).
///
/// Whether something rings, which decides what a press means, is asked of `ringing` at each press
/// (the kitchen's picture of its timers). The devices' lines (`keys: …`) come out as `.note(_:)`;
/// no key code is ever said. A flood is read in bounded rounds (``KeyDevices/readsPerRound``), so
/// other sources and a later press are served within a round or two. Owned by the event loop's
/// thread; not thread-safe. Its descriptors close with it.
package final class KeypadSource: LoopSource {
    private let devices: KeyDevices
    private var watches: [FolderWatch] = []
    private var map: KeyMap
    private let ringing: () -> Bool
    /// Lines said while opening, before the first round.
    private var lines: [String] = []
    /// The devices' report lines until the next round (their report closure cannot capture self).
    private let box: LineBox

    private final class LineBox {
        var lines: [String] = []
    }

    /// Opens the devices of `settings.selection` now and watches their folders.
    /// - Parameters:
    ///   - settings: The keypad's settings: what the digits 4 to 9 start (the config's `key-N`),
    ///     the key guard and the debounce.
    ///   - selection: `auto` or one device's path.
    ///   - folders: Where the devices and sysfs are (the system's, or a test's root).
    ///   - ringing: Whether any followed timer rings now; called on the loop's thread at each press.
    init(
        settings: KeypadSettings, selection: KeySelection, folders: KeyDevices.Folders,
        ringing: @escaping () -> Bool
    ) {
        map = KeyMap(starts: settings.starts, keyGuard: settings.keyGuard)
        self.ringing = ringing
        var said: [String] = []
        let box = LineBox()
        self.box = box
        devices = KeyDevices(selection: selection, folders: folders, debounce: settings.debounce) {
            box.lines.append($0)
        }
        for folder in devices.watchedFolders {
            if let watch = FolderWatch(folder: folder, events: FolderWatch.deviceChanges) {
                watches.append(watch)
            } else {
                said.append("keys: cannot watch \(folder): devices plugged in later are read when the kitchen restarts")
            }
        }
        devices.rescan()
        lines = said
    }

    /// The open devices' paths.
    var paths: [String] { devices.paths }

    /// Every open device and every folder watch, for reading.
    var pollRequests: [PollRequest] {
        devices.descriptors.map { PollRequest(descriptor: $0, events: Int16(POLLIN)) }
            + watches.flatMap(\.pollRequests)
    }

    /// The earliest of the devices' deadline (a key held becomes a long press, a release counts)
    /// and a pending cancel.
    var nextCheck: ContinuousClock.Instant? {
        [devices.nextDeadline, map.cancelDeadline].compactMap { $0 }.min()
    }

    /// Rescans on a folder change, reads the ready devices, turns due holds into long presses and
    /// due releases into presses, and a due cancel into `.keyAction(.cancelNewest)`.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        var changed = false
        for watch in watches where ready.contains(where: { $0.descriptor == watch.pollRequests[0].descriptor }) {
            var ignored: [String?] = []
            watch.service(ready, at: now, into: &ignored)
            changed = true
        }
        if changed { devices.rescan() }
        var presses: [KeyPress] = []
        for descriptor in devices.descriptors where ready.contains(where: { $0.descriptor == descriptor }) {
            presses += devices.read(descriptor, at: now)
        }
        presses += devices.expire(at: now)  // none when nothing is due
        inputs += (lines + box.lines).map(Input.note)
        lines = []
        box.lines = []
        for press in presses {
            if let action = map.action(for: press, ringing: ringing(), at: now) { inputs.append(.keyAction(action)) }
        }
        if let action = map.expire(at: now) { inputs.append(.keyAction(action)) }
    }

    /// The lines said while opening, for the kitchen's log at start.
    func takeLines() -> [String] {
        defer { (lines, box.lines) = ([], []) }
        return lines + box.lines
    }
}
