/// The natural logarithm and exponential in pure Swift, for the egg formulas (TimerCore imports no C
/// library, and the standard library has no `log` or `exp`).
///
/// Both reduce the argument by powers of two and sum a short series; tests compare them with Glibc's
/// `log` and `exp` to a relative 1e-14 over the ranges the egg formulas use.
enum RealMath {
    /// ln 2 in two parts (Cody and Waite, as in fdlibm): `ln2High` has its last 32 bits zero, so
    /// `k · ln2High` is exact for any binary exponent k, and `ln2High + ln2Low` is ln 2 to about 1e-26.
    static let ln2High = 6.931_471_803_691_238_164_90e-01
    /// The rest of ln 2 after `ln2High`.
    static let ln2Low = 1.908_214_929_270_587_700_02e-10

    /// The natural logarithm of `x`.
    /// - Precondition: `x` is finite and more than zero.
    /// - Complexity: At most about 20 series terms.
    static func ln(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "ln needs a finite positive argument")
        // x = m · 2^e with m in [√½, √2), so s = (m − 1)/(m + 1) stays within ±0.172.
        var exponent = Double(x.exponent)
        var mantissa = x.significand
        if mantissa > 2.0.squareRoot() {
            mantissa /= 2
            exponent += 1
        }
        // ln m = 2 · atanh s = 2 · (s + s³/3 + s⁵/5 + …).
        let s = (mantissa - 1) / (mantissa + 1)
        let s2 = s * s
        var power = s
        var sum = 0.0
        var divisor = 1.0
        while true {
            let term = power / divisor
            sum += term
            if abs(term) <= abs(sum) * 1e-18 || divisor > 61 { break }
            power *= s2
            divisor += 2
        }
        return exponent * ln2High + (exponent * ln2Low + 2 * sum)
    }

    /// e raised to `y`.
    /// - Precondition: `y` is finite and within ±700 (the result stays a normal `Double`).
    /// - Complexity: At most about 25 series terms.
    static func exp(_ y: Double) -> Double {
        precondition(y.isFinite && abs(y) <= 700, "exp needs a finite argument within ±700")
        // y = k · ln 2 + r with |r| ≤ ½ ln 2, then e^y = 2^k · e^r.
        let k = (y / (ln2High + ln2Low)).rounded()
        let r = (y - k * ln2High) - k * ln2Low
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while true {
            term *= r / n
            sum += term
            if abs(term) <= sum * 1e-18 || n > 30 { break }
            n += 1
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }
}
