/// One egg to boil, as the user describes it, and the time it needs (Williams' formula, `EggPhysics`).
///
/// Pure: computing reads no clock and does no I/O; any thread may use it.
public struct BoiledEgg: Sendable, Hashable {
    /// The yolk target.
    public var doneness: Doneness
    /// The egg's weight, by size class or in grams.
    public var weight: Weight
    /// Where the egg comes from, and so its starting temperature.
    public var start: Start
    /// How hot the water is: boiling at an altitude, or a given temperature.
    public var water: Water

    /// Describes an egg; the defaults are a size M egg from the fridge boiled at sea level.
    public init(
        _ doneness: Doneness, weight: Weight = .size(.medium), start: Start = .fridge, water: Water = .seaLevel
    ) {
        (self.doneness, self.weight, self.start, self.water) = (doneness, weight, start, water)
    }

    /// The computed time and what it was computed from.
    public struct Timing: Sendable, Hashable {
        /// The boiling time, whole seconds, at least 1 s.
        public var duration: Duration
        /// The egg's mass, in grams.
        public var grams: Double
        /// The egg's starting temperature, in °C.
        public var eggCelsius: Double
        /// The water's temperature, in °C (the boiling point when the water was given as an altitude).
        public var waterCelsius: Double
        /// The yolk target, in °C.
        public var yolkCelsius: Double
        /// How it was computed, without the time: `Soft, 58 g from the fridge at sea level`.
        public var basis: String

        /// The basis and the time, for the display: `Soft, 58 g from the fridge at sea level: 4:35`.
        public var explanation: String { "\(basis): \(duration.clockText)" }
    }

    /// Computes the boiling time.
    /// - Returns: The time, rounded to the nearest whole second (at least 1 s), with its basis.
    /// - Throws: `EggPhysicsError` naming the value when an input is not finite or out of range, the
    ///   water (or the boiling point at the altitude) is not above the yolk target, or the egg starts too
    ///   warm for the formula to have an answer. Never returns a zero or negative time.
    public func timing() throws(EggPhysicsError) -> Timing {
        let waterCelsius: Double
        switch water {
        case .altitude(let metres):
            waterCelsius = try EggPhysics.boilingPoint(altitudeMetres: metres)
            guard waterCelsius > doneness.yolkCelsius else {
                throw .waterBelowYolkTarget(doneness: doneness, waterCelsius: waterCelsius, altitudeMetres: metres)
            }
        case .celsius(let celsius):
            waterCelsius = celsius
        }
        let duration = try EggPhysics.boilingTime(
            grams: weight.grams, eggCelsius: start.celsius, waterCelsius: waterCelsius, doneness: doneness)
        return Timing(
            duration: duration, grams: weight.grams, eggCelsius: start.celsius, waterCelsius: waterCelsius,
            yolkCelsius: doneness.yolkCelsius,
            basis: "\(doneness.name), \(weight.text) \(start.text) \(water.text(boilingAt: waterCelsius))")
    }
}
