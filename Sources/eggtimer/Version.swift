/// The release version, printed by `--version`.
enum Version {
    static let current = "1.0.0"
}
