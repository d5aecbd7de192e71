import Glibc
import Testing

@testable import SystemKit

@Suite struct DurationConversionTests {
    /// A duration far beyond `Int64` nanoseconds and seconds (where `components` traps).
    static let huge = Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999) * 4

    @Test(arguments: [
        // duration, ms toward zero, ms up, µs toward zero, ns toward zero, ns up
        (Duration.zero, Int64(0), Int64(0), Int64(0), Int64(0), Int64(0)),
        (.nanoseconds(1), 0, 1, 0, 1, 1),
        (.milliseconds(1), 1, 1, 1000, 1_000_000, 1_000_000),
        (.microseconds(1500), 1, 2, 1500, 1_500_000, 1_500_000),
        (.seconds(90), 90_000, 90_000, 90_000_000, 90_000_000_000, 90_000_000_000),
        (.milliseconds(-1500), -1500, -1500, -1_500_000, -1_500_000_000, -1_500_000_000),
        (.nanoseconds(-1), 0, 0, 0, -1, -1),
        (.microseconds(-1900), -1, -1, -1900, -1_900_000, -1_900_000),
        // 1/3 s is 333_333_333_333_333_312 attoseconds as a Double: rounding happens below 1 ns.
        (.seconds(1.0 / 3), 333, 334, 333_333, 333_333_333, 333_333_334),
        (.seconds(Int64.max), .max, .max, .max, .max, .max),
        (.seconds(Int64.min), .min, .min, .min, .min, .min),
        (huge, .max, .max, .max, .max, .max),
        (.zero - huge, .min, .min, .min, .min, .min),
    ])
    func wholeUnitsRoundAndSaturate(
        duration: Duration, milliseconds: Int64, millisecondsUp: Int64, microseconds: Int64,
        nanoseconds: Int64, nanosecondsUp: Int64
    ) {
        #expect(duration.wholeMilliseconds() == milliseconds)
        #expect(duration.wholeMilliseconds(rounding: .up) == millisecondsUp)
        #expect(duration.wholeMicroseconds() == microseconds)
        #expect(duration.wholeNanoseconds() == nanoseconds)
        #expect(duration.wholeNanoseconds(rounding: .up) == nanosecondsUp)
    }

    @Test(arguments: [
        (Duration.zero, 0, 0),
        (.nanoseconds(1), 0, 1),
        (.milliseconds(1500), 1, 500_000_000),
        (.seconds(1.0 / 3), 0, 333_333_333),
        (.nanoseconds(-1), 0, 0),
        (.seconds(-5), 0, 0),
        (.seconds(Int64.max), Int.max, 0),
        (huge, Int.max, 999_999_999),
        (.zero - huge, 0, 0),
    ])
    func timespecClampsNegativeToZeroAndHugeToTheLargest(duration: Duration, seconds: Int, nanoseconds: Int) {
        let spec = duration.timespecValue
        #expect(spec.tv_sec == seconds)
        #expect(spec.tv_nsec == nanoseconds)
    }
}
