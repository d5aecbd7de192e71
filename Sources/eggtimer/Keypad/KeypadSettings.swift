import KeyInput
import TimerText

/// The keypad's settings from the config file: which input devices, and what keys 4 to 9 start.
///
/// A plain value; any thread.
struct KeypadSettings: Sendable, Equatable {
    /// Which devices give keys (`keys = auto|PATH|none`, `--keys`; `auto` by default); nil for `none`.
    var selection: KeySelection? = KeySelection.auto
    /// What the digits 4 to 9 start (`key-4 = pasta 9m`), by digit; a digit not here does nothing.
    var starts: [Int: StartRequest] = [:]

    /// The digits the config file may give a start: 4 to 9 (1 to 3 are the eggs).
    static let configurableDigits = 4...9
}
