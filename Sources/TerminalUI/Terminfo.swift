import Glibc

/// Looks up whether the terminfo database describes a terminal type, as ncurses would find it,
/// without linking ncurses: eggtimer only needs to know whether its few ANSI codes are safe.
package enum Terminfo {
    /// The folders ncurses searches, in its order: `$TERMINFO`, `~/.terminfo`, each of
    /// `$TERMINFO_DIRS`, then the system's (Debian: /etc/terminfo, /lib/terminfo,
    /// /usr/share/terminfo).
    static func folders(environment: (String) -> String?) -> [String] {
        var folders: [String] = []
        if let terminfo = environment("TERMINFO"), !terminfo.isEmpty { folders.append(terminfo) }
        if let home = environment("HOME"), !home.isEmpty { folders.append(home + "/.terminfo") }
        if let list = environment("TERMINFO_DIRS") {
            folders += list.split(separator: ":", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "/usr/share/terminfo" : String($0)
            }
        }
        return folders + ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
    }

    /// Whether `term` has an entry: a file `<folder>/<first letter>/<term>` (or the first letter's
    /// hex code, as on macOS-built databases) in one of the folders.
    ///
    /// C: `access`, `getenv`.
    static func hasEntry(_ term: String) -> Bool {
        guard let first = term.utf8.first, !term.contains("/"), term != "." && term != ".." else { return false }
        let letter = String(UnicodeScalar(first))
        let hex = String(first, radix: 16)
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        return folders(environment: environment).contains { folder in
            access("\(folder)/\(letter)/\(term)", R_OK) == 0 || access("\(folder)/\(hex)/\(term)", R_OK) == 0
        }
    }
}
