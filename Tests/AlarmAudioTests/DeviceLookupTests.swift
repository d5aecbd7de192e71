import AlarmAudio
import CAlsa
import Glibc
import Testing

/// Device names looked up in this machine's real ALSA configuration.
///
/// That is alsa.conf only: no sound card, no ~/.asoundrc. Custom definitions are tested end to
/// end, in a child process with its own HOME, so this process's configuration is never changed.
@Suite struct DeviceLookupTests {
    init() { silenceAudioLibraryMessages() }

    /// Defined here even though most cannot open: an absent card is not an unknown name.
    @Test(arguments: [
        "null", "default", "hw", "plughw", "hw:9", "hw:0,0", "plughw:CARD=Nope", "file:'/x',raw",
        "file:'/tmp/a.b:c',raw", "sysdefault:CARD=Headphones", "front", "spdif", "dmix", "pcm.null",
        "pcm.hw:9",
    ])
    func aNameTheConfigurationDefinesPasses(device: String) throws {
        try AlarmPlayer.checkDefined(device: device)
    }

    // Not "hw.x": a dotted name is looked up from the top, where the answer waits for ALSA's hooks
    // (undecided, never refused) until some open in the process has run them, so it depends on
    // what other tests did first.
    @Test(arguments: ["nosuchdevice", "nosuch:CARD=x", "nosuchpcm", "pcm.nosuch", "", ":0", "HW", "null "])
    func aNameNothingDefinesThrowsDeviceUndefinedWithTheDefinedNames(device: String) {
        let error = #expect(throws: AlarmError.self) { try AlarmPlayer.checkDefined(device: device) }
        guard case .deviceUndefined(let named, let defined) = error else {
            Issue.record("expected .deviceUndefined, got \(String(describing: error))")
            return
        }
        #expect(named == device)
        for name in ["hw", "plughw", "file", "null", "default", "sysdefault"] { #expect(defined.contains(name)) }
        #expect(defined.first == "hw")  // alsa.conf's order
        #expect(!defined.contains(device))
        #expect(!defined.contains { $0.hasPrefix("@") })
    }

    /// Never stricter than ALSA: every name called undefined is one alsa-lib's own lookup
    /// (`snd_config_search_definition`, what `snd_pcm_open` uses) cannot find either, while the
    /// same lookup finds the defined names it can expand without a card.
    @Test func undefinedAgreesWithAlsaLibsOwnLookup() throws {
        func alsaFinds(_ name: String) -> Bool {
            var top: OpaquePointer?
            guard snd_config_update_ref(&top) >= 0, let top else { return false }
            defer { snd_config_unref(top) }
            var definition: OpaquePointer?
            guard snd_config_search_definition(top, "pcm", name, &definition) >= 0 else { return false }
            if let definition { snd_config_delete(definition) }
            return true
        }
        for name in ["nosuchdevice", "nosuch:CARD=x", "pcm.nosuch", "HW"] {
            #expect(!alsaFinds(name), "\(name)")
            #expect(throws: AlarmError.self) { try AlarmPlayer.checkDefined(device: name) }
        }
        for name in ["null", "hw", "hw:9", "plughw:CARD=Nope", "pcm.null", "file:'/x',raw"] {
            #expect(alsaFinds(name), "\(name)")
            try AlarmPlayer.checkDefined(device: name)
        }
    }

    @Test func theMessageNamesTheDeviceTheDefinedNamesAndAplay() {
        let error = AlarmError.deviceUndefined(device: "nosuchdevice", defined: ["hw", "null", "default"])
        #expect(error.description == "no ALSA device called 'nosuchdevice' (defined: hw, null, default; see aplay -L)")
        let none = AlarmError.deviceUndefined(device: "x", defined: [])
        #expect(none.description == "no ALSA device called 'x' (defined: none; see aplay -L)")
    }
}
