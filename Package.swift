// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode with existential `any` and internal imports.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The shipped targets also leave out the implicit `_StringProcessing` import (regexes, which
/// nothing here uses): its 9,000 symbols cost start-up time and memory (BENCHMARKS.md).
let shippedSettings =
    strictSettings + [
        .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])
    ]

let package = Package(
    name: "eggtimer",
    products: [
        .executable(name: "eggtimer", targets: ["eggtimer"])
    ],
    targets: [
        // C libraries, seen only by AlarmAudio.
        .systemLibrary(
            name: "CAlsa", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CMpg123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        // libmosquitto's header only, seen only by HouseBus. No pkgConfig and no `link`: HouseBus
        // loads the library with dlopen, so the binary does not need it (nor libssl, libcrypto).
        .systemLibrary(name: "CMosquitto"),
        // libespeak-ng's and libsamplerate's headers only, seen only by Speech. No pkgConfig and no
        // `link`: Speech loads both with dlopen, so the binary needs neither unless it speaks.
        .systemLibrary(name: "CEspeak"),
        .systemLibrary(name: "CSamplerate"),
        // libmicrohttpd's header only, seen only by WebServer, which loads it with dlopen.
        .systemLibrary(name: "CMicrohttpd"),
        // libpocketsphinx's and libsphinxbase's types only, seen only by Listening, which loads both
        // with dlopen: no pkgConfig and no `link`.
        .systemLibrary(name: "CPocketsphinx"),
        // signalfd, pipe2 and friends, which Swift's Glibc module lacks; seen by SystemKit alone.
        .systemLibrary(name: "CSystem"),
        // The Swift home of system code several targets need: owned descriptors, errno text, the
        // wake pipe, the lock box, thread start, backoff, Duration conversions, UTC text, the label
        // rule, a process's state in /proc, and typed wrappers of the calls Glibc lacks. The only
        // target that imports CSystem.
        .target(name: "SystemKit", dependencies: ["CSystem", "TextCoding"], swiftSettings: shippedSettings),
        // The one home of text coding every target shares: hex, percent coding, civil dates and
        // zero-padding, the printable rule (what a control character is, how it is escaped), and
        // the JSON writer (`JSONText`).
        // Pure Swift, no C, no I/O, no dependencies.
        .target(name: "TextCoding", swiftSettings: shippedSettings),

        // Timing: pure Swift, no C, no I/O.
        .target(name: "TimerCore", swiftSettings: shippedSettings),
        // What every front reads and speaks: the timer's states (and, with issue 22, its snapshot and
        // the command vocabulary). Pure Swift, no C, no I/O.
        .target(name: "TimerModel", dependencies: ["TextCoding"], swiftSettings: shippedSettings),
        // The CLI's text parsers of outside bytes (times of day, config lines, start requests): pure
        // Swift, no C, no I/O, in a library so that `make fuzz` can build them.
        .target(
            name: "TimerText", dependencies: ["TimerCore", "SystemKit", "TextCoding"], swiftSettings: shippedSettings),
        // Audio: the only target that imports the C audio libraries.
        .target(
            name: "AlarmAudio", dependencies: ["CAlsa", "CMpg123", "SystemKit", "TextCoding"],
            swiftSettings: shippedSettings),
        // The control socket: running timers answer status/ack/cancel/snooze from the same user.
        .target(
            name: "ControlChannel", dependencies: ["SystemKit", "TimerModel", "TextCoding"],
            swiftSettings: shippedSettings),
        // The MQTT house bus: the only target that sees libmosquitto (loaded at run time).
        .target(
            name: "HouseBus", dependencies: ["CMosquitto", "SystemKit", "TimerModel", "TextCoding"],
            swiftSettings: shippedSettings),
        // Speech: the only target that sees libespeak-ng and libsamplerate (loaded at run time);
        // synthesis off the event loop, bounded in time, and the spoken phrases; the timer's spoken line.
        .target(name: "Speech", dependencies: ["CEspeak", "CSamplerate", "SystemKit"], swiftSettings: shippedSettings),
        // Offline speech recognition with CMU PocketSphinx (loaded at run time): the recogniser, the
        // command grammar, the utterance cutter and what the words mean; the kitchen listens with it
        // (issue 46).
        .target(name: "Listening", dependencies: ["CPocketsphinx", "SystemKit"], swiftSettings: shippedSettings),
        // Key presses from Linux input devices (evdev): discovery, hot-plug, presses by the
        // events' own time stamps. Knows no timer; the kernel's input ABI through SystemKit.
        .target(name: "KeyInput", dependencies: ["SystemKit", "TextCoding"], swiftSettings: shippedSettings),
        // HTTP/1.1 on libmicrohttpd (loaded at run time) in its external-poll mode, driven by the
        // caller's event loop: the only target that sees libmicrohttpd and its GnuTLS.
        .target(
            name: "WebServer", dependencies: ["CMicrohttpd", "SystemKit", "TextCoding"], swiftSettings: shippedSettings),
        // The timer engine: the pure `Controller` (inputs and instants in, effects out), its
        // `Input`/`Effect` vocabulary, the event log's format (`TimerEvent`, `EventLog`), the
        // clocks' mapping, schedules (alarms at a time, recurrences), the broker options, and the
        // timer record's format, store and keeper (`TimerRecord`, `RecordStore`, `RecordKeeper`).
        // No runner, but the runners' loop over its `Input` (`EventLoop`, `PollLoop<Input>`) and the
        // player's and the broker client's sources of it; the runners stay in the executable.
        .target(
            name: "TimerEngine",
            dependencies: [
                "TimerCore", "TimerModel", "TimerText", "AlarmAudio", "ControlChannel", "EventLoop", "HouseBus",
                "SystemKit", "TextCoding",
            ],
            swiftSettings: shippedSettings),
        // The house's MQTT presence as pure reducers over the timer engine: a timer's link to the
        // broker (`BusLink`, its `BusEffect`s), the follower's (`FollowerCore`) and a survey's
        // (`SurveyTally`) decisions, and the house's wall clock (`HouseClock`). No client and no
        // runner: connecting and the runners stay in the executable.
        .target(
            name: "HouseLink",
            dependencies: [
                "TimerEngine", "HouseBus", "AlarmAudio", "ControlChannel", "TimerModel", "SystemKit", "TextCoding",
            ],
            swiftSettings: shippedSettings),
        // The terminal UI: the pure `View` of a timer's snapshot, display widths, the key decoder,
        // cbreak mode, the alternate screen, terminfo look-ups, the output routing, and the
        // terminal a session holds (`TerminalSession`). Sees the timer engine's snapshot, system
        // plumbing, and of the event loop only its `SignalSet` (Ctrl-Z); the session stays in the CLI.
        .target(
            name: "TerminalUI",
            dependencies: ["TimerEngine", "EventLoop", "TimerCore", "TimerModel", "SystemKit", "TextCoding"],
            swiftSettings: shippedSettings),
        // The kitchen's web front: pairing, the request guard, the HTTP API's routes and JSON, and
        // the phone page (its files in page/, embedded at build time). Pure but for the alarm
        // sound's read and the host name; no server and no kitchen: the executable runs both.
        .target(
            name: "KitchenWeb",
            dependencies: [
                "WebServer", "AlarmAudio", "ControlChannel", "HouseBus", "TimerCore", "TimerModel", "SystemKit",
                "TextCoding",
            ],
            // The page's files, compiled in as byte arrays (`PackageResources`): embedInCode
            // generates no Bundle accessor and imports no Foundation, unlike `.process`/`.copy`.
            resources: [.embedInCode("page")],
            swiftSettings: shippedSettings),
        // The event loop and its sources: one `ppoll` over `LoopSource`s (generic over the caller's
        // event type, so it knows no timer), the boot- and wall-clock timers, the signalfd, child
        // and folder watches, and the control sockets' one connection pool with the timer's inbox
        // and watchers. Sees SystemKit, ControlChannel and the pure TimerModel and TimerText.
        .target(
            name: "EventLoop", dependencies: ["ControlChannel", "SystemKit", "TimerModel", "TimerText"],
            swiftSettings: shippedSettings),
        // The kitchen: `eggtimer kitchen` (the pure `KitchenCore` and the runner `Kitchen` over
        // `KitchenSettings`), `eggtimer start` and `kitchen --pair`, the keypad, the kitchen's
        // voice, MQTT side, web front and paired devices. Sees the timer engine, the event loop,
        // KitchenWeb and the outside-job libraries; no command line (the executable turns its
        // options into `KitchenSettings`) and no terminal.
        .target(
            name: "Kitchen",
            dependencies: [
                "TimerEngine", "HouseLink", "EventLoop", "KitchenWeb", "TimerCore", "TimerModel", "TimerText",
                "AlarmAudio",
                "ControlChannel", "HouseBus", "KeyInput", "Listening", "Speech", "SystemKit", "TextCoding", "WebServer",
            ],
            swiftSettings: shippedSettings),
        // The CLI composes them.
        .executableTarget(
            name: "eggtimer",
            dependencies: [
                "Kitchen", "TimerEngine", "HouseLink", "EventLoop", "TerminalUI", "KitchenWeb", "TimerCore",
                "TimerModel",
                "TimerText",
                "AlarmAudio",
                "ControlChannel", "HouseBus", "KeyInput", "Speech", "SystemKit", "TextCoding", "WebServer",
            ],
            // The man page's roff source (a link to dist/eggtimer.1.in), compiled in as a byte
            // array (`PackageResources`): embedInCode generates no Bundle accessor and imports no
            // Foundation, unlike `.process`/`.copy`.
            resources: [.embedInCode("Man/eggtimer.1.in")],
            swiftSettings: shippedSettings),

        // The test harness for the test targets that run processes, a library under Tests/ that no
        // product links: spawning, reaping, pipes, temporary folders; the one way to run eggtimer
        // (`Eggtimer`), the one poll-until wait (`eventually`) and the kitchen harness (`House`).
        .target(
            name: "TestSupport", dependencies: ["SystemKit", "ControlChannel", "TimerModel"], path: "Tests/TestSupport",
            swiftSettings: strictSettings),

        .testTarget(name: "TimerCoreTests", dependencies: ["TimerCore"], swiftSettings: strictSettings),
        .testTarget(name: "TextCodingTests", dependencies: ["TextCoding"], swiftSettings: strictSettings),
        // Shorthands for driving the timer's `Controller` in tests (a started controller, one
        // input kind at a time, effects by name) and the one lock on `TZ`: for TimerEngineTests,
        // TerminalUITests and the executable's tests.
        .target(
            name: "TimerEngineTestSupport",
            dependencies: ["TimerEngine", "TimerCore", "TimerText", "AlarmAudio", "SystemKit", "TextCoding"],
            path: "Tests/TimerEngineTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "TimerEngineTests",
            dependencies: [
                "TimerEngine", "TimerEngineTestSupport", "TimerCore", "TimerModel", "TimerText", "AlarmAudio",
                "ControlChannel",
                "HouseBus", "SystemKit", "TestSupport", "TextCoding",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI", "TimerEngine", "TimerEngineTestSupport", "TimerCore", "TimerModel", "TimerText",
                "AlarmAudio", "TextCoding",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "KeyInputTests", dependencies: ["KeyInput", "SystemKit", "TestSupport"], swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EventLoopTests",
            dependencies: ["EventLoop", "ControlChannel", "SystemKit", "TestSupport", "TimerModel", "TimerText"],
            swiftSettings: strictSettings),
        .testTarget(name: "SystemKitTests", dependencies: ["SystemKit", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "ControlChannelTests", dependencies: ["ControlChannel", "SystemKit", "TimerModel"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "AlarmAudioTests", dependencies: ["AlarmAudio", "CAlsa", "SystemKit", "TestSupport"],
            // MP3 fixtures are read by path (#filePath), not as resources: those pull in Foundation.
            exclude: ["Fixtures"], swiftSettings: strictSettings),
        .testTarget(
            name: "eggtimerTests",
            dependencies: [
                "eggtimer", "Kitchen", "TimerEngine", "HouseLink", "TimerEngineTestSupport", "EventLoop", "TerminalUI",
                "TimerCore",
                "TimerModel", "TimerText", "AlarmAudio",
                "ControlChannel", "HouseBus", "KeyInput", "Speech", "SystemKit", "TestSupport", "TextCoding",
                "WebServer",
                "KitchenWeb",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "KitchenWebTests",
            dependencies: [
                "KitchenWeb", "WebServer", "AlarmAudio", "ControlChannel", "HouseBus", "TimerCore", "TimerModel",
                "TimerText",
                "SystemKit", "TestSupport", "TextCoding",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "KitchenTests",
            dependencies: [
                "Kitchen", "KitchenWeb", "TimerEngine", "EventLoop", "AlarmAudio", "ControlChannel", "HouseBus",
                "KeyInput", "Listening", "Speech", "TimerCore", "TimerModel", "TimerText", "SystemKit", "TestSupport",
                "TextCoding",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "WebServerTests", dependencies: ["WebServer", "SystemKit", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "HouseLinkTests",
            dependencies: ["HouseLink", "TimerEngine", "HouseBus", "AlarmAudio", "ControlChannel", "TimerModel"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "HouseBusTests", dependencies: ["HouseBus", "SystemKit", "TimerModel"], swiftSettings: strictSettings),
        .testTarget(
            name: "SpeechTests", dependencies: ["Speech", "SystemKit", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "ListeningTests", dependencies: ["Listening", "CAlsa", "SystemKit", "TestSupport"],
            swiftSettings: strictSettings),
        // BusClient against a real Mosquitto broker the tests start: `make test-services` only.
        .testTarget(
            name: "BrokerTests", dependencies: ["HouseBus", "eggtimer", "Kitchen", "SystemKit", "TestSupport"],
            swiftSettings: strictSettings),
        // What a listener hears through a real PulseAudio server: `make test-services` only.
        .testTarget(
            name: "HeardTests", dependencies: ["eggtimer", "AlarmAudio", "SystemKit", "TestSupport"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
