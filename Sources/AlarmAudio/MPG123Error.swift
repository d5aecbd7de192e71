import CMpg123

/// A failed libmpg123 call: the error code, the function that returned it, and libmpg123's text for it.
struct MPG123Error: Error, Hashable {
    /// A `mpg123_errors` value, for example `MPG123_OUT_OF_MEM.rawValue`; never `MPG123_ERR`
    /// when the handle could tell the specific code.
    let code: Int32
    /// The libmpg123 function that failed, for example `"mpg123_read"`.
    let function: String

    /// libmpg123's description of `code`.
    ///
    /// C: `mpg123_plain_strerror`.
    var message: String { String(cString: mpg123_plain_strerror(code)) }

    /// libmpg123's description without its " (code N)" suffix and closing punctuation, to quote
    /// inside a sentence, for example "Failed to find valid MPEG data within limit on resync".
    var plainMessage: String {
        var text = Substring(message)
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("), text[open...].hasPrefix("(code ") {
            text = text[..<open]
        }
        while let last = text.last, last == " " || last == "." || last == "!" { text.removeLast() }
        return String(text)
    }

    /// Whether the error means the bytes are not MPEG audio at all (libmpg123 found no frame to
    /// sync to), rather than a fault in the decoder or in a stream it recognised.
    var meansNoMPEGData: Bool {
        code == MPG123_RESYNC_FAIL.rawValue || code == MPG123_OUT_OF_SYNC.rawValue
    }

    /// Returns a successful libmpg123 result and turns a failure into an error.
    ///
    /// Message codes (`MPG123_NEW_FORMAT`, `MPG123_NEED_MORE`, `MPG123_DONE`) and `MPG123_OK` pass;
    /// `MPG123_ERR` and the positive error codes throw.
    /// - Parameters:
    ///   - result: The C function's return value.
    ///   - function: The C function's name, kept in the error.
    ///   - handle: The handle the call was made on, if any, to ask for the specific code behind
    ///     `MPG123_ERR`. C: `mpg123_errcode`.
    /// - Returns: `result`, when it is not an error.
    /// - Throws: `MPG123Error` when `result` is `MPG123_ERR` or a positive error code.
    @discardableResult
    static func check(_ result: Int32, _ function: String, handle: OpaquePointer? = nil) throws(MPG123Error) -> Int32 {
        if result == MPG123_ERR.rawValue {
            let specific = handle.map { mpg123_errcode($0) } ?? result
            throw MPG123Error(code: specific == MPG123_OK.rawValue ? result : specific, function: function)
        }
        guard result <= MPG123_OK.rawValue else { throw MPG123Error(code: result, function: function) }
        return result
    }
}
