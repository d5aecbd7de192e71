/// Why an egg's boiling time cannot be computed; `description` is one line naming the value.
public enum EggPhysicsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An input the formulas take, with its unit and accepted range.
    public enum Quantity: String, Sendable, Hashable {
        case weight, eggTemperature, waterTemperature, altitude
        /// What "from the fridge" means (`--fridge-temperature`): an egg's starting temperature.
        case fridgeTemperature

        /// The accepted range, in the quantity's unit (`EggPhysics.grams` and its siblings).
        public var range: ClosedRange<Double> {
            switch self {
            case .weight: EggPhysics.grams
            case .eggTemperature, .fridgeTemperature: EggPhysics.eggCelsius
            case .waterTemperature: EggPhysics.waterCelsius
            case .altitude: EggPhysics.altitudeMetres
            }
        }

        /// The words for it: `starting temperature`.
        var name: String {
            switch self {
            case .weight: "weight"
            case .eggTemperature: "starting temperature"
            case .waterTemperature: "water temperature"
            case .altitude: "altitude"
            case .fridgeTemperature: "fridge temperature"
            }
        }

        /// `value` with this quantity's unit: `62 g`, `12 °C`, `1500 m`.
        func text(_ value: Double) -> String {
            switch self {
            case .weight: "\(value.eggText) g"
            case .eggTemperature, .waterTemperature, .fridgeTemperature: "\(value.eggText) °C"
            case .altitude: "\(value.eggText) m"
            }
        }
    }

    /// A NaN or infinite value.
    case notFinite(Quantity, Double)
    /// A finite value outside `Quantity.range`.
    case outOfRange(Quantity, Double)
    /// A mass of zero or less, in grams.
    case weightNotPositive(grams: Double)
    /// Water (given, or boiling at `altitudeMetres`) at or below the yolk target: the yolk never gets there.
    case waterBelowYolkTarget(doneness: Doneness, waterCelsius: Double, altitudeMetres: Double?)
    /// An egg at or above `limitCelsius`, the warmest start the formula has an answer for.
    case eggTooWarm(doneness: Doneness, eggCelsius: Double, waterCelsius: Double, limitCelsius: Double)

    /// One line, for example `an egg from 55 °C is too warm for a soft yolk (63 °C) in water at 100 °C: …`.
    public var description: String {
        switch self {
        case .notFinite(let quantity, let value):
            return "the \(quantity.name) \(value) is not a number"
        case .outOfRange(let quantity, let value):
            let range = quantity.range
            return "the \(quantity.name) \(quantity.text(value)) is out of range: "
                + "\(quantity.text(range.lowerBound)) to \(quantity.text(range.upperBound))"
        case .weightNotPositive(let grams):
            return "the weight \(grams.eggText) g is not an egg: it must be more than 0 g"
        case .waterBelowYolkTarget(let doneness, let water, let altitude):
            let needs = "a \(doneness.rawValue) yolk needs \(doneness.yolkCelsius.eggText) °C"
            if let altitude {
                return "at \(altitude.eggText) m water boils at \(water.eggText) °C: \(needs), so it never gets there"
            }
            return "water at \(water.eggText) °C is not hot enough: \(needs), so it never gets there"
        case .eggTooWarm(let doneness, let egg, let water, let limit):
            return "an egg from \(egg.eggText) °C is too warm for a \(doneness.rawValue) yolk "
                + "(\(doneness.yolkCelsius.eggText) °C) in water at \(water.eggText) °C: "
                + "the formula needs it to start below \(((limit * 10).rounded(.down) / 10).eggText) °C"
        }
    }
}

extension Double {
    /// The value to one decimal, without a trailing `.0`: `58`, `62.5`, `-2`, `93.4`; `nan`, `inf` as Swift prints them.
    var eggText: String {
        guard isFinite, abs(self) < 1e15 else { return "\(self)" }
        let tenths = Int64((self * 10).rounded(.toNearestOrAwayFromZero))
        let sign = tenths < 0 ? "-" : ""
        let whole = abs(tenths) / 10
        let fraction = abs(tenths) % 10
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
