import Speech
import Testing

/// The spoken sentences, hand-written per language.
@Suite struct PhrasebookTests {
    static let english = Phrasebook(.english)
    static let german = Phrasebook(.german)

    @Test(arguments: [
        ("en-gb", SpeechLanguage.english), ("en", .english), ("de", .german), ("de-ch", .german),
        ("DE", .german), ("de+f2", .german), ("fr", .english), ("dv", .english), ("", .english),
    ])
    func aVoicesLanguageIsGermanForDeAndEnglishOtherwise(voice: String, language: SpeechLanguage) {
        #expect(SpeechLanguage(voice: voice) == language)
    }

    @Test(arguments: [
        (english.ready("Soft"), "Soft eggs are ready"),
        (english.ready("hard"), "Hard eggs are ready"),
        (english.ready("Pasta"), "Pasta is ready"),
        (english.breakTime(), "Break time"),
        (english.breakTime(long: true), "Long break"),
        (english.backToWork, "Back to work"),
        (english.started("Soft", duration: .seconds(300)), "Soft egg, five minutes"),
        (english.started("Pasta", duration: .seconds(480)), "Pasta, eight minutes"),
        (english.left("Pasta", remaining: .seconds(220)), "Pasta: three minutes forty left"),
        (english.left("Pasta", remaining: .milliseconds(219_001)), "Pasta: three minutes forty left"),
        (english.left("Rice", remaining: .seconds(1200), paused: true), "Rice: twenty minutes left, paused"),
        (english.cancelled, "Cancelled"),
        (english.nothingRunning, "Nothing is running"),
        (german.ready("Soft"), "Die weichen Eier sind fertig"),
        (german.ready("Medium"), "Die mittleren Eier sind fertig"),
        (german.ready("Hard"), "Die harten Eier sind fertig"),
        (german.ready("Pasta"), "Pasta ist fertig"),
        (german.breakTime(), "Pause"),
        (german.breakTime(long: true), "Lange Pause"),
        (german.backToWork, "Weiter geht's"),
        (german.started("Soft", duration: .seconds(300)), "Weiches Ei, fünf Minuten"),
        (german.started("Pasta", duration: .seconds(60)), "Pasta, eine Minute"),
        (german.left("Pasta", remaining: .seconds(220)), "Pasta: noch drei Minuten vierzig"),
        (german.left("Reis", remaining: .seconds(1200), paused: true), "Reis: noch zwanzig Minuten, angehalten"),
        (german.cancelled, "Abgebrochen"),
        (german.nothingRunning, "Es läuft nichts"),
        (english.stopped(["Pasta"]), "Pasta stopped"),
        (english.stopped(["medium"]), "Medium egg stopped"),
        (english.stopped(["Pasta", "Soft"]), "Pasta and Soft egg stopped"),
        (english.stopped([]), "Stopped"),
        (
            english.stopped(["Soft", "Pasta"], silent: ["Pasta"]),
            "Soft egg and Pasta stopped; Pasta never reached its speaker"
        ),
        (
            english.stopped(["Soft", "Pasta", "rice"], silent: ["Pasta", "rice"], asWritten: true),
            "Soft, Pasta and rice stopped; Pasta and rice never reached their speakers"
        ),
        (english.ringingUnheard("Soft"), "Soft egg is ringing but cannot reach its speaker"),
        (english.snoozed(for: .seconds(300)), "Snoozed for five minutes"),
        (english.snoozed(for: .milliseconds(599_001)), "Snoozed for ten minutes"),
        (english.snoozed(for: nil), "Snoozed"),
        (english.cancelling("Pasta", in: .seconds(3)), "Pasta is cancelled in three seconds"),
        (english.notCancelled, "Not cancelled"),
        (english.notStarted, "Not started"),
        (english.notStarted(.full(12)), "Not started: 12 timers run already"),
        (english.notStarted(.failed), "Not started: the timer did not come up; see the kitchen's log"),
        (german.notStarted(.full(3)), "Nicht gestartet: es laufen schon 3 Timer"),
        (german.notStarted(.refused), "Nicht gestartet: die Küche hat abgelehnt"),
        (english.nothingRinging, "Nothing is ringing"),
        (german.stopped(["Pasta"]), "Pasta gestoppt"),
        (german.stopped(["Soft"]), "Weiches Ei gestoppt"),
        (german.stopped([]), "Gestoppt"),
        (
            german.stopped(["Soft", "Pasta"], silent: ["Pasta"]),
            "Weiches Ei und Pasta gestoppt; Pasta hat keinen Lautsprecher erreicht"
        ),
        (german.ringingUnheard("Pasta"), "Pasta klingelt, erreicht aber keinen Lautsprecher"),
        (german.snoozed(for: .seconds(300)), "Noch einmal in fünf Minuten"),
        (german.snoozed(for: nil), "Schlummert"),
        (german.cancelling("Soft", in: .seconds(3)), "Weiches Ei wird in drei Sekunden abgebrochen"),
        (german.notCancelled, "Nicht abgebrochen"),
        (german.notStarted, "Nicht gestartet"),
        (german.nothingRinging, "Es klingelt nichts"),
        (english.started(duration: .seconds(300)), "Timer, five minutes"),
        (german.started(duration: .seconds(90)), "Timer, eine Minute dreißig"),
        (english.timeUp(.seconds(300)), "Five minutes are up"),
        (english.timeUp(.seconds(60)), "One minute is up"),
        (english.timeUp(.seconds(5)), "Five seconds are up"),
        (english.timeUp(.seconds(3_600)), "One hour is up"),
        (english.timeUp(.seconds(220)), "Three minutes forty are up"),
        (english.timeUp(.milliseconds(59_500)), "One minute is up"),
        (german.timeUp(.seconds(300)), "Fünf Minuten sind um"),
        (german.timeUp(.seconds(60)), "Eine Minute ist um"),
        (german.timeUp(.seconds(1)), "Eine Sekunde ist um"),
        (german.timeUp(.seconds(5_400)), "Eine Stunde dreißig Minuten sind um"),
    ])
    func sentences(said: String, expected: String) {
        #expect(said == expected)
    }

    /// Seconds, English, German.
    static let durations: [(Int64, String, String)] = [
        (0, "zero seconds", "null Sekunden"),
        (1, "one second", "eine Sekunde"),
        (2, "two seconds", "zwei Sekunden"),
        (40, "forty seconds", "vierzig Sekunden"),
        (60, "one minute", "eine Minute"),
        (61, "one minute one", "eine Minute eins"),
        (125, "two minutes five", "zwei Minuten fünf"),
        (220, "three minutes forty", "drei Minuten vierzig"),
        (300, "five minutes", "fünf Minuten"),
        (1_277, "twenty-one minutes seventeen", "einundzwanzig Minuten siebzehn"),
        (3_600, "one hour", "eine Stunde"),
        (4_800, "one hour twenty minutes", "eine Stunde zwanzig Minuten"),
        (7_201, "two hours one second", "zwei Stunden eine Sekunde"),
        (7_322, "two hours two minutes two seconds", "zwei Stunden zwei Minuten zwei Sekunden"),
        (16 * 3_600 + 13 * 60, "sixteen hours thirteen minutes", "sechzehn Stunden dreizehn Minuten"),
        (101 * 3_600, "one hundred and one hours", "einhunderteins Stunden"),
        (999 * 3_600, "nine hundred and ninety-nine hours", "neunhundertneunundneunzig Stunden"),
        (21_000 * 3_600, "twenty-one thousand hours", "einundzwanzigtausend Stunden"),
        (101_005 * 3_600, "one hundred and one thousand and five hours", "einhunderteintausendfünf Stunden"),
        (1_000_000 * 3_600, "1000000 hours", "1000000 Stunden"),
    ]

    @Test(arguments: durations)
    func spokenDurations(seconds: Int64, english: String, german: String) {
        #expect(Self.english.spoken(.seconds(seconds)) == english)
        #expect(Self.german.spoken(.seconds(seconds)) == german)
    }

    @Test func fractionsRoundDownOrUpAndNegativeIsZero() {
        #expect(Self.english.spoken(.milliseconds(59_999)) == "fifty-nine seconds")
        #expect(Self.english.spoken(.milliseconds(59_001), roundingUp: true) == "one minute")
        #expect(Self.german.spoken(.seconds(-5)) == "null Sekunden")
        #expect(Self.english.spoken(.seconds(-5), roundingUp: true) == "zero seconds")
    }
}
