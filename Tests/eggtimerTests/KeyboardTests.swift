import Glibc
import TestSupport
import Testing

@testable import TimerEngine
@testable import eggtimer

/// The keyboard as a source of the timer's event loop.
@Suite struct KeyboardTests {
    @Test func theKeyboardPipeIsDroppedAtEndOfFile() throws {
        var loop = EventLoop(clock: MonotonicClock(), now: { .now })
        defer { loop.close() }
        let pipe = makePipe()
        defer { close(pipe.read) }
        let keyboard = Keyboard(keyboard: false, descriptor: pipe.read)
        loop.add(keyboard)
        #expect(keyboard.readsKeys)
        _ = Array("q".utf8).withUnsafeBytes { write(pipe.write, $0.baseAddress, $0.count) }
        close(pipe.write)
        #expect(try loop.wait(until: nil) == [.key(.character("q")), .tick])
        // End of file: no more reads (a descriptor at EOF would poll readable forever).
        #expect(try loop.wait(until: nil) == [.tick])
        #expect(!keyboard.readsKeys)
        #expect(keyboard.pollRequests.isEmpty)
    }
}
