import AlarmAudio
import KeyInput
import SystemKit
import Testing
import TimerEngine
import TimerText

@testable import Kitchen
@testable import eggtimer

// The kitchen's settings as the command line and the config file give them: the parsing stays in
// the executable (Options), the kitchen reads KitchenSettings.

/// The kitchen's options that the command line parses for the kitchen library.
@Suite struct KitchenOptionsTests {

    /// The kitchen's label is reserved as `follow`'s: its availability would be the kitchen's.
    @Test func aTimerLabelledKitchenIsRefusedWithMQTTOnly() throws {
        #expect {
            try Options.parse(["5m", "--label", "kitchen", "--mqtt", "mqtt://h"])
        } throws: { error in
            (error as? UsageError)?.description
                == "option '--label' cannot be 'kitchen' with --mqtt: P/NODE/kitchen/availability is the kitchen's"
        }
        #expect(try Options.parse(["5m", "--label", "kitchen"]).label == "kitchen")
    }

    /// The broker options the kitchen passes to the timers it starts parse back to the same options.
    @Test func theTimersBrokerArgumentsParseBackToTheSameOptions() throws {
        var options = BusOptions()
        options.url = "mqtt://pi@127.0.0.1:1883"
        options.node = "stove"
        (options.caFile, options.passwordFile, options.keepalive) = ("/ca.pem", "/pw", .seconds(5))
        options.prefix = "house/eggs"
        let parsed = try Options.parse(["5m"] + KitchenBus.timerArguments(options))
        #expect(parsed.bus == options)
    }

    /// Every setting the kitchen reads comes from its option.
    @Test func theKitchenSettingsAreTheOptions() throws {
        var options = try Options.parse([
            "kitchen", "--max-timers", "3", "--http", "127.0.0.1:0", "--keys", "none", "--mqtt", "mqtt://h", "--node",
            "stove",
        ])
        (options.device, options.fallbackDevice, options.volume, options.ramp) = ("null", "default", 50, .seconds(10))
        (options.voice, options.announce, options.soundPath) = ("de", nil, SoundFilePath("/x.mp3"))
        let settings = options.kitchenSettings
        #expect(settings.device == "null" && settings.fallback == "default")
        #expect(settings.volume == 50 && settings.ramp == .seconds(10) && settings.voice == "de")
        #expect(settings.announce && settings.maxTimers == 3 && settings.keypad.selection == nil)
        #expect(settings.web.address == "127.0.0.1" && settings.bus.url == "mqtt://h" && settings.bus.node == "stove")
        #expect(settings.presets == options.presets && settings.soundPath == SoundFilePath("/x.mp3"))
        options.announce = false
        #expect(!options.kitchenSettings.announce, "announce = no")
    }
}

/// The keypad's config keys: `keys`, `key-4` … `key-9`.
@Suite struct KeypadConfigTests {
    private func settings(_ text: String) throws -> Options {
        try Options.settings(
            from: ConfigFile(
                location: .init(path: Array("/home/u/config".utf8), required: false), contents: Array(text.utf8)))
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try settings(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theDefaultIsAutoWithNoStarts() throws {
        #expect(try settings("").keypad == KeypadSettings())
        #expect(KeypadSettings().selection == .auto)
    }

    @Test func theKeysAndTheStartsAreRead() throws {
        let options = try settings(
            "keys = /dev/input/by-id/usb-Keypad-event-kbd\nkey-4 = 9m pasta\nkey-5 = 1h 30m roast beef\nkey-7 = 5 min\nkey-9 = Soft\nkey-6 = 90\n"
        )
        #expect(options.keypad.selection == .path("/dev/input/by-id/usb-Keypad-event-kbd"))
        #expect(options.keypad.starts[4] == StartRequest(length: .duration(.seconds(540)), label: "pasta"))
        #expect(options.keypad.starts[5] == StartRequest(length: .duration(.seconds(5400)), label: "roast beef"))
        #expect(options.keypad.starts[7] == StartRequest(length: .duration(.seconds(300)), label: "5 min"))
        #expect(options.keypad.starts[9] == StartRequest(length: .preset("soft")))
        #expect(options.keypad.starts[6] == StartRequest(length: .duration(.seconds(90)), label: "90"))
        #expect(try settings("keys = auto").keypad.selection == .auto)
    }

    @Test(arguments: [
        (
            "keys = event0",
            "/home/u/config:1: keys: needs auto, none or a device's absolute path (/dev/input/by-id/...), got 'event0'"
        ),
        (
            "keys = AUTO",
            "/home/u/config:1: keys: needs auto, none or a device's absolute path (/dev/input/by-id/...), got 'AUTO'"
        ),
        ("\nkey-4 = pasta", "/home/u/config:2: key-4: 'pasta' is neither a preset (soft, medium, hard) nor a duration"),
        ("key-4 = 9m --on-done=x", "/home/u/config:1: key-4: '--on-done=x': a start request takes no options"),
        (
            "key-4 = pasta 9m",
            "/home/u/config:1: key-4: 'pasta' is neither a preset (soft, medium, hard) nor a duration"
        ),
        ("key-4 = 9m 30s 10", "/home/u/config:1: key-4: '10': give one duration"),
        ("key-4 = soft 9m", "/home/u/config:1: key-4: '9m': give a preset or a duration, not both"),
        ("key-4 = 0s", "/home/u/config:1: key-4: '0s' is neither a preset"),
        ("key-3 = 9m", "/home/u/config:1: key-3: unknown key"),
        ("key-10 = 9m", "/home/u/config:1: key-10: unknown key"),
        ("key-4 = 9m\nkey-4 = 8m", "/home/u/config:2: key-4: given twice (first on line 1)"),
    ])
    func aBadValueIsOneLineWithTheFileAndTheKey(text: String, expected: String) throws {
        let line = try #require(message(text))
        #expect(line.hasPrefix(expected), "\(line)")
        #expect(!line.contains("\n"))
    }

    /// Issue 40: the key guard and the debounce, their defaults and what the file may set.
    @Test func theKeyGuardAndTheDebounceAreRead() throws {
        #expect(try settings("").keypad.keyGuard == .seconds(1))
        #expect(try settings("").keypad.debounce == .milliseconds(10))
        let options = try settings("key-guard = 1.5s\nkey-debounce = 20ms\n")
        #expect(options.keypad.keyGuard == .milliseconds(1500))
        #expect(options.keypad.debounce == .milliseconds(20))
        #expect(try settings("key-guard = 800ms").keypad.keyGuard == .milliseconds(800))
        #expect(try settings("key-guard = 5s").keypad.keyGuard == .seconds(5))
        #expect(try settings("key-guard = 0").keypad.keyGuard == .zero)
        #expect(try settings("key-debounce = 0ms").keypad.debounce == .zero)
        #expect(try settings("key-debounce = 50MS").keypad.debounce == .milliseconds(50))
    }

    @Test(arguments: [
        (
            "key-guard = 6s",
            "/home/u/config:1: key-guard: needs 0 (off) or a duration up to 5s, such as 1s or 800ms, got '6s': "
                + "longer than 5s"
        ),
        (
            "\nkey-guard = soon",
            "/home/u/config:2: key-guard: needs 0 (off) or a duration up to 5s, such as 1s or 800ms, got 'soon'"
        ),
        (
            "key-guard = -1s",
            "/home/u/config:1: key-guard: needs 0 (off) or a duration up to 5s, such as 1s or 800ms, got '-1s'"
        ),
        (
            "key-debounce = 1",
            "/home/u/config:1: key-debounce: needs 0 (off) or a duration up to 50ms, such as 10ms, got '1': "
                + "longer than 50ms"
        ),
        (
            "key-debounce = 60ms",
            "/home/u/config:1: key-debounce: needs 0 (off) or a duration up to 50ms, such as 10ms, got '60ms': "
                + "longer than 50ms"
        ),
        (
            "key-debounce = 1.5ms",
            "/home/u/config:1: key-debounce: needs 0 (off) or a duration up to 50ms, such as 10ms, got '1.5ms'"
        ),
        (
            "key-debounce = ms",
            "/home/u/config:1: key-debounce: needs 0 (off) or a duration up to 50ms, such as 10ms, got 'ms'"
        ),
    ])
    func aBadKeyGuardOrDebounceIsOneLineWithTheFileTheLineAndTheKey(text: String, expected: String) throws {
        #expect(message(text) == expected)
    }

    @Test func theCommandLineHasNoKeyDigitOptionsAndKeysOnlyForTheKitchen() throws {
        for name in ["--key-4", "--key-9", "--key-guard", "--key-debounce"] {
            #expect(throws: UsageError.self) { try Options.parse([name, "auto"]) }
            #expect(!Options.help.contains(name))
        }
        #expect(throws: UsageError.self) { try Options.parse(["--keys", "auto"]) }
        #expect(Options.help.contains("--keys"))
        #expect(try Options.parse(["kitchen", "--keys", "none"]).keypad.selection == nil)
        let named = try Options.parse(["kitchen", "--keys", "/dev/input/by-id/x"], base: try settings("keys = none"))
        #expect(named.keypad.selection == .path("/dev/input/by-id/x"), "the command line wins")
    }
}

/// The man page's KEYPAD section is the keypad's reference.
@Suite struct KeypadManPageTests {
    @Test func keypadSaysTheMapTheDevicesTheUdevRuleAndTheGPIOButton() throws {
        let page = Options.manPage
        let start = try #require(page.firstRange(of: "\n.SH KEYPAD\n"))
        let section = page[start.upperBound...].split(separator: "\n.SH ").first ?? ""
        for fact in [
            ".B 1 2 3\n", ".B 4 ... 9\n", ".B + \\-\n", ".B 0 Backspace\n", ".B . Enter\n", ".B *\n", "in 3 s",
            "\\fBkey\\-guard\\fR", "\\fBkey\\-debounce\\fR", "own time stamps", "double\\-click", "debounce\\-interval",
            "held 1 s", "never logged", "\\fBkeys = auto\\fR", "capabilities/key", "EVIOCGRAB", "by\\-id",
            #"SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="USB Keypad", OWNER="pi", MODE="0600""#,
            #"TAG+="uaccess""#, "dtoverlay=gpio\\-key,gpio=17,active_low=1,gpio_pull=up,keycode=28",
        ] {
            #expect(section.contains(fact), "KEYPAD lacks \(fact)")
        }
        // The numbers the page gives are the map's.
        #expect(KeyMap.cancelDelay == .seconds(3) && KeyPressReader<ContinuousClock.Instant>.longPress == .seconds(1))
        #expect(KeyMap.role(of: KeyCode(rawValue: 28)) == .report)  // the GPIO line's keycode=28 is Enter
        #expect(KeyMap.role(of: KeyCode(rawValue: 2)) == .digit(1))
    }
}
