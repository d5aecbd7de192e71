import Testing

@testable import Speech

/// A voice value never crashes (issue 40).
///
/// A name reaches libespeak-ng only when espeak-ng's own lists, read through the loaded library,
/// have it, optionally with `+VARIANT` from its variant list. A variant alone (`m3`) used to be
/// set as a voice without a language, and the next `espeak_Synth` died of SIGSEGV, taking the
/// process with it.
@Suite struct VoiceCatalogTests {
    /// espeak-ng's lists as the engine read them (Debian espeak-ng-data 1.51: 131 voices, 101
    /// variants, 90 MBROLA voices).
    private func catalog() throws -> VoiceCatalog { try SpeechEngine.catalog(library: EspeakLibrary.shared) }

    @Test func theThreeListsAreEspeakNgsOwn() throws {
        let catalog = try catalog()
        #expect(catalog.voices.count > 50 && catalog.variants.count > 50 && catalog.mbrolaVoices.count > 50)
        #expect(catalog.voices.contains { $0.identifier == "gmw/en" && $0.languages.contains("en-gb") })
        #expect(catalog.voices.contains { $0.identifier == "gmw/de" && $0.name == "German" })
        #expect(catalog.variants.contains { $0.identifier == "!v/m3" && $0.name == "male3" })
        #expect(catalog.mbrolaVoices.contains { $0.identifier == "mb/mb-en1" })
        #expect(catalog.voices.allSatisfy { !$0.identifier.hasPrefix("!v/") && !$0.identifier.hasPrefix("mb/") })
        #expect(catalog.variants.allSatisfy { $0.languages.contains("variant") })
    }

    /// Every voice `espeak-ng --voices` lists is taken by its file name, its name and each of its
    /// languages written in lower case (the rule alone: selecting all 131 in this shared process
    /// would slow every later synthesis in it, since espeak-ng 1.51 keeps a voice's `speed` line,
    /// `jbo`'s 80 %, across later voices).
    @Test func everyListedVoiceIsTaken() throws {
        let catalog = try catalog()
        for entry in catalog.voices {
            let names = [String(entry.fileName), entry.name] + entry.languages.filter { $0 == $0.lowercased() }
            for name in names {
                guard case .success(.voice) = catalog.choice(for: name) else {
                    Issue.record("\(entry.identifier): '\(name)' is not taken")
                    continue
                }
            }
        }
    }

    /// Voices by file name, name and language, set through the library as the voice listed.
    @Test(arguments: [
        ("en", "gmw/en"), ("en-gb", "gmw/en"), ("EN-GB", "gmw/en"), ("German", "gmw/de"), ("de", "gmw/de"),
        ("en-GB-x-rp", "gmw/en-GB-x-rp"), ("en-us", "gmw/en-US"), ("Afrikaans", "gmw/af"), ("eu", "eu"),
    ])
    func aListedVoiceIsSetAsItself(value: String, identifier: String) throws {
        #expect(try SpeechEngine.check(voice: value, library: EspeakLibrary.shared) == identifier)
    }

    /// Every variant `espeak-ng --voices=variant` lists, given alone, is refused before the
    /// library sees it: a check, and a synthesis (which crashed the process before).
    @Test func everyListedVariantAloneIsRefusedAndNeverSpoken() throws {
        let synthesizer = SpeechSynthesizer()
        for variant in try catalog().variants.map({ String($0.fileName) }) {
            #expect(throws: SpeechError.variantWithoutVoice(variant)) { try synthesizer.check(voice: variant) }
            #expect(throws: SpeechError.variantWithoutVoice(variant)) {
                try synthesizer.synthesize("Soft eggs are ready", voice: variant)
            }
        }
        #expect(try synthesizer.synthesize("Soft eggs are ready", voice: "en").samples.count > 10_000)
    }

    /// A voice with a listed variant is set with it, also when the voice is found by its
    /// language (`en-gb` is no voice's name: espeak-ng chooses `gmw/en`, then the variant goes on
    /// it; it was dropped before).
    @Test(arguments: [
        ("en+m3", "gmw/en+m3"), ("en-gb+f1", "gmw/en+f1"), ("de+Alex", "gmw/de+Alex"),
        ("en-us+Storm", "gmw/en-US+Storm"), ("Afrikaans+klatt", "gmw/af+klatt"),
    ])
    func aVoiceWithAListedVariantIsSetWithIt(value: String, identifier: String) throws {
        #expect(try SpeechEngine.check(voice: value, library: EspeakLibrary.shared) == identifier)
        let spoken = try SpeechSynthesizer().synthesize("Pasta is ready", voice: value)
        #expect(spoken.samples.contains { abs(Int($0)) > 1_000 }, "not silence")
    }

    /// Names no list has, malformed ones and paths never reach the library.
    @Test(arguments: [
        "xx", "de-ch", "de-xx", "en-zz-nonesuch", "en+", "+m3", "en+m3+f1", "../x", "gmw/en", "/etc/passwd",
        "en\u{0}", "", "English (Great Britain)x",
    ])
    func anythingElseIsAnUnknownVoice(value: String) {
        #expect(throws: SpeechError.unknownVoice(value)) { try SpeechSynthesizer().check(voice: value) }
    }

    /// Not an argument of the table above, whose every case is printed.
    @Test func aTenKilobyteNameIsAnUnknownVoice() {
        let value = String(repeating: "a", count: 10_240)
        #expect(throws: SpeechError.unknownVoice(value)) { try SpeechSynthesizer().check(voice: value) }
        #expect(throws: SpeechError.unknownVoice(value)) { try SpeechSynthesizer().synthesize("Tea", voice: value) }
    }

    @Test(arguments: [("en+zz", "zz"), ("en+alex", "alex"), ("de+male3", "male3"), ("en+3", "3")])
    func aVariantNoListHasIsNamed(value: String, variant: String) {
        #expect(throws: SpeechError.unknownVariant(voice: value, variant: variant)) {
            try SpeechSynthesizer().check(voice: value)
        }
    }

    /// An MBROLA voice espeak-ng lists is refused with what is missing, without the library's own
    /// five lines and its attempt to start `mbrola`.
    @Test func aListedMbrolaVoiceThatIsNotInstalledSaysSo() throws {
        try #require(
            MbrolaInstallation.system.problem(
                voice: "mb-en1", entry: .init(identifier: "mb/mb-en1", name: "", languages: []), espeakData: nil)
                != nil, "this machine has MBROLA's en1: the test needs one without it")
        let error = SpeechError.mbrolaNotInstalled(
            voice: "mb-en1", database: "en1", dataMissing: true, programMissing: true)
        #expect(throws: error) { try SpeechSynthesizer().check(voice: "mb-en1") }
        #expect(
            error.message
                == "espeak-ng lists the MBROLA voice 'mb-en1', but MBROLA and its voice data en1 are not installed (Debian: mbrola, mbrola-en1)"
        )
        // Its database is read from its voice file: mb-de6-grc speaks with de6.
        #expect(
            throws: SpeechError.mbrolaNotInstalled(
                voice: "MB-DE6-GRC", database: "de6", dataMissing: true, programMissing: true)
        ) {
            try SpeechSynthesizer().check(voice: "MB-DE6-GRC")
        }
    }

    /// The rule itself, on a small catalog: a voice by name, file name or language (the
    /// language in lower case, as espeak-ng compares it), then an MBROLA voice, then a variant
    /// alone; a variant after `+` by its file name exactly.
    @Test(arguments: [
        ("en-gb", VoiceCatalog.Choice.voice(base: "en-gb", variant: nil)),
        ("EN-GB", .voice(base: "EN-GB", variant: nil)),
        ("english", .voice(base: "english", variant: nil)),
        ("en-US", .voice(base: "en-US", variant: nil)),
        ("en-gb+m3", .voice(base: "en-gb", variant: "m3")),
        ("mb-en1+m3", .mbrola(VoiceCatalogTests.mbrola, base: "mb-en1", variant: "m3")),
        ("english-mb-en1", .mbrola(VoiceCatalogTests.mbrola, base: "english-mb-en1", variant: nil)),
    ])
    func theRuleAdmits(value: String, choice: VoiceCatalog.Choice) {
        #expect(Self.small.choice(for: value) == .success(choice))
    }

    @Test(arguments: [
        ("m3", SpeechError.variantWithoutVoice("m3")), ("male3", .variantWithoutVoice("m3")),
        ("M3", .variantWithoutVoice("m3")),
        ("en+M3", .unknownVariant(voice: "en+M3", variant: "M3")),
        ("chr-US-Qaaa-x-west", .unknownVoice("chr-US-Qaaa-x-west")),
        ("chr", .unknownVoice("chr")), ("en-uk", .unknownVoice("en-uk")),
    ])
    func theRuleRefuses(value: String, error: SpeechError) {
        #expect(Self.small.choice(for: value) == .failure(error))
    }

    /// The library's word on the voice it set is checked too: a variant or an MBROLA voice not
    /// asked for is not admitted.
    @Test func onlyAListedVoiceWithAListedVariantIsAdmittedAsSet() {
        #expect(Self.small.admits(current: "gmw/en") && Self.small.admits(current: "gmw/en+m3"))
        #expect(!Self.small.admits(current: "!v/m3") && !Self.small.admits(current: "gmw/en+zz"))
        #expect(
            !Self.small.admits(current: "mb/mb-en1") && Self.small.admits(current: "mb/mb-en1", mbrola: Self.mbrola))
        #expect(!Self.small.admits(current: ""))
    }

    static let mbrola = VoiceCatalog.Entry(
        identifier: "mb/mb-en1", name: "english-mb-en1", languages: ["en-uk", "en-gb", "en"])
    private static let small = VoiceCatalog(
        voices: [
            .init(identifier: "gmw/en", name: "English", languages: ["en-gb", "en"]),
            .init(identifier: "gmw/en-US", name: "English (America)", languages: ["en-us", "en"]),
            .init(identifier: "iro/cherokee", name: "Cherokee ", languages: ["chr-US-Qaaa-x-west"]),
        ],
        variants: [.init(identifier: "!v/m3", name: "male3", languages: ["variant"])],
        mbrolaVoices: [mbrola])
}
