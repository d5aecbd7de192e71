import TimerEngine

/// The exit statuses (TimerEngine's ``TimerEngine/ExitStatus``) under their old name in this
/// module, so files that only print its table (the man page's, Options+Man.swift) need no import.
typealias ExitStatus = TimerEngine.ExitStatus
