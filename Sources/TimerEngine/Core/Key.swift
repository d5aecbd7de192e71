/// A key press, decoded from the bytes a terminal (or a pipe) sends.
package enum Key: Equatable, Sendable {
    /// A printable character, including space.
    case character(Character)
    case enter
    case escape
    case backspace
    /// Ctrl-U: erase what was typed.
    case eraseLine
    case up
    case down
    case left
    case right
    /// Any other control byte or escape sequence; still counts as "a key" for stopping the alarm.
    case other
}
