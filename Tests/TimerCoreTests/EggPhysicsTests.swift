import Glibc
import Testing
import TimerCore

@Suite struct EggPhysicsTests {
    private func seconds(_ grams: Double, _ egg: Double, _ water: Double, _ doneness: Doneness) throws -> Int64 {
        try EggPhysics.boilingTime(grams: grams, eggCelsius: egg, waterCelsius: water, doneness: doneness)
            .components.seconds
    }

    @Test func issueCheckValuesMatchHandComputation() throws {
        // By hand: 0.451 · 58^(2/3) · ln(0.76 · 96/30) = 6.0056 min = 360.3 s.
        let medium = try seconds(58, 4, 100, .medium)
        #expect(abs(medium - 360) <= 1)
        #expect(medium == 360)
        // 0.451 · 65^(2/3) · ln(0.76 · 73.4/16.4) = 8.9257 min = 535.5 s.
        let hard = try seconds(65, 20, 93.4, .hard)
        #expect(abs(hard - 536) <= 1)
        #expect(hard == 536)
    }

    @Test func timesAreWholeSecondsRoundedToNearest() throws {
        // 58 g from 4 °C to 63 °C in 100 °C water is 275.30 s by hand: rounded down, not up.
        let time = try EggPhysics.boilingTime(grams: 58, eggCelsius: 4, waterCelsius: 100, doneness: .soft)
        #expect(time == .seconds(275))
        #expect(time.components.attoseconds == 0)
    }

    @Test func williamsConstantFollowsFromTheEggsMaterialProperties() {
        // c = 3.7 J/(g·K), ρ = 1.038 g/cm³, K = 5.4e-3 W/(cm·K): c ρ^(1/3) / (K π² (4π/3)^(2/3)) seconds.
        let secondsPerGram =
            3.7 * pow(1.038, 1.0 / 3) / (5.4e-3 * Double.pi * Double.pi * pow(4 * Double.pi / 3, 2.0 / 3))
        #expect(abs(secondsPerGram / 60 - EggPhysics.minutesPerGramToTheTwoThirds) < 0.0005)
        // 0.76 is the first series term's amplitude 2 sin(πx)/(πx) at the yolk's edge, x ≈ 0.69.
        let x = 0.69
        #expect(abs(2 * sin(Double.pi * x) / (Double.pi * x) - EggPhysics.firstTermAmplitude) < 0.005)
    }

    @Test(arguments: [(0.0, 100.0), (1000, 96.7), (2000, 93.4)])
    func boilingPointFollowsTheStandardAtmosphere(metres: Double, celsius: Double) throws {
        #expect(abs(try EggPhysics.boilingPoint(altitudeMetres: metres) - celsius) <= 0.2)
    }

    @Test func boilingPointFallsWithAltitudeAndAgreesWithTheKitchenRuleLow() throws {
        var previous = Double.infinity
        for metres in stride(from: -500.0, through: 10_000, by: 100) {
            let celsius = try EggPhysics.boilingPoint(altitudeMetres: metres)
            #expect(celsius < previous, "at \(metres) m")
            previous = celsius
            if (0...2000).contains(metres) {
                #expect(abs(celsius - (100 - metres / 300)) < 0.15, "at \(metres) m")
            }
        }
    }

    @Test func heavierEggsAlwaysTakeLonger() throws {
        let weights: [Double] = [1, 2, 5, 10, 20, 30, 40, 48, 53, 58, 63, 68, 73, 78, 100, 200, 500, 1000, 2000]
        for doneness in Doneness.allCases {
            for egg in stride(from: -20.0, through: 40, by: 10) {
                for water in [80.0, 90, 100, 120] {
                    let times = try weights.map { try seconds($0, egg, water, doneness) }
                    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(doneness) \(egg) °C \(water) °C")
                }
            }
        }
    }

    @Test func colderEggsAlwaysTakeLonger() throws {
        for doneness in Doneness.allCases {
            for grams in [5.0, 48, 58, 78, 500] {
                var previous: Int64 = .max
                for egg in stride(from: -20.0, through: 100, by: 2.5) {
                    do {
                        let time = try seconds(grams, egg, 100, doneness)
                        #expect(time < previous, "\(doneness) \(grams) g from \(egg) °C")
                        previous = time
                    } catch EggPhysicsError.eggTooWarm {
                        previous = 0  // once too warm, every warmer egg is too warm as well
                    }
                }
                #expect(previous == 0, "an egg at 100 °C has no time")
            }
        }
    }

    /// Boiling times along altitudes from −500 m to 10 000 m in `step`s, up to where the water boils below
    /// the yolk target (every altitude above that must fail too).
    private func timesUpTheMountain(
        _ doneness: Doneness, grams: Double, from egg: Double, step: Double
    ) throws -> [Int64] {
        var times: [Int64] = []
        var failed = false
        for metres in stride(from: -500.0, through: 10_000, by: step) {
            let boiled = BoiledEgg(
                doneness, weight: .grams(grams), start: .given(celsius: egg), water: .altitude(metres: metres))
            do {
                let time = try boiled.timing().duration.components.seconds
                #expect(!failed, "\(boiled) has a time above an altitude that had none")
                times.append(time)
            } catch EggPhysicsError.waterBelowYolkTarget {
                failed = true
            }
        }
        return times
    }

    @Test func higherKitchensAlwaysTakeLonger() throws {
        for doneness in Doneness.allCases {
            for egg in [-20.0, 4, 20, 40] {
                // Kitchen eggs, 500 m apart: strictly longer, by whole seconds.
                for grams in [48.0, 58, 68, 78, 2000] {
                    let times = try timesUpTheMountain(doneness, grams: grams, from: egg, step: 500)
                    #expect(times.count >= 10)
                    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(doneness) \(grams) g \(egg) °C")
                }
                // A 1 g egg 100 m apart gains less than a second a step: never shorter after rounding.
                let times = try timesUpTheMountain(doneness, grams: 1, from: egg, step: 100)
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(doneness) 1 g \(egg) °C")
                #expect(times.first.map { $0 < times.last! } == true)
            }
        }
    }

    @Test func twiceTheMassTakesTwoToTheTwoThirdsTheTime() throws {
        let factor = pow(2, 2.0 / 3)
        for doneness in Doneness.allCases {
            for grams in [10.0, 29, 48, 58, 68, 78, 250, 1000] {
                for egg in [-10.0, 4, 20, 35] {
                    let single = Double(try seconds(grams, egg, 100, doneness))
                    let double = Double(try seconds(2 * grams, egg, 100, doneness))
                    // Each time is off by at most ½ s from the exact one.
                    #expect(abs(double - factor * single) <= 0.5 + factor * 0.5, "\(grams) g from \(egg) °C")
                }
            }
        }
    }

    @Test func neverAZeroOrNegativeTimeNearTheLimit() {
        for doneness in Doneness.allCases {
            let limit = 100 - (100 - doneness.yolkCelsius) / 0.76
            for step in -200...200 {
                let egg = limit + Double(step) / 100
                do {
                    let time = try EggPhysics.boilingTime(
                        grams: 1, eggCelsius: egg, waterCelsius: 100, doneness: doneness)
                    #expect(time >= .seconds(1))
                    #expect(egg < limit)
                } catch {
                    guard case .eggTooWarm = error else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                }
            }
        }
    }
}
