/// The 4-byte header of one MPEG audio frame (MPEG-1, MPEG-2 and the MPEG-2.5 extension; Layers
/// I, II and III), parsed, with the frame's length in bytes.
///
/// Only headers libmpg123 would also take are accepted: the 11-bit sync word, a defined version
/// and layer, a bitrate from the table (not free format, not the forbidden index 15) and a
/// defined sample rate. Emphasis, copyright and the private bit are not looked at.
///
/// A value type with no I/O.
struct MPEGFrameHeader: Hashable, SniffedFrameHeader {
    /// The MPEG audio version, which decides the sample-rate and bitrate tables.
    enum Version: Hashable {
        /// ISO 11172-3: 32, 44.1 and 48 kHz.
        case mpeg1
        /// ISO 13818-3 (low sampling frequencies): 16, 22.05 and 24 kHz.
        case mpeg2
        /// The unofficial extension: 8, 11.025 and 12 kHz.
        case mpeg25
    }

    static let headerBytes = 4

    let version: Version
    /// 1, 2 or 3.
    let layer: Int
    /// Bits per second, for example 128 000.
    let bitrate: Int
    /// Frames (samples per channel) per second, in Hz.
    let sampleRate: Int
    /// Whether the frame carries one padding slot (4 bytes in Layer I, 1 byte otherwise).
    let isPadded: Bool
    /// 1 for single-channel mode; 2 for stereo, joint stereo and dual channel.
    let channels: Int

    /// Parses a header; fails if the bytes are not a valid MPEG audio frame header.
    /// - Parameter bytes: At least ``headerBytes`` bytes; the header is the first four.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= Self.headerBytes else { return nil }
        let b = Array(bytes.prefix(Self.headerBytes))
        guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        let version: Version
        switch (b[1] >> 3) & 0b11 {
        case 0b11: version = .mpeg1
        case 0b10: version = .mpeg2
        case 0b00: version = .mpeg25
        default: return nil  // 0b01 is reserved
        }
        let layerBits = Int((b[1] >> 1) & 0b11)
        let bitrateIndex = Int(b[2] >> 4)
        let rateIndex = Int((b[2] >> 2) & 0b11)
        // Layer bits 00 are reserved (ADTS AAC has them); bitrate 0 is free format, 15 forbidden.
        guard layerBits != 0, (1...14).contains(bitrateIndex), rateIndex != 3 else { return nil }
        self.version = version
        layer = 4 - layerBits
        bitrate = Self.kilobits(version, layer)[bitrateIndex - 1] * 1000
        let mpeg1Rate = [44_100, 48_000, 32_000][rateIndex]
        sampleRate =
            switch version {
            case .mpeg1: mpeg1Rate
            case .mpeg2: mpeg1Rate / 2
            case .mpeg25: mpeg1Rate / 4
            }
        isPadded = b[2] & 0b10 != 0
        channels = b[3] >> 6 == 0b11 ? 1 : 2
    }

    /// The whole frame's length in bytes, header included.
    var frameBytes: Int {
        let padding = isPadded ? 1 : 0
        switch layer {
        case 1: return (12 * bitrate / sampleRate + padding) * 4
        case 2: return 144 * bitrate / sampleRate + padding
        default: return (version == .mpeg1 ? 144 : 72) * bitrate / sampleRate + padding
        }
    }

    /// Whether `other` can be a later frame of the same stream.
    ///
    /// It must have the same version, layer, sample rate and channel count. The bitrate (VBR) and
    /// padding may change from frame to frame, and so may the stereo mode within two channels
    /// (LAME switches between stereo and joint stereo).
    func isConsistent(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
            && channels == other.channels
    }

    /// The bitrate table for indexes 1...14, in kbit/s (ISO 11172-3 and 13818-3).
    private static func kilobits(_ version: Version, _ layer: Int) -> [Int] {
        switch (version, layer) {
        case (.mpeg1, 1): [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (.mpeg1, 2): [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (.mpeg1, _): [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (_, 1): [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
    }
}
