import Glibc
import Testing

@testable import TimerCore

@Suite struct RealMathTests {
    private func relativeError(_ value: Double, _ reference: Double) -> Double {
        reference == 0 ? abs(value) : abs(value - reference) / abs(reference)
    }

    @Test func lnMatchesGlibcLog() {
        var inputs: [Double] = [
            1e-300, 1e-10, 0.001, 0.5, 0.7, 0.999_999, 1, 1.000_001, 1.414, 1.415, 2, 2.718_281_828, 10,
        ]
        inputs += stride(from: 0.01, through: 3000, by: 0.37).map { $0 }
        inputs += [760, 1e10, 1e300, .greatestFiniteMagnitude]
        for x in inputs {
            #expect(relativeError(RealMath.ln(x), log(x)) < 1e-14 || abs(RealMath.ln(x) - log(x)) < 1e-16, "ln \(x)")
        }
        #expect(RealMath.ln(1) == 0)
    }

    @Test func expMatchesGlibcExp() {
        var inputs = stride(from: -700.0, through: 700, by: 0.73).map { $0 }
        inputs += [0, 1e-10, -1e-10, 0.346, 0.347, 2.0 / 3 * log(58.0), 2.0 / 3 * log(2000.0)]
        for y in inputs {
            #expect(relativeError(RealMath.exp(y), Glibc.exp(y)) < 1e-14, "exp \(y)")
        }
        #expect(RealMath.exp(0) == 1)
    }
}
