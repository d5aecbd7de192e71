import TextCoding

/// A file system path as the kernel takes it: bytes, which need not be valid UTF-8.
///
/// Linux file names are byte strings. A Swift `String` cannot hold one that is not valid UTF-8,
/// such as a Latin-1 `R\xE9veil.mp3`, so the path is kept as bytes, opened with exactly those
/// bytes, and shown in messages through ``description``.
public struct SoundFilePath: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes as passed to `open(2)`, without a terminating NUL.
    public let bytes: [UInt8]

    /// A path from raw bytes, for example a command-line argument read from `argv`.
    /// - Parameter bytes: The path; a NUL byte makes ``AlarmSound/decode(path:)-(SoundFilePath)``
    ///   throw `soundNotFound`, since no file name can contain one.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A path from text: its UTF-8 bytes.
    public init(_ path: String) {
        bytes = Array(path.utf8)
    }

    /// The path for messages, one line: valid UTF-8 shown as text; every byte of an invalid
    /// sequence or of a control character (C0, DEL, C1) shown as `\xHH` (upper-case hex), so the
    /// exact bytes can be read back from it.
    ///
    /// - Complexity: O(*n*) in the path's length.
    public var description: String {
        var text = ""
        let all = bytes[...]
        var index = all.startIndex
        func escape(_ bytes: ArraySlice<UInt8>) {
            for byte in bytes {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        while index < all.endIndex {
            switch UTF8Unit.read(all, at: index) {
            case .scalar(let scalar, let length):
                if scalar.isControlCharacter {
                    escape(all[index..<(index + length)])
                } else {
                    text.unicodeScalars.append(scalar)
                }
                index += length
            case .invalid, .truncated:
                escape(all[index...index])
                index += 1
            }
        }
        return text
    }
}
