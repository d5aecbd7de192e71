import Testing
import TimerCore

@Suite struct EggPhysicsRejectionTests {
    private func message(
        _ grams: Double = 58, _ egg: Double = 4, _ water: Double = 100, _ doneness: Doneness = .medium
    ) -> String? {
        do {
            let time = try EggPhysics.boilingTime(
                grams: grams, eggCelsius: egg, waterCelsius: water, doneness: doneness)
            Issue.record("expected an error, got \(time)")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anEggTooWarmForTheTargetHasNoAnswer() {
        #expect(
            message(58, 55, 100, .soft)
                == "an egg from 55 °C is too warm for a soft yolk (63 °C) in water at 100 °C: "
                + "the formula needs it to start below 51.3 °C")
        #expect(message(58, 63, 100, .soft)?.hasPrefix("an egg from 63 °C is too warm") == true)
        #expect(message(58, 100, 100, .hard)?.hasPrefix("an egg from 100 °C is too warm") == true)
    }

    @Test func aYolkTargetAtOrAboveTheWaterHasNoAnswer() {
        #expect(
            message(58, 4, 63, .soft)
                == "water at 63 °C is not hot enough: a soft yolk needs 63 °C, so it never gets there")
        #expect(
            message(58, 4, 60, .hard)
                == "water at 60 °C is not hot enough: a hard yolk needs 77 °C, so it never gets there")
    }

    @Test func anAltitudeWhereWaterBoilsBelowTheTargetHasNoAnswer() {
        let egg = BoiledEgg(.hard, water: .altitude(metres: 7000))
        #expect(throws: EggPhysicsError.self) { try egg.timing() }
        do {
            _ = try egg.timing()
        } catch {
            #expect(
                error.description == "at 7000 m water boils at 76.6 °C: a hard yolk needs 77 °C, so it never gets there"
            )
        }
        #expect((try? BoiledEgg(.soft, water: .altitude(metres: 7000)).timing()) != nil)
    }

    @Test func massesOfZeroOrLessAreNotEggs() {
        #expect(message(0) == "the weight 0 g is not an egg: it must be more than 0 g")
        #expect(message(-5) == "the weight -5 g is not an egg: it must be more than 0 g")
    }

    @Test func absurdValuesAreOutOfRange() {
        #expect(message(10_000) == "the weight 10000 g is out of range: 1 g to 2000 g")
        #expect(message(0.5) == "the weight 0.5 g is out of range: 1 g to 2000 g")
        #expect(message(58, -40) == "the starting temperature -40 °C is out of range: -20 °C to 100 °C")
        #expect(message(58, 4, 150) == "the water temperature 150 °C is out of range: 0 °C to 120 °C")
        for metres in [10_001.0, -501] {
            do {
                let point = try EggPhysics.boilingPoint(altitudeMetres: metres)
                Issue.record("got \(point) °C at \(metres) m")
            } catch {
                #expect(error.description == "the altitude \(Int(metres)) m is out of range: -500 m to 10000 m")
            }
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValuesAreNotNumbers(value: Double) {
        #expect(message(value) == "the weight \(value) is not a number")
        #expect(message(58, value) == "the starting temperature \(value) is not a number")
        #expect(message(58, 4, value) == "the water temperature \(value) is not a number")
        do {
            let point = try EggPhysics.boilingPoint(altitudeMetres: value)
            Issue.record("got \(point) °C at \(value) m")
        } catch {
            #expect(error.description == "the altitude \(value) is not a number")
        }
    }
}
