import Testing
import TimerCore
import TimerText

@testable import TerminalUI
@testable import TimerEngine
@testable import eggtimer

/// Issue 14 through the command line: egg options compute the preset times.
@Suite struct EggOptionsTests {
    @Test func sizeFromAndAltitudeComputeEveryPresetAndSayHow() throws {
        let options = try Options.parse(["soft", "--size", "L", "--from", "fridge", "--altitude", "1500m"])
        #expect(options.presets[0].duration == .seconds(347))
        #expect(options.presetBasis[0] == "Soft, 68 g (size L) from the fridge at 1500 m (boiling at 95 °C)")
        #expect(options.start == .timer(.egg(0), .seconds(347), label: "Soft"))
        let menu = try Options.parse(["--size", "L", "--from", "fridge", "--altitude", "1500m"])
        #expect(menu.presets[0].duration == .seconds(347))
        #expect(menu.presets[1].duration > menu.presets[0].duration)
        #expect(menu.presets[2].duration > menu.presets[1].duration)
    }

    @Test func theIssuesCheckValuesComeOutOfTheCommandLine() throws {
        let medium = try Options.parse(["medium", "--weight", "58g", "--from", "4C", "--water", "100C"])
        #expect(medium.presets[1].duration == .seconds(360))
        let hard = try Options.parse(["hard", "--weight", "65g", "--from", "room", "--water", "93.4C"])
        #expect(hard.presets[2].duration == .seconds(536))
    }

    @Test func anExplicitTimeWinsOverTheComputedOne() throws {
        let options = try Options.parse(["soft", "--size", "XL", "--soft", "6m"])
        #expect(options.presets[0].duration == .seconds(360))
        #expect(options.presetBasis[0] == nil)
        #expect(options.presetBasis[1] == nil)  // only the egg asked for is computed
        let menu = try Options.parse(["--size", "XL", "--soft", "6m"])
        #expect(menu.presetBasis[0] == nil && menu.presetBasis[1] != nil && menu.presetBasis[2] != nil)
    }

    @Test func withoutEggOptionsTheFixedTimesStay() throws {
        let options = try Options.parse(["soft"])
        #expect(options.presets == Preset.eggs)
        #expect(options.presetBasis == [nil, nil, nil])
    }

    /// Each egg option's error names the option and its own quantity.
    ///
    /// Issue 21: `--fridge-temperature` said "water temperature".
    @Test func everyEggOptionsErrorNamesItsOwnOption() throws {
        let quantity = [
            "--size": "size", "--weight": "weight", "--from": "starting temperature",
            "--fridge-temperature": "fridge temperature", "--altitude": "altitude", "--water": "water temperature",
        ]
        let names = Options.eggSpecs.flatMap(\.names)
        #expect(Set(names) == Set(quantity.keys), "a new egg option needs a row here")
        for name in names {
            let words = try #require(quantity[name])
            #expect {
                try Options.parse(["soft", name, "zz"])
            } throws: { error in
                "\(error)".hasPrefix("option '\(name)': invalid \(words) 'zz'")
            }
        }
        // The fridge's temperature is an egg's starting temperature: a freezer-cold fridge is one.
        #expect(try Options.parse(["soft", "--fridge-temperature", "-2C"]).eggs.fridgeCelsius == -2)
    }

    @Test(arguments: [
        (["soft", "--from", "55C"], "an egg from 55 °C is too warm for a soft yolk (63 °C) in water at 100 °C"),
        (["soft", "--altitude", "1000m", "--water", "95C"], "given together"),
        (["soft", "--water", "60C"], "60"),
        (["soft", "--size", "XXL"], "invalid size 'XXL'"),
        (["soft", "--weight", "0g"], "0"),
        (["soft", "--altitude", "12km"], "12km"),
    ])
    func impossibleEggsAreUsageErrors(arguments: [String], fragment: String) {
        #expect {
            try Options.parse(arguments)
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    @Test func theConfigFilesEggKeysComputeAndTheCommandLineWins() throws {
        var base = Options()
        base.eggs.size = .small
        base.eggs.altitude = "2000m"
        let fromFile = try Options.parse(["soft"], base: base)
        let computed = try Options.parse(["soft", "--size", "S", "--altitude", "2000m"])
        #expect(fromFile.presets == computed.presets)
        let overridden = try Options.parse(["soft", "--altitude", "0m"], base: base)
        #expect(overridden.presets[0].duration < fromFile.presets[0].duration)
    }

    @Test func theControllerLogsAndShowsHowTheTimeWasComputed() throws {
        let options = try Options.parse(["soft", "--size", "M", "--from", "fridge"])
        var configuration = Controller.Configuration()
        configuration.presets = options.presets
        configuration.presetBasis = options.presetBasis
        var controller = Controller(configuration: configuration, start: options.start)
        let effects = controller.start(at: .now)
        guard case .emit(let started)? = effects.first else {
            Issue.record("no started event")
            return
        }
        let explanation = "Soft, 58 g (size M) from the fridge at sea level: 4:35"
        #expect(started.extra.contains(.init(key: "computed", value: .text(explanation))))
        let now = ContinuousClock.now
        let snapshot = controller.snapshot(at: now, wall: WallInstant(unixSeconds: 0))
        let lines = View().lines(snapshot, controller.screen(at: now), at: now, columns: 80, rows: 24)
        #expect(lines.contains { $0.contains(explanation) })
    }
}

/// Fresh-user findings: the command line replaces the file's egg values; only the eggs a run
/// boils are computed; a plain countdown ignores the file's egg settings.
@Suite struct EggPrecedenceTests {
    private func fileSettings(_ lines: [(String, String)]) throws -> Options {
        var options = Options()
        for (key, value) in lines {
            let spec = try #require(Options.optionSpecs.first { $0.configKey == key })
            try spec.apply(&options, .key(key), value)
        }
        return options
    }

    @Test func aSizeOnTheCommandLineReplacesTheFilesWeight() throws {
        let base = try fileSettings([("weight", "62g")])
        let options = try Options.parse(["soft", "--size", "L"], base: base)
        #expect(options.presetBasis[0]?.contains("68 g (size L)") == true)
    }

    @Test func waterOnTheCommandLineReplacesTheFilesAltitudeButBothOnTheCommandLineIsAnError() throws {
        let base = try fileSettings([("altitude", "1500m")])
        let options = try Options.parse(["medium", "--water", "100C"], base: base)
        #expect(options.presetBasis[1]?.contains("100 °C") == true)
        #expect(throws: UsageError.self) { try Options.parse(["medium", "--altitude", "500m", "--water", "100C"]) }
    }

    @Test func aPlainCountdownIgnoresTheFilesEggSettings() throws {
        let base = try fileSettings([("from", "55C")])
        let options = try Options.parse(["1s"], base: base)
        #expect(options.command == .countdown(.seconds(1), text: "1s"))
        #expect(throws: UsageError.self) { try Options.parse(["soft"], base: base) }
    }

    @Test func onlyTheEggAskedForIsComputed() throws {
        // At 9000 m water boils at ~69.7 °C: no medium or hard yolk, but a soft one.
        let soft = try Options.parse(["soft", "--altitude", "9000m", "--from", "room"])
        #expect(soft.presetBasis[0] != nil)
        #expect(throws: UsageError.self) { try Options.parse(["medium", "--altitude", "9000m", "--from", "room"]) }
    }
}
