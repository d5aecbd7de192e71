import Glibc

/// Finds the shipped alarm sound without SwiftPM resources (which would pull in Foundation).
///
/// Looks, in order, beside an installed binary (`<prefix>/bin/eggtimer` →
/// `<prefix>/share/eggtimer/alarm_sound.mp3`), then in a `Sounds` folder in the binary's folder or
/// any of its four parents (a clone: `.build/<triple>/debug/eggtimer` → `Sounds/`).
/// The command line's default sound and the kitchen's `/alarm.mp3` (KitchenWeb's `WebPage`) both use it.
public enum SoundLocator {
    /// The sound's file name.
    public static let fileName = "alarm_sound.mp3"

    /// The candidate paths, most specific first, for a binary at `executablePath`.
    public static func candidates(executablePath: String) -> [String] {
        var directory = parent(of: executablePath)
        var paths = [parent(of: directory) + "/share/eggtimer/" + fileName]
        for _ in 0..<5 {
            paths.append(directory + "/Sounds/" + fileName)
            directory = parent(of: directory)
        }
        return paths
    }

    /// The first candidate that exists, or nil.
    public static func locate() -> String? {
        guard let executable = executablePath() else { return nil }
        return candidates(executablePath: executable).first { access($0, F_OK) == 0 }
    }

    /// This process's binary, resolved through symlinks (`/proc/self/exe`).
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
