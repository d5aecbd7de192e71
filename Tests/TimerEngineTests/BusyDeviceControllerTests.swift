import AlarmAudio
import Testing
import TimerEngineTestSupport

@testable import TimerEngine

/// The controller rings on silently while the device is busy and plays once the player gets it.
///
/// Busy: another timer rings on the same `hw:` device. One line is logged each way, and a
/// `--loops` ringing keeps its passes for then. Any instant will do: nothing here reads a clock.
@Suite struct BusyDeviceControllerTests {
    private let t0 = ContinuousClock.now
    private let busy = AlarmError.deviceBusy(device: "plughw:CARD=Headphones")

    @Test func aSilentLoopsRingingWaitsForABusyDeviceAndEndsWithItsPasses() {
        var configuration = Controller.Configuration(loops: 2)
        configuration.soundLength = .milliseconds(1500)
        var controller = Controller(configuration: configuration, start: .plain(.seconds(5)), at: t0)
        _ = controller.tick(at: t0 + .seconds(4))
        _ = controller.handle(audio: .deviceUnavailable(busy), at: t0 + .seconds(4))
        _ = controller.tick(at: t0 + .seconds(5))
        // Far past two passes of the sound: a failing device would have ended it (exit 69) by now.
        #expect(names(controller.tick(at: t0 + .seconds(30))) == ["bell"])
        #expect(controller.state == .silent)
        _ = controller.handle(audio: .firstFrame(at: t0 + .seconds(31)), at: t0 + .seconds(31))
        #expect(controller.state == .ringing)
        let back = names(controller.handle(audio: .deviceRecovered(device: "default"), at: t0 + .milliseconds(31_100)))
        #expect(back == ["device_recovered"])
        let finished = controller.handle(audio: .finished(.init(passes: 2)), at: t0 + .seconds(34))
        #expect(names(finished) == ["acknowledged", "exit 0"])
    }

    @Test func aFailingDeviceStillEndsASilentLoopsRinging() {
        var configuration = Controller.Configuration(loops: 2)
        configuration.soundLength = .milliseconds(1500)
        var controller = Controller(configuration: configuration, start: .plain(.seconds(5)), at: t0)
        _ = controller.tick(at: t0 + .seconds(4))
        let missing = AlarmError.deviceUnavailable(device: "default", reason: "no such device")
        _ = controller.handle(audio: .deviceUnavailable(missing), at: t0 + .seconds(4))
        _ = controller.tick(at: t0 + .seconds(5))
        #expect(names(controller.tick(at: t0 + .seconds(30))).contains("stopAlarm"))
    }

    @Test func aBusyDeviceIsOneLineAndGettingItIsAnother() {
        var controller = Controller(configuration: .init(), start: .plain(.seconds(2)), at: t0)
        var logged = names(controller.tick(at: t0 + .milliseconds(500)))
        for retry in 0..<5 {  // the player reports a run of busy opens once; the controller too
            logged += names(controller.handle(audio: .deviceUnavailable(busy), at: t0 + .milliseconds(500 + retry)))
        }
        logged += names(controller.tick(at: t0 + .seconds(2)))
        logged += names(controller.handle(audio: .firstFrame(at: t0 + .seconds(3)), at: t0 + .seconds(3)))
        logged += names(controller.handle(audio: .deviceRecovered(device: "default"), at: t0 + .milliseconds(3100)))
        #expect(logged.filter { $0 == "device_unavailable" }.count == 1, "\(logged)")
        #expect(logged.filter { $0 == "device_recovered" }.count == 1, "\(logged)")
        #expect(logged.firstIndex(of: "sounding")! < logged.firstIndex(of: "device_recovered")!)
    }
}
