import ControlChannel
import SystemKit
import Testing
import TimerText

@testable import eggtimer

/// A countdown's default label is the duration as typed, made a valid `--label` (issue 24).
@Suite struct DefaultLabelTests {
    @Test(arguments: [
        ("90", "90"), ("7m30s", "7m30s"), ("1h 30", "1h30"), ("1h 30m", "1h30m"), ("7 min 30 s", "7min30s"),
        ("2 hours", "2hours"), (" 5m ", "5m"), ("1.5m", "1.5m"), ("1H\t30M", "1H30M"),
    ])
    func aTypedDurationIsLabelledWithoutItsSpacesAsAValidLabel(typed: String, label: String) throws {
        let options = try Options.parse([typed])
        #expect(options.processLabel == label)
        #expect(LabelRule.isValid(label), "\(label)")
        #expect(try Options.parse(["5m", "--label", label]).processLabel == label, "--label takes it")
    }

    /// A clock-text duration keeps its `:` as `status` lists it, a valid `--label`; its socket name
    /// (`1-30`) is one too, and either name reaches it (ControlTimerEndToEndTests).
    @Test(arguments: [("1:30", "1-30"), ("1:30:00", "1-30-00")])
    func aClockTextDurationKeepsItsColonsAsAValidLabel(typed: String, socket: String) throws {
        let label = try Options.parse([typed]).processLabel
        #expect(LabelRule.isValid(label), "\(label)")
        #expect(try Options.parse(["5m", "--label", label]).processLabel == label, "--label takes it")
        #expect(ControlServer.socketName(for: label) == socket)
        #expect(LabelRule.isValid(socket))
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
