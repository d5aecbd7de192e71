import Glibc

/// The built `eggtimer` binary beside the test bundle (`.build/<triple>/debug/`), for end-to-end tests.
let eggtimerPath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let bundle = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(bundle[..<(bundle.lastIndex(of: "/") ?? bundle.endIndex)]) + "/eggtimer"
}()

/// The repository's root, from this file's path (`Tests/TestSupport/Paths.swift`).
public let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()
