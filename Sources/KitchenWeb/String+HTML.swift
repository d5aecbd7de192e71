extension String {
    /// The text safe inside HTML element content and inside a double- or single-quoted attribute
    /// value: `&`, `<`, `>`, `"` and `'` as character references (`&amp;` `&lt;` `&gt;` `&quot;`
    /// `&#39;`), everything else as it is.
    ///
    /// The one escape of the server-rendered page (WebPage+HTML): every string that came from a
    /// timer, a node, the config or a message goes through it. Pure; any thread.
    /// - Complexity: O(n) in the length of the text.
    package var htmlEscaped: String {
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return self
        }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
