import Glibc

/// Whether `TZ` names a time zone the C library can find; glibc quietly falls back to UTC for one
/// it cannot, so an alarm "at 7:00" would ring at 07:00 UTC without a word.
///
/// Pure but for ``warning(environment:)``, which reads the environment and the file system.
package enum TimeZoneCheck {
    /// The warning to print for `TZ` (without the `eggtimer: ` prefix), or nil when it is fine.
    ///
    /// Fine: unset or empty; a file under the zone folder (`Europe/Berlin`, `UTC`); a POSIX rule
    /// (`CET-1CEST,M3.5.0,M10.5.0/3`, `<+0530>-5:30`: a name then an offset); `:` or `/` and an
    /// absolute path that exists. Anything else is named: `TZ 'Nowhere/Bogus' is not a known time
    /// zone; times are in UTC`.
    /// - Parameters:
    ///   - tz: `TZ` as set; nil when unset.
    ///   - zoneFolder: Where zone files are (`TZDIR`, else `/usr/share/zoneinfo`).
    ///   - exists: Whether a regular file (or a link to one) is at a path.
    /// - Returns: The warning, or nil when `TZ` is fine.
    package static func warning(tz: String?, zoneFolder: String, exists: (String) -> Bool) -> String? {
        guard let tz, !tz.isEmpty else { return nil }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        if name.hasPrefix("/") {
            if exists(name) { return nil }
        } else if !name.isEmpty, !name.split(separator: "/").contains(".."), exists(zoneFolder + "/" + name) {
            return nil
        } else if !tz.hasPrefix(":"), isPOSIXRule(tz) {
            return nil
        }
        return "TZ '\(tz.escapingControlCharacters)' is not a known time zone; times are in UTC"
    }

    /// ``warning(tz:zoneFolder:exists:)`` for this process's `TZ` and `TZDIR`.
    package static func warning() -> String? {
        let tz = getenv("TZ").map { String(cString: $0) }
        let folder = getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return warning(tz: tz, zoneFolder: folder ?? "/usr/share/zoneinfo") { path in
            var status = stat()
            return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// Whether `text` starts as a POSIX TZ rule: a zone name of three or more letters (or one in
    /// angle brackets), then an offset (an optional sign and a digit), as glibc requires.
    package static func isPOSIXRule(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return false }
            guard rest.distance(from: rest.startIndex, to: close) >= 4 else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return false }
            rest = rest.dropFirst(letters.count)
        }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return rest.first.map { $0.isASCII && $0.isNumber } ?? false
    }
}
