package import KeyInput
package import TimerText

/// The keypad's settings from the config file: which input devices, and what keys 4 to 9 start.
///
/// A plain value; any thread.
package struct KeypadSettings: Sendable, Equatable {
    /// Which devices give keys (`keys = auto|PATH|none`, `--keys`; `auto` by default); nil for `none`.
    package var selection: KeySelection? = KeySelection.auto
    /// What the digits 4 to 9 start (`key-4 = pasta 9m`), by digit; a digit not here does nothing.
    package var starts: [Int: StartRequest] = [:]

    /// The digits the config file may give a start: 4 to 9 (1 to 3 are the eggs).
    package static let configurableDigits = 4...9

    /// The default: keys from every keypad found (`auto`), and no starts on 4 to 9.
    package init() {}
}
