import TimerModel

/// The release version and licence, printed by `--version`.
enum Version {
    /// The release version (``Release/version``, which Home Assistant also shows).
    static let current = Release.version

    /// The licence's SPDX identifier (the full text is `LICENSE` in the source tree and
    /// `/usr/share/doc/eggtimer/copyright` in the Debian package).
    static let licence = "Apache-2.0"

    /// What `--version` prints: the name and version, then the licence, each line ending in a newline.
    static let text = "eggtimer \(current)\nLicense: \(licence) (the Apache License, Version 2.0)\n"
}
