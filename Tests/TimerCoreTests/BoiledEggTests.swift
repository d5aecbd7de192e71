import Testing
import TimerCore

@Suite struct BoiledEggTests {
    @Test func explanationSaysHowTheTimeWasComputed() throws {
        let soft = try BoiledEgg(.soft, weight: .grams(58)).timing()
        #expect(soft.explanation == "Soft, 58 g from the fridge at sea level: 4:35")
        #expect(soft.basis == "Soft, 58 g from the fridge at sea level")
        let medium = try BoiledEgg(.medium, weight: .grams(58)).timing()
        #expect(medium.explanation == "Medium, 58 g from the fridge at sea level: 6:00")
    }

    @Test func defaultsAreASizeMEggFromTheFridgeAtSeaLevel() throws {
        let timing = try BoiledEgg(.medium).timing()
        #expect(timing.grams == 58 && timing.eggCelsius == 4 && timing.yolkCelsius == 70)
        #expect(abs(timing.waterCelsius - 100) < 0.01)
        #expect(timing.duration == .seconds(360))
        #expect(timing.basis == "Medium, 58 g (size M) from the fridge at sea level")
    }

    @Test(arguments: [
        (
            BoiledEgg(.soft, weight: .size(.large), start: .fridge, water: .altitude(metres: 1500)),
            "Soft, 68 g (size L) from the fridge at 1500 m (boiling at 95 °C): 5:47"  // 347.2 s by hand
        ),
        (
            BoiledEgg(.hard, weight: .grams(58), start: .room, water: .celsius(95)),
            "Hard, 58 g from room temperature in water at 95 °C: 7:47"
        ),
        (
            BoiledEgg(.soft, weight: .grams(62.5), start: .given(celsius: -2), water: .altitude(metres: -400)),
            "Soft, 62.5 g from -2 °C at -400 m (boiling at 101.3 °C): 5:06"
        ),
        (
            BoiledEgg(.medium, weight: .size(.small), start: .init(place: .fridge, celsius: 7), water: .seaLevel),
            "Medium, 48 g (size S) from the fridge (7 °C) at sea level: 5:06"
        ),
    ])
    func explanationsNameEveryInput(egg: BoiledEgg, expected: String) throws {
        #expect(try egg.timing().explanation == expected)
    }

    @Test func sizesAreTheMidpointsOfTheEUClasses() {
        #expect(EggSize.allCases.map(\.grams) == [48, 58, 68, 78])
        #expect(EggSize.allCases.map(\.letters) == ["S", "M", "L", "XL"])
        // M and L lie in the middle of 53–63 g and 63–73 g; S and XL are 10 g from their neighbours.
        #expect(EggSize.medium.grams == (53 + 63) / 2 && EggSize.large.grams == (63 + 73) / 2)
        #expect(
            EggSize.medium.grams - EggSize.small.grams == 10 && EggSize.extraLarge.grams - EggSize.large.grams == 10)
    }

    @Test func donenessNamesMatchThePresetsAndTargetsTheYolk() {
        #expect(Doneness.allCases.map(\.name) == Preset.eggs.map(\.name))
        #expect(Doneness.allCases.map(\.yolkCelsius) == [63, 70, 77])
    }
}
