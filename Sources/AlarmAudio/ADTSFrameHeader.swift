/// The header of one ADTS frame (raw AAC in an MPEG-style stream, `.aac` files), parsed.
///
/// Its 12-bit sync word 0xFFF looks like MPEG audio's, but its layer bits are 00, which MPEG audio
/// reserves: ``MPEGFrameHeader`` never takes an ADTS header, and this type exists so that such a
/// stream can be named instead of called unknown data.
struct ADTSFrameHeader: Hashable, SniffedFrameHeader {
    static let headerBytes = 7

    /// The bits that stay the same through a stream: MPEG-2/4 ID, profile, sample-rate index and
    /// channel configuration.
    let streamBits: UInt32
    let frameBytes: Int

    /// Parses a header; fails if the bytes are not a valid ADTS header.
    /// - Parameter bytes: At least ``headerBytes`` bytes; the header is the first seven.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= Self.headerBytes else { return nil }
        let b = Array(bytes.prefix(Self.headerBytes)).map(UInt32.init)
        // Sync 0xFFF and layer 00; sample-rate index 0...12; frame at least its own header.
        guard b[0] == 0xFF, b[1] & 0xF6 == 0xF0, (b[2] >> 2) & 0xF <= 12 else { return nil }
        let length = Int(((b[3] & 0b11) << 11) | (b[4] << 3) | (b[5] >> 5))
        guard length >= Self.headerBytes else { return nil }
        streamBits = (b[1] & 0x08) << 16 | (b[2] & 0xFD) << 8 | (b[3] & 0xC0)
        frameBytes = length
    }

    func isConsistent(with other: ADTSFrameHeader) -> Bool { streamBits == other.streamBits }
}
