import TimerText

// `eggtimer kitchen --listen DEVICE` (issue 46): the microphone, the wake phrase and the labels
// that can be spoken. Their words are checked against the recogniser's dictionary when the
// kitchen starts (Kitchen+Listening.swift), not here: the dictionary is loaded only to listen.

extension Options {
    static let listenSpecs: [Spec] = [
        Spec(
            names: ["--listen"], argument: "DEVICE", group: .general,
            help: "hear spoken commands through this ALSA capture device (a microphone; English, offline, "
                + "after the wake phrase): off unless given",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard !value.isEmpty, value.utf8.count <= 200,
                value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { throw name.error("needs an ALSA capture device's name, got '\(Self.printable(value))'") }
            options.listenDevice = value
        },
        Spec(
            names: ["--wake"], argument: "WORDS", group: .general,
            help: "the wake phrase said before each spoken command (default \"egg timer\"; 1 to 4 English words)",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            guard let words = Self.spokenWords(value, most: 4) else {
                throw name.error("needs 1 to 4 words of letters, got '\(Self.printable(value))'")
            }
            options.wakePhrase = words
            options.wakeConfigLine = nil  // the config file's reader sets it after this
        },
        Spec(
            names: ["--listen-labels"], argument: "A,B", group: .general,
            help: "labels that can be spoken before a time and after \"cancel\" (\"pasta, seven minutes\"), "
                + "comma-separated, at most 16",
            fits: [.subcommand("kitchen")], inConfigFile: true
        ) { options, name, value throws(UsageError) in
            let labels = value.split(separator: ",", omittingEmptySubsequences: false).map {
                Self.spokenWords(String($0), most: 3)
            }
            guard labels.count <= 16, labels.allSatisfy({ $0 != nil }) else {
                throw name.error(
                    "needs at most 16 labels of 1 to 3 words of letters, comma-separated, got '\(Self.printable(value))'"
                )
            }
            var seen = Set<String>()  // each once: `pasta,Pasta` is one label
            options.listenLabels = labels.compactMap { $0?.joined(separator: " ") }.filter { seen.insert($0).inserted }
        },
    ]

    /// `value` as spoken words: 1 to `most` words of ASCII letters (and apostrophes), lowercased;
    /// nil for anything else.
    /// - Parameters:
    ///   - value: The option's text.
    ///   - most: The most words.
    /// - Returns: The words, or nil.
    static func spokenWords(_ value: String, most: Int) -> [String]? {
        let words = value.split(separator: " ").map { $0.lowercased() }
        guard (1...most).contains(words.count),
            words.allSatisfy({ word in
                word.count <= 24 && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "'" }
            })
        else { return nil }
        return words
    }
}
