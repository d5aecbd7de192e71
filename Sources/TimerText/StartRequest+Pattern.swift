// The shape of a start request as a regular expression, for a front that checks the text before
// sending it (Home Assistant's text entity). The parser stays the judge: this only says no sooner.

extension StartRequest {
    /// A regular expression every text ``parse(_:presets:)-([UInt8],_)`` accepts matches (typed
    /// in one line): one word of ASCII letters, digits, `.`, `:`, `_` and `-` (not first: no
    /// option), then at most one label by `LabelRule`, with spaces or tabs around.
    ///
    /// In the common syntax of Python's `re` (Home Assistant's), POSIX extended expressions and
    /// Swift's `Regex`; anchored with `^` and `$`. It refuses three words, an option and a label
    /// with a character `LabelRule` forbids; an unknown preset or a bad duration still matches and
    /// is refused by the parser.
    public static let pattern =
        #"^[ \t]*[A-Za-z0-9.:_][A-Za-z0-9.:_-]*([ \t]+[A-Za-z0-9_:+][A-Za-z0-9_.:+-]{0,63})?[ \t]*$"#
}
