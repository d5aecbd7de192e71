import CAlsa

/// A failed alsa-lib call: the error code, the function that returned it, and alsa-lib's text for it.
struct ALSAError: Error, Hashable {
    /// The positive error number, for example `EPIPE`; alsa-lib returns its negation.
    let code: Int32
    /// The alsa-lib function that failed, for example `"snd_pcm_writei"`.
    let function: String

    /// Creates an error from a positive error number.
    /// - Parameters:
    ///   - code: A positive `errno` value or alsa-lib error number.
    ///   - function: The alsa-lib function that reported it.
    init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    /// alsa-lib's description of `code`, for example "No such file or directory".
    ///
    /// C: `snd_strerror`.
    var message: String { String(cString: snd_strerror(-code)) }

    /// Returns a non-negative alsa-lib result unchanged and turns a negative one into an error.
    /// - Parameters:
    ///   - result: The C function's return value; negative means `-errno`.
    ///   - function: The C function's name, kept in the error.
    /// - Returns: `result`, when it is zero or positive.
    /// - Throws: `ALSAError` with `code == -result` when `result` is negative.
    @discardableResult
    static func check(_ result: Int32, _ function: String) throws(ALSAError) -> Int32 {
        guard result >= 0 else { throw ALSAError(code: -result, function: function) }
        return result
    }

    /// Returns a non-negative frame count unchanged and turns a negative one into an error.
    /// - Parameters:
    ///   - result: A `snd_pcm_sframes_t` result; negative means `-errno`.
    ///   - function: The C function's name, kept in the error.
    /// - Returns: `result` in frames, when it is zero or positive.
    /// - Throws: `ALSAError` with `code == -result` when `result` is negative.
    @discardableResult
    static func check(_ result: Int, _ function: String) throws(ALSAError) -> Int {
        guard result >= 0 else { throw ALSAError(code: Int32(clamping: -result), function: function) }
        return result
    }
}
