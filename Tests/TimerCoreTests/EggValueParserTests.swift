import Testing
import TimerCore

@Suite struct EggValueParserTests {
    private func message(_ parse: (String) throws(EggValueParseError) -> some Any, _ text: String) -> String? {
        do {
            let value = try parse(text)
            Issue.record("'\(text)' parsed as \(value)")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        ("S", EggSize.small), ("M", .medium), ("L", .large), ("XL", .extraLarge),
        ("s", .small), ("m", .medium), ("l", .large), ("xl", .extraLarge), ("Xl", .extraLarge), (" L ", .large),
    ])
    func sizesAreLettersInAnyCase(text: String, expected: EggSize) throws {
        #expect(try EggValueParser.size(text) == expected)
    }

    @Test(arguments: ["XXL", "", "large", "LL", "1", "Ｌ"])
    func unknownSizesAreRejected(text: String) {
        #expect(message(EggValueParser.size, text) == "invalid size '\(text)': expected S, M, L or XL")
    }

    @Test(arguments: [
        ("62g", 62.0), ("62", 62), ("62 g", 62), ("62G", 62), ("62.5g", 62.5), ("62.5", 62.5), (" 62 g ", 62),
        ("62\tg", 62), ("62 grams", 62), ("1g", 1), ("2000g", 2000),
    ])
    func weightsAreGrams(text: String, expected: Double) throws {
        #expect(try EggValueParser.weight(text) == expected)
    }

    @Test(arguments: [
        ("62kg", "'kg' is not a unit here: give grams, like 62g"),
        ("2oz", "'oz' is not a unit here: give grams, like 62g"),
        ("g", "no number in it"),
        ("", "no number in it"),
        ("heavy", "no number in it"),
        ("nan", "no number in it"),
        ("0g", "must be more than 0 g"),
        ("0", "must be more than 0 g"),
        ("-5g", "must be more than 0 g"),
        ("10000g", "out of range: 1 g to 2000 g"),
        ("0.5g", "out of range: 1 g to 2000 g"),
        ("99999999999999999999999999g", "out of range: 1 g to 2000 g"),
        ("6.2.5g", "'6.2.5' is not a number"),
        ("62.g", "'62.' is not a number"),
        (".5g", "'.5' is not a number"),
        ("0.5e1", "'e1' is not a unit here: give grams, like 62g"),
    ])
    func badWeightsNameTheToken(text: String, reason: String) {
        #expect(message(EggValueParser.weight, text) == "invalid weight '\(text)': \(reason)")
    }

    @Test(arguments: [
        ("fridge", BoiledEgg.Start.fridge), ("FRIDGE", .fridge), (" Fridge ", .fridge), ("room", .room),
        ("Room", .room), ("12C", .given(celsius: 12)), ("12°C", .given(celsius: 12)), ("12 °C", .given(celsius: 12)),
        ("12c", .given(celsius: 12)), ("12 C", .given(celsius: 12)), ("12℃", .given(celsius: 12)),
        ("-2C", .given(celsius: -2)), ("12.5C", .given(celsius: 12.5)), ("0C", .given(celsius: 0)),
        ("-20C", .given(celsius: -20)), ("100C", .given(celsius: 100)),
    ])
    func startsAreFridgeRoomOrCelsius(text: String, expected: BoiledEgg.Start) throws {
        #expect(try EggValueParser.start(text) == expected)
    }

    @Test func theFridgeTemperatureCanBeConfigured() throws {
        #expect(try EggValueParser.start("fridge", fridgeCelsius: 7) == BoiledEgg.Start(place: .fridge, celsius: 7))
        #expect(try EggValueParser.start("12C", fridgeCelsius: 7) == .given(celsius: 12))
    }

    @Test(arguments: [
        ("12", "add C for degrees Celsius, like 12C"),
        ("-2", "add C for degrees Celsius, like -2C"),
        ("54F", "'F' is not a unit here: give degrees Celsius, like 12C"),
        ("12K", "'K' is not a unit here: give degrees Celsius, like 12C"),
        ("12°", "'°' is not a unit here: give degrees Celsius, like 12C"),
        ("freezer", "expected fridge, room or a temperature"),
        ("", "expected fridge, room or a temperature"),
        ("C", "expected fridge, room or a temperature"),
        ("--2C", "'--2' is not a number"),
        ("-30C", "out of range: -20 °C to 100 °C"),
        ("101C", "out of range: -20 °C to 100 °C"),
    ])
    func badStartsNameTheToken(text: String, reason: String) {
        #expect(
            message({ (text) throws(EggValueParseError) in try EggValueParser.start(text) }, text)
                == "invalid starting temperature '\(text)': \(reason)")
    }

    @Test(arguments: [
        ("1500m", 1500.0), ("1500", 1500), ("1500 m", 1500), ("1500M", 1500), ("0", 0), ("-200m", -200),
        ("1500.5m", 1500.5), ("2000 metres", 2000), ("2000 meters", 2000), ("-500m", -500), ("10000m", 10_000),
    ])
    func altitudesAreMetres(text: String, expected: Double) throws {
        #expect(try EggValueParser.altitude(text) == expected)
    }

    @Test(arguments: [
        ("5000ft", "'ft' is not a unit here: give metres, like 1500m"),
        ("1.5km", "'km' is not a unit here: give metres, like 1500m"),
        ("high", "no number in it"),
        ("", "no number in it"),
        ("10001m", "out of range: -500 m to 10000 m"),
        ("-501m", "out of range: -500 m to 10000 m"),
        ("1e4", "'e4' is not a unit here: give metres, like 1500m"),
    ])
    func badAltitudesNameTheToken(text: String, reason: String) {
        #expect(message(EggValueParser.altitude, text) == "invalid altitude '\(text)': \(reason)")
    }

    @Test(arguments: [("95C", 95.0), ("95°C", 95), ("95 c", 95), ("93.4C", 93.4), ("120C", 120), ("0C", 0)])
    func waterIsCelsius(text: String, expected: Double) throws {
        #expect(try EggValueParser.water(text) == expected)
    }

    @Test(arguments: [
        ("95", "add C for degrees Celsius, like 95C"),
        ("203F", "'F' is not a unit here: give degrees Celsius, like 12C"),
        ("boiling", "expected a temperature"),
        ("121C", "out of range: 0 °C to 120 °C"),
        ("-1C", "out of range: 0 °C to 120 °C"),
    ])
    func badWaterNamesTheToken(text: String, reason: String) {
        #expect(message(EggValueParser.water, text) == "invalid water temperature '\(text)': \(reason)")
    }

    @Test func altitudeOrWaterButNotBoth() throws {
        #expect(try EggValueParser.water(altitude: nil, water: nil) == nil)
        #expect(try EggValueParser.water(altitude: "1500m", water: nil) == .altitude(metres: 1500))
        #expect(try EggValueParser.water(altitude: nil, water: "95C") == .celsius(95))
        #expect(throws: EggValueParseError.altitudeAndWater(altitude: "1500m", water: "95C")) {
            try EggValueParser.water(altitude: "1500m", water: "95C")
        }
        #expect(
            EggValueParseError.altitudeAndWater(altitude: "1500m", water: "95C").description
                == "altitude '1500m' and water temperature '95C' given together: "
                + "the water's temperature follows from the altitude, give one or the other")
        #expect(throws: EggValueParseError.invalid(value: "altitude", token: "x", reason: "no number in it")) {
            try EggValueParser.water(altitude: "x", water: nil)
        }
    }

    @Test func parsedValuesComputeTheIssuesExample() throws {
        let egg = BoiledEgg(
            .soft, weight: .size(try EggValueParser.size("L")), start: try EggValueParser.start("fridge"),
            water: try EggValueParser.water(altitude: "1500m", water: nil) ?? .seaLevel)
        #expect(
            try egg.timing().explanation == "Soft, 68 g (size L) from the fridge at 1500 m (boiling at 95 °C): 5:47")
    }
}
