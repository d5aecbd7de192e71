import ControlChannel
import SystemKit
import Testing
import TimerText

@testable import eggtimer

/// A countdown's default label is the duration as typed, its blanks collapsed to one space, a
/// valid `--label` (issues 24, 41), as `StartRequest` labels it on every path.
@Suite struct DefaultLabelTests {
    @Test(arguments: [
        ("90", "90"), ("7m30s", "7m30s"), ("1h 30", "1h 30"), ("1h  30m", "1h 30m"), ("7 min 30 s", "7 min 30 s"),
        ("2 hours", "2 hours"), (" 5m ", "5m"), ("1.5m", "1.5m"), ("1H\t30M", "1H 30M"), ("1:30", "1:30"),
    ])
    func aTypedDurationIsLabelledWithItsBlanksCollapsed(typed: String, label: String) throws {
        let options = try Options.parse([typed])
        #expect(options.processLabel == label)
        #expect(LabelRule.isValid(label), "\(label)")
        #expect(try Options.parse([typed, "--label", label]).processLabel == label, "--label takes it")
        let request = try StartRequest.parse(typed, presets: Options().presets.map(\.name))
        #expect(request.label == label, "the same label as a start from any front")
    }

    /// A clock-text duration keeps its `:` as `status` lists it; its socket is its key (`1:30`),
    /// not shared with `1-30` (issue 41).
    @Test(arguments: ["1:30", "1:30:00"])
    func aClockTextDurationKeepsItsColonsAsAValidLabel(typed: String) throws {
        let label = try Options.parse([typed]).processLabel
        #expect(label == typed)
        #expect(LabelRule.isValid(label), "\(label)")
        #expect(ControlServer.socketName(for: label) == typed)
    }

    /// An alarm's default label (`at-` and its time) is a valid `--label` too.
    @Test(arguments: [
        ["at", "7:05"], ["at", "7pm", "tomorrow"], ["at", "2026-12-24", "18:00"], ["at", "2026-12-24T18:00+01:00"],
    ])
    func anAlarmsDefaultLabelIsAValidLabel(arguments: [String]) throws {
        let label = try Options.parse(arguments).processLabel
        #expect(LabelRule.isValid(label), "\(label)")
    }
}
