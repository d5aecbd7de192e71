package import KeyInput
import TimerEngine
package import TimerText

/// The keypad's settings from the config file: which input devices, what keys 4 to 9 start, and
/// how presses are told apart (the key guard and the debounce).
///
/// A plain value; any thread.
package struct KeypadSettings: Sendable, Equatable {
    /// Which devices give keys (`keys = auto|PATH|none`, `--keys`; `auto` by default); nil for `none`.
    package var selection: KeySelection? = KeySelection.auto
    /// What the digits 4 to 9 start (`key-4 = 9m pasta`), by digit; a digit not here does nothing.
    package var starts: [Int: StartRequest] = [:]
    /// How long after a key stopped an alarm the keys that would start, cancel or change a timer
    /// are ignored: `key-guard`.
    ///
    /// 0 to ``KeyGuard/longest``, ``KeyGuard/standard`` by default; zero: never. The terminal's egg
    /// menu reads it too.
    package var keyGuard = KeyGuard.standard
    /// How long a key must stay up for its release to count: `key-debounce`.
    ///
    /// 0 to ``longestDebounce``, ``standardDebounce`` by default; zero: none. A key closing again
    /// sooner bounced, and the two closings are one press.
    package var debounce = Self.standardDebounce

    /// The digits the config file may give a start: 4 to 9 (1 to 3 are the eggs).
    package static let configurableDigits = 4...9

    /// The default debounce: 10 ms.
    ///
    /// Twice the 5 ms the Linux gpio-keys driver debounces a GPIO button by default (its
    /// `debounce-interval`), which keyboards' own firmware found too short: System76 raised
    /// theirs from 5 to 10 ms for keys registering twice (system76/ec#405). No person presses
    /// the same key twice within it.
    package static let standardDebounce = Duration.milliseconds(10)
    /// The longest debounce the config file may set: 50 ms (what Linux gives the cheap buttons of
    /// its `soc_button_array` tablets); a quick double press is a few times longer.
    package static let longestDebounce = Duration.milliseconds(50)

    /// The default: keys from every keypad found (`auto`), no starts on 4 to 9, the standard
    /// guard and debounce.
    package init() {}
}
