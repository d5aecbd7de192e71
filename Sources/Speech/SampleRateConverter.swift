import CSamplerate

/// Converts espeak-ng's mono output to the alarm's rate and channel count with libsamplerate.
///
/// The converter is `SRC_SINC_MEDIUM_QUALITY`: a band-limited sinc interpolator with 121 dB of
/// signal-to-noise ratio and a 90 % pass band (libsamplerate's documentation). 121 dB is beyond
/// what 16-bit output can carry (about 96 dB), so the conversion adds nothing audible, and 90 % of
/// the 11 025 Hz Nyquist frequency of espeak-ng's 22 050 Hz keeps everything up to ~9.9 kHz, above
/// the formants that carry speech. `SRC_SINC_BEST_QUALITY` (97 %, 145 dB) is documented as much
/// slower, for no audible gain; `SRC_LINEAR` and the zero-order hold alias audibly. The samples go through
/// `src_simple` as floats (`src_short_to_float_array`, `src_float_to_short_array`, which clips);
/// conversion is of the one mono channel, then copied to each output channel.
///
/// Stateless and deterministic: the same input gives the same output, sample for sample. Any
/// thread (`src_simple` keeps no state between calls); blocks for the conversion: 13–20 ms per
/// second of speech to 44 100 or 48 000 Hz, measured on this project's 2-core machine under load.
enum SampleRateConverter {
    /// Converts mono samples at `sampleRate` to `format`.
    /// - Parameters:
    ///   - samples: Mono S16 samples.
    ///   - sampleRate: Their rate, in Hz; within ``SpeechFormat/sampleRates``.
    ///   - format: The output's rate and channels.
    ///   - library: libsamplerate (tests pass a missing one).
    /// - Returns: Interleaved S16 samples; about `samples.count · format.sampleRate / sampleRate`
    ///   frames (`src_simple` flushes the filter at the end, so the length is that within a frame
    ///   or two). The same samples, copied per channel, when the rates are equal.
    /// - Throws: ``SpeechError/libraryMissing(_:)``, or ``SpeechError/synthesisFailed(_:)`` with
    ///   `src_simple`'s word.
    /// - Precondition: `sampleRate` is in ``SpeechFormat/sampleRates``.
    /// - Complexity: O(*n*) in the number of samples.
    /// C: `src_short_to_float_array`, `src_simple`, `src_float_to_short_array`.
    static func convert(
        _ samples: [Int16], sampleRate: Int, to format: SpeechFormat, library: Result<SamplerateLibrary, SpeechError>
    ) throws(SpeechError) -> [Int16] {
        precondition(SpeechFormat.sampleRates.contains(sampleRate), "unsupported input rate \(sampleRate)")
        let library = try library.get()
        let mono: [Int16]
        if sampleRate == format.sampleRate || samples.isEmpty {
            mono = samples
        } else {
            let ratio = Double(format.sampleRate) / Double(sampleRate)
            let input = [Float](unsafeUninitializedCapacity: samples.count) { buffer, initialized in
                samples.withUnsafeBufferPointer {
                    library.shortToFloat($0.baseAddress, buffer.baseAddress, Int32(samples.count))
                }
                initialized = samples.count
            }
            // At most ratio · input frames come out; a few more of room for rounding.
            var output = [Float](repeating: 0, count: Int((Double(samples.count) * ratio).rounded(.up)) + 16)
            var produced = 0
            let code = input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    var data = SRC_DATA(
                        data_in: input.baseAddress, data_out: output.baseAddress, input_frames: input.count,
                        output_frames: output.count, input_frames_used: 0, output_frames_gen: 0, end_of_input: 1,
                        src_ratio: ratio)
                    let code = library.simple(&data, Int32(SRC_SINC_MEDIUM_QUALITY), 1)
                    produced = data.output_frames_gen
                    return code
                }
            }
            guard code == 0 else {
                let word = library.errorText(code).map { String(cString: $0) } ?? "error \(code)"
                throw .synthesisFailed("src_simple: \(word)")
            }
            mono = [Int16](unsafeUninitializedCapacity: produced) { buffer, initialized in
                output.withUnsafeBufferPointer {
                    library.floatToShort($0.baseAddress, buffer.baseAddress, Int32(produced))
                }
                initialized = produced
            }
        }
        guard format.channels > 1 else { return mono }
        let channels = format.channels
        return [Int16](unsafeUninitializedCapacity: mono.count * channels) { buffer, initialized in
            mono.withUnsafeBufferPointer { mono in
                for (frame, sample) in mono.enumerated() {
                    for channel in 0..<channels { buffer[frame * channels + channel] = sample }
                }
            }
            initialized = mono.count * channels
        }
    }
}
