import KeyInput
import SystemKit
import TimerEngine
import TimerText

/// The keypad's map from key presses to ``KeyAction``s, with the one state a map keeps: a
/// pending cancel and its deadline.
///
/// While something rings, every press (any key, mapped or not) acknowledges all that ring and a
/// long press snoozes them. Otherwise, on either the top row or the numeric keypad: 1, 2, 3
/// start Soft, Medium, Hard; 4 to 9 what the config file's `key-N` says (nothing when unset);
/// `+` (KEY_KPPLUS, KEY_EQUAL) and `-` (KEY_KPMINUS, KEY_MINUS) add or take a minute from the
/// newest timer; 0 or Backspace cancels the newest after ``cancelDelay`` unless pressed again
/// (which withdraws it); `.` or Enter (KEY_DOT, KEY_KPDOT, KEY_ENTER, KEY_KPENTER) reports what
/// runs, and held a second makes a web pairing code and speaks it; `*` (KEY_KPASTERISK) tests
/// the speaker. Any other long press away from an alarm counts as a short one. Keys not in the map give nothing, and nothing about them is kept or said.
///
/// Keys mean one thing at a time: a press that stops alarms starts the key guard (``keyGuard``,
/// ``KeyGuard``), judged by the presses' own time stamps (``KeyPress/down``, ``KeyPress/end``),
/// never by when they were read. A press that goes down within it, from ``keyGuard`` before the
/// stopping press went down to ``keyGuard`` after the last guarded press ended, still
/// acknowledges what rings (never snoozes), but starts, cancels and changes nothing
/// (``KeyAction/ignoredAfterAlarm``) and makes the guard last from it on: a second Backspace
/// never cancels the other pot, Enter then 1 never starts an egg, a key hammered is all one stop.
///
/// Pure: instants come in from the caller, no clock is read. Not thread-safe: one owner.
package struct KeyMap: Sendable {
    /// How long a cancel waits for a second press that withdraws it: 3 s.
    static let cancelDelay = Duration.seconds(3)
    /// How much `+` and `-` move the newest timer: a minute.
    static let step = Duration.seconds(60)

    /// What a key means, ringing aside.
    enum Role: Sendable, Hashable {
        /// A digit, 1 to 9 (0 is ``cancel``).
        case digit(Int)
        case plus
        case minus
        case cancel
        case report
        case testSound
    }

    /// What the digits 4 to 9 start, by digit.
    let starts: [Int: StartRequest]
    /// How long after a press that stopped alarms the others are ignored (`key-guard`); zero: never.
    let keyGuard: Duration
    /// When the pending cancel fires, if one is pending.
    private(set) var cancelDeadline: ContinuousClock.Instant?
    /// The time stamps a press must go down within to be guarded (``keyGuard`` around the presses
    /// that stopped alarms and those ignored since): the one rule, ``KeyGuard/Window``.
    private var window = KeyGuard.Window<Duration>()
    /// What the guard covers; nil before the first stop.
    var guarded: Range<Duration>? { window.span }

    /// A map with the config's starts for 4 to 9.
    /// - Parameters:
    ///   - starts: By digit, 4 to 9; other digits are ignored.
    ///   - keyGuard: How long a press that stopped alarms guards against the next ones
    ///     (``KeyGuard``); zero: never.
    /// - Precondition: `keyGuard` is not negative.
    init(starts: [Int: StartRequest] = [:], keyGuard: Duration = KeyGuard.standard) {
        precondition(keyGuard >= .zero, "a negative key guard")
        self.starts = starts.filter { KeypadSettings.configurableDigits.contains($0.key) }
        self.keyGuard = keyGuard
    }

    /// Whether `press` went down within the guard.
    func isGuarded(_ press: KeyPress) -> Bool { window.contains(press.down) }

    /// Makes the guard cover ``keyGuard`` on either side of `press` (and what it covered, when
    /// `press` was within it).
    private mutating func guardAround(_ press: KeyPress) {
        guard keyGuard > .zero else { return }
        window.cover((press.down - keyGuard)..<(max(press.down, press.end) + keyGuard), pressedAt: press.down)
    }

    /// The role of `code`, or nil for a key not in the map.
    static func role(of code: KeyCode) -> Role? {
        if let digit = KeyCode.digits.firstIndex(of: code) ?? KeyCode.keypadDigits.firstIndex(of: code) {
            return digit == 0 ? .cancel : .digit(digit)
        }
        switch code {
        case .keypadPlus, .equal: return .plus
        case .keypadMinus, .minus: return .minus
        case .backspace: return .cancel
        case .dot, .keypadDot, .enter, .keypadEnter: return .report
        case .keypadAsterisk: return .testSound
        default: return nil
        }
    }

    /// The egg each of 1, 2, 3 starts.
    static let eggs = ["soft", "medium", "hard"]

    /// What `press` asks for.
    /// - Parameters:
    ///   - press: The press, short or long, with its time stamps (the guard is judged by them).
    ///   - ringing: Whether any timer rings (or is silent, ringing with no device) now.
    ///   - now: The caller's clock now (a pending cancel's deadline is counted from it).
    /// - Returns: The action (``KeyAction/ignoredAfterAlarm`` for a key of the map pressed within
    ///   the guard while nothing rings), or nil for a key not in the map.
    mutating func action(for press: KeyPress, ringing: Bool, at now: ContinuousClock.Instant) -> KeyAction? {
        let withinGuard = isGuarded(press)
        if ringing || withinGuard { guardAround(press) }
        if ringing { return press.isLong && !withinGuard ? .snoozeAllRinging : .acknowledgeAllRinging }
        if withinGuard { return Self.role(of: press.code) == nil ? nil : .ignoredAfterAlarm }
        switch Self.role(of: press.code) {
        case .digit(let digit) where digit <= Self.eggs.count:
            return .start(StartRequest(length: .preset(Self.eggs[digit - 1])))
        case .digit(let digit): return starts[digit].map(KeyAction.start)
        case .plus: return .addToNewest(Self.step)
        case .minus: return .addToNewest(.zero - Self.step)
        case .cancel:
            if cancelDeadline != nil {
                cancelDeadline = nil
                return .cancelWithdrawn
            }
            let deadline = now + Self.cancelDelay
            cancelDeadline = deadline
            return .cancelPending(deadline: deadline)
        case .report: return press.isLong ? .pairingCode : .report
        case .testSound: return .testSound
        case nil: return nil
        }
    }

    /// The pending cancel, once its deadline passed: call it when the timer armed at
    /// ``cancelDeadline`` fires.
    /// - Parameter now: The caller's clock now.
    /// - Returns: ``KeyAction/cancelNewest`` when the deadline is at or before `now`, else nil.
    mutating func expire(at now: ContinuousClock.Instant) -> KeyAction? {
        guard let deadline = cancelDeadline, deadline <= now else { return nil }
        cancelDeadline = nil
        return .cancelNewest
    }
}
