/// A frame header the sniffer can follow from frame to frame.
protocol SniffedFrameHeader {
    /// The bytes the header takes at the start of its frame.
    static var headerBytes: Int { get }
    /// Parses a header from at least ``headerBytes`` bytes; `nil` if they are not one.
    init?(_ bytes: ArraySlice<UInt8>)
    /// The whole frame's length in bytes, header included: where the next header starts.
    var frameBytes: Int { get }
    /// Whether `other` can be a later frame of the same stream as this one.
    func isConsistent(with other: Self) -> Bool
}
