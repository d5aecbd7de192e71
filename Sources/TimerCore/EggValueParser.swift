/// Why an egg option's value could not be read; `description` is one line naming the token as typed.
public enum EggValueParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `token` is not a valid `value` (`size`, `weight`, `starting temperature`, `fridge
    /// temperature`, `altitude`, `water temperature`) because of `reason`.
    case invalid(value: String, token: String, reason: String)
    /// Both an altitude and a water temperature were given; the one follows from the other.
    case altitudeAndWater(altitude: String, water: String)

    /// One line: `invalid size 'XXL': expected S, M, L or XL`.
    public var description: String {
        switch self {
        case .invalid(let value, let token, let reason):
            "invalid \(value) '\(token)': \(reason)"
        case .altitudeAndWater(let altitude, let water):
            "altitude '\(altitude)' and water temperature '\(water)' given together: "
                + "the water's temperature follows from the altitude, give one or the other"
        }
    }
}

/// Reads the values of the egg options as a kitchen user types them.
///
/// The options are `--size`, `--weight`, `--from`, `--fridge-temperature`, `--altitude` and `--water`. Pure functions: no
/// I/O, any thread.
///
/// Spaces and tabs around a token and between a number and its unit are ignored; letters are
/// case-insensitive. Numbers are decimal digits with an optional fraction (`62.5`) and, for
/// temperatures and altitudes, a leading `-`; no exponents, no `nan` or `inf`. Every value is checked
/// against the range `EggPhysics` accepts, so an error names the token as typed.
public enum EggValueParser {
    /// `--size S|M|L|XL`, any letter case.
    /// - Throws: `EggValueParseError.invalid` for anything else.
    public static func size(_ text: String) throws(EggValueParseError) -> EggSize {
        let letters = text.trimmingSpaces
        guard letters.allSatisfy(\.isASCII), let size = EggSize(rawValue: letters.uppercased()) else {
            throw .invalid(value: "size", token: text, reason: "expected S, M, L or XL")
        }
        return size
    }

    /// `--weight 62g`, also `62`, `62 g`, `62.5g`, `62 grams`.
    /// - Returns: The mass in grams, within `EggPhysics.grams`.
    /// - Throws: `EggValueParseError.invalid` for another unit, no number, zero or less, or out of range.
    public static func weight(_ text: String) throws(EggValueParseError) -> Double {
        let reading = try read(text, as: .weight, units: ["", "g", "gram", "grams"], unitHint: "give grams, like 62g")
        if reading <= 0 { throw .invalid(value: "weight", token: text, reason: "must be more than 0 g") }
        return try inRange(reading, .weight, text)
    }

    /// `--from fridge|room|12C|12°C|-2C`.
    /// - Parameters:
    ///   - text: The value as typed.
    ///   - fridgeCelsius: The fridge's temperature in °C (a config file may change it).
    /// - Returns: `.fridge` at `fridgeCelsius`, `.room`, or `.given(celsius:)` within `EggPhysics.eggCelsius`.
    /// - Throws: `EggValueParseError.invalid` for another word, a number without `C`, or out of range.
    public static func start(
        _ text: String, fridgeCelsius: Double = BoiledEgg.Start.fridgeCelsius
    ) throws(EggValueParseError) -> BoiledEgg.Start {
        switch text.trimmingSpaces.lowercased() {
        case "fridge": return BoiledEgg.Start(place: .fridge, celsius: fridgeCelsius)
        case "room": return .room
        default: return .given(celsius: try celsius(text, as: .eggTemperature, words: "fridge, room or a temperature"))
        }
    }

    /// `--altitude 1500m`, also `1500`, `1500 m`, `-200m`.
    /// - Returns: Metres above sea level, within `EggPhysics.altitudeMetres`.
    /// - Throws: `EggValueParseError.invalid` for another unit, no number, or out of range.
    public static func altitude(_ text: String) throws(EggValueParseError) -> Double {
        let metres = try read(
            text, as: .altitude, units: ["", "m", "metre", "metres", "meter", "meters"],
            unitHint: "give metres, like 1500m", signed: true)
        return try inRange(metres, .altitude, text)
    }

    /// `--water 95C`, also `95°C`, `95 C`.
    /// - Returns: °C, within `EggPhysics.waterCelsius`.
    /// - Throws: `EggValueParseError.invalid` for a number without `C`, another unit, or out of range.
    public static func water(_ text: String) throws(EggValueParseError) -> Double {
        try celsius(text, as: .waterTemperature, words: "a temperature")
    }

    /// `--fridge-temperature 4C`, also `4°C`, `-2 C`: what "from the fridge" means.
    /// - Returns: °C, within `EggPhysics.eggCelsius` (it is the egg's starting temperature).
    /// - Throws: `EggValueParseError.invalid` naming the fridge temperature, for a number without
    ///   `C`, another unit, or out of range.
    public static func fridgeTemperature(_ text: String) throws(EggValueParseError) -> Double {
        try celsius(text, as: .fridgeTemperature, words: "a temperature")
    }

    /// The water from `--altitude` and `--water`, at most one of which may be given.
    /// - Returns: `nil` when neither is given.
    /// - Throws: `.altitudeAndWater` when both are; otherwise what `altitude(_:)` or `water(_:)` throws.
    public static func water(altitude: String?, water: String?) throws(EggValueParseError) -> BoiledEgg.Water? {
        switch (altitude, water) {
        case (let altitude?, let water?): throw .altitudeAndWater(altitude: altitude, water: water)
        case (let altitude?, nil): .altitude(metres: try self.altitude(altitude))
        case (nil, let water?): .celsius(try self.water(water))
        case (nil, nil): nil
        }
    }

    /// A temperature that must carry `C`, `°C` or `℃`.
    private static func celsius(
        _ text: String, as quantity: EggPhysicsError.Quantity, words: String
    ) throws(EggValueParseError) -> Double {
        let (number, unit) = split(text)
        if unit.isEmpty, !number.isEmpty, parseNumber(number, signed: true) != nil {
            throw .invalid(value: quantity.name, token: text, reason: "add C for degrees Celsius, like \(number)C")
        }
        let value = try read(
            text, as: quantity, units: ["c", "°c", "℃"], unitHint: "give degrees Celsius, like 12C", signed: true,
            words: words)
        return try inRange(value, quantity, text)
    }

    /// Reads `number unit` where the unit, lowercased, is one of `units`.
    private static func read(
        _ text: String, as quantity: EggPhysicsError.Quantity, units: Set<String>, unitHint: String,
        signed: Bool = false, words: String? = nil
    ) throws(EggValueParseError) -> Double {
        func fail(_ reason: String) -> EggValueParseError {
            .invalid(value: quantity.name, token: text, reason: reason)
        }
        let (number, unit) = split(text)
        if number.isEmpty {
            throw fail(words.map { "expected \($0)" } ?? "no number in it")
        }
        guard let value = parseNumber(number, signed: signed) else {
            throw fail(!signed && number.hasPrefix("-") ? "must be more than 0 g" : "'\(number)' is not a number")
        }
        guard units.contains(unit.lowercased()) else {
            throw fail("'\(unit)' is not a unit here: \(unitHint)")
        }
        return value
    }

    /// Throws unless `value` lies in `quantity.range`.
    private static func inRange(
        _ value: Double, _ quantity: EggPhysicsError.Quantity, _ text: String
    ) throws(EggValueParseError) -> Double {
        let range = quantity.range
        guard range.contains(value) else {
            throw .invalid(
                value: quantity.name, token: text,
                reason: "out of range: \(quantity.text(range.lowerBound)) to \(quantity.text(range.upperBound))")
        }
        return value
    }

    /// Splits a trimmed token into its leading number characters and the rest (spaces dropped).
    private static func split(_ text: String) -> (number: String, unit: String) {
        let token = text.trimmingSpaces
        let number = token.prefix { $0 == "-" || $0 == "." || ($0.isASCII && $0.isNumber) }
        let unit = token.dropFirst(number.count).drop { $0 == " " || $0 == "\t" }
        return (String(number), String(unit))
    }

    /// `[-]digits[.digits]`; nil for anything else.
    private static func parseNumber(_ text: String, signed: Bool) -> Double? {
        var digits = Substring(text)
        if signed, digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return Double(text)
    }
}
