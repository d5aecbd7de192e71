import TestSupport
import Testing

@testable import Kitchen

/// What a timer that ended before it ran said in its log (issue 41): the start passes it on.
@Suite struct TimerLaunchTests {
    @Test func theLastErrorLineIsSaidNotAWarningOrAStatusLine() {
        let folder = makePrivateDirectory()
        defer { removeDirectory(folder) }
        let log = folder + "/tea.log"
        writeFile(
            log,
            Array(
                ("eggtimer: an earlier line\n{\"event\":\"started\"}\neggtimer: /c:2: frob: unknown \u{1B}key\n"
                    + "eggtimer: warning: no record\n").utf8))
        #expect(TimerLaunch.said(in: log) == "/c:2: frob: unknown \\x1Bkey")
        writeFile(log, Array("{\"event\":\"started\"}\n".utf8))
        #expect(TimerLaunch.said(in: log) == nil)
        #expect(TimerLaunch.said(in: folder + "/missing.log") == nil)
        #expect(TimerLaunch.said(in: "/dev/null") == nil)
    }
}
