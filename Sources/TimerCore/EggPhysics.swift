/// How long an egg boils and how hot its water gets: pure formulas, no I/O, callable from any thread.
///
/// **Boiling time.** Charles D. H. Williams (University of Exeter), "The Science of Boiling an Egg",
/// treats the egg as a homogeneous sphere of mass M dropped into water held at T_water, and solves
/// the heat-conduction equation for the moment the boundary between yolk and white reaches T_yolk:
///
///     t = M^(2/3) · c · ρ^(1/3) / (K · π² · (4π/3)^(2/3)) · ln(0.76 · (T_egg − T_water) / (T_yolk − T_water))
///
/// - The sphere's radius is (3M / 4πρ)^(1/3) and its slowest mode decays as exp(−π²Kt / (cρR²)); the
///   prefactor is cρR² / (Kπ²). With the egg values quoted with the formula (c = 3.7 J/(g·K),
///   ρ = 1.038 g/cm³, K = 5.4 × 10⁻³ W/(cm·K)) it is 27.05 s = 0.451 min per g^(2/3); a test
///   recomputes it.
/// - 0.76 is the amplitude of the first term of the series solution at the yolk's edge:
///   2 · sin(πx)/(πx) with x = r_yolk / R ≈ 0.69 (a yolk of about a third of the egg's volume gives
///   x = 0.693 and 0.754). Keeping only that term makes the time a logarithm; it is a good approximation
///   once the egg has been in the water a while, and where the argument is at or below 1 it gives no
///   positive time, so those inputs are rejected.
///
/// So, with M in grams and temperatures in °C, t[min] = 0.451 · M^(2/3) · ln(0.76 · ΔT_egg / ΔT_yolk).
///
/// **Boiling point.** The International Standard Atmosphere gives the pressure at altitude h
/// (troposphere, valid to 11 km): p = 760 mmHg · (1 − 0.0065 K/m · h / 288.15 K)^5.255877. The Antoine
/// equation for water (A = 8.07131, B = 1730.63 °C, C = 233.426 °C, p in mmHg, fitted for 1–100 °C) turns
/// it into the boiling point, T = B / (A − log₁₀ p) − C: 99.997 °C at 0 m, 96.68 °C at 1000 m,
/// 93.36 °C at 2000 m, 66.3 °C at 10 000 m (101.65 °C at −500 m, slightly outside the fit). The kitchen
/// rule of 1 °C per 300 m agrees to 0.1 °C up to 2000 m.
public enum EggPhysics {
    /// Williams' prefactor, in minutes per g^(2/3).
    public static let minutesPerGramToTheTwoThirds = 0.451
    /// The first-term amplitude at the yolk's edge (dimensionless).
    public static let firstTermAmplitude = 0.76

    /// The weights accepted, in grams: a quail's egg to an ostrich's.
    public static let grams: ClosedRange<Double> = 1...2000
    /// The starting temperatures accepted, in °C.
    public static let eggCelsius: ClosedRange<Double> = -20...100
    /// The water temperatures accepted, in °C (a pressure cooker reaches about 120 °C).
    public static let waterCelsius: ClosedRange<Double> = 0...120
    /// The altitudes accepted, in metres above sea level (the Dead Sea shore to well above Everest's base).
    public static let altitudeMetres: ClosedRange<Double> = -500...10_000

    /// The temperature at which water boils at `altitudeMetres`, in °C.
    /// - Parameter altitude: Metres above sea level, within `altitudeMetres` (−500…10 000).
    /// - Returns: About 100 °C at 0 m, 96.7 °C at 1000 m, 93.4 °C at 2000 m.
    /// - Throws: `EggPhysicsError.notFinite` or `.outOfRange` naming the altitude.
    public static func boilingPoint(altitudeMetres altitude: Double) throws(EggPhysicsError) -> Double {
        try check(altitude, .altitude)
        let exponent = 5.255_877  // g₀ · M_air / (R · L)
        let ln10 = RealMath.ln(10)
        let log10Pressure = RealMath.ln(760) / ln10 + exponent * RealMath.ln(1 - 0.0065 * altitude / 288.15) / ln10
        return 1730.63 / (8.071_31 - log10Pressure) - 233.426
    }

    /// Williams' boiling time, rounded to the nearest whole second (halves away from zero).
    /// - Parameters:
    ///   - grams: The egg's mass in grams, within `grams` (1…2000).
    ///   - eggCelsius: The egg's temperature when it goes into the water, in °C (−20…100). Below 0 °C
    ///     the formula ignores the heat needed to thaw the egg, so it comes out short.
    ///   - waterCelsius: The water's temperature, held while the egg cooks, in °C (0…120).
    ///   - doneness: The yolk target.
    /// - Returns: At least one second.
    /// - Throws: `EggPhysicsError`: a value that is not finite or out of range (`.weightNotPositive`
    ///   for a mass ≤ 0); `.waterBelowYolkTarget` when the water is not hotter than the yolk target;
    ///   `.eggTooWarm` when 0.76 · (T_egg − T_water)/(T_yolk − T_water) ≤ 1 or the time rounds to 0 s.
    public static func boilingTime(
        grams: Double, eggCelsius: Double, waterCelsius: Double, doneness: Doneness
    ) throws(EggPhysicsError) -> Duration {
        if grams.isFinite, grams <= 0 { throw .weightNotPositive(grams: grams) }
        try check(grams, .weight)
        try check(eggCelsius, .eggTemperature)
        try check(waterCelsius, .waterTemperature)
        let yolk = doneness.yolkCelsius
        guard waterCelsius > yolk else {
            throw .waterBelowYolkTarget(doneness: doneness, waterCelsius: waterCelsius, altitudeMetres: nil)
        }
        let tooWarm = EggPhysicsError.eggTooWarm(
            doneness: doneness, eggCelsius: eggCelsius, waterCelsius: waterCelsius,
            limitCelsius: waterCelsius - (waterCelsius - yolk) / firstTermAmplitude)
        let ratio = firstTermAmplitude * (eggCelsius - waterCelsius) / (yolk - waterCelsius)
        guard ratio > 1 else { throw tooWarm }
        let massFactor = RealMath.exp(2 / 3 * RealMath.ln(grams))
        let seconds = (60 * minutesPerGramToTheTwoThirds * massFactor * RealMath.ln(ratio))
            .rounded(.toNearestOrAwayFromZero)
        guard seconds >= 1 else { throw tooWarm }
        return .seconds(Int64(seconds))
    }

    /// Throws unless `value` is finite and within the range of `quantity`.
    static func check(_ value: Double, _ quantity: EggPhysicsError.Quantity) throws(EggPhysicsError) {
        guard value.isFinite else { throw .notFinite(quantity, value) }
        guard quantity.range.contains(value) else { throw .outOfRange(quantity, value) }
    }
}
