import ControlChannel
import Glibc
import SystemKit
import TestSupport
import Testing

@testable import eggtimer

/// Issue 41 end to end: the same words start the same timer from every front.
///
/// Through `eggtimer start` (direct and through the kitchen), the HTTP API and a keypad's `key-N`
/// line; labels with spaces and letters beyond ASCII reach their timers (status, sockets). MQTT:
/// BrokerTests' StartGrammarOverMQTTTests.
@Suite struct StartGrammarEndToEndTests {
    private let soon = { ContinuousClock.now + .seconds(20) }

    /// The running timer labelled `label` (its socket is the label's key): its total and label.
    private func timer(_ house: House, _ label: String) -> (total: Duration?, label: String)? {
        house.status(label).map { ($0.total, $0.label) }
    }

    @Test func startDirectTakesWordsAsOneGrammar() throws {
        let house = House(config: "")
        let pasta = house.command(["start", "5", "min", "pasta"])
        #expect(pasta.termination == .exited(0), "\(pasta.stderr)")
        #expect(pasta.stdout.hasPrefix("pasta: started, rings in 5:00 (pid "), "\(pasta.stdout)")
        let spaetzle = house.command(["start", "3m Spätzle"])
        #expect(spaetzle.stdout.hasPrefix("Spätzle: started, rings in 3:00 (pid "), "\(spaetzle.stdout)")
        let typed = house.command(["start", "1h", "30m"])
        #expect(typed.stdout.hasPrefix("1h 30m: started, rings in 1:30:00 (pid "), "\(typed.stdout)")
        #expect(timer(house, "pasta")?.total == .seconds(300))
        #expect(timer(house, "spätzle")?.label == "Spätzle", "found by its key")
        #expect(timer(house, "1h 30m")?.total == .seconds(5400))
        let ambiguous = house.command(["start", "5", "30"])
        #expect(ambiguous.termination == .exited(64))
        #expect(ambiguous.stderr == "eggtimer: start: '30': give one duration; a label may not read as another\n")
        #expect(house.command(["cancel", "SPÄTZLE"]).termination == .exited(0))
        #expect(house.command(["cancel", "1h", "30m"]).termination == .exited(0))
        #expect(house.command(["cancel", "pasta"]).termination == .exited(0))
    }

    @Test func startThroughTheKitchenGivesTheSameTimers() throws {
        let house = House(config: "")
        let kitchen = house.kitchen(["--keys", "none"])
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        let beef = house.command(["start", "1h", "30m", "roast", "beef"])
        #expect(beef.stdout.hasPrefix("roast beef: started, rings in 1:30:00 (pid "), "\(beef.stdout) \(beef.stderr)")
        let typed = house.command(["start", "5 min"])
        #expect(typed.stdout.hasPrefix("5 min: started, rings in 5:00 (pid "), "\(typed.stdout) \(typed.stderr)")
        #expect(kitchen.expect("roast beef: started, rings in 1:30:00", until: soon()), "\(kitchen.stdout)")
        #expect(timer(house, "Roast Beef")?.total == .seconds(5400))
        #expect(timer(house, "5 min")?.total == .seconds(300))
        // One timer per key: `ROAST BEEF` is the same label, refused as a label in use.
        let again = house.command(["start", "2m", "ROAST", "BEEF"])
        #expect(again.termination == .exited(64) && again.stderr.contains("a timer with this label is running"))
        #expect(house.log("roast beef").contains(#""event":"started""#), "its log is named by the key")
        #expect(house.command(["cancel", "--all"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }

    @Test func theHTTPAPIStartsByTheSameGrammar() throws {
        let web = try WebKitchen()
        try web.pair()
        let started = try web.request("POST", "/api/timers", json: #"{"start":"5 min pasta"}"#)
        #expect(started.status == 201, "\(started.text)")
        #expect(WebKitchen.json(started)?["label"]?.stringValue == "pasta", "\(started.text)")
        let apart = try web.request("POST", "/api/timers", json: #"{"start":"3m","label":"Küche"}"#)
        #expect(apart.status == 201, "\(apart.text)")
        #expect(WebKitchen.json(apart)?["label"]?.stringValue == "Küche", "\(apart.text)")
        #expect(timer(web.house, "pasta")?.total == .seconds(300))
        #expect(timer(web.house, "küche")?.total == .seconds(180))
        let refused = try web.request("POST", "/api/timers", json: #"{"start":"soft 5m"}"#)
        #expect(refused.status == 400 && refused.text.contains("'5m': give a preset or a duration"), "\(refused.text)")
        let both = try web.request("POST", "/api/timers", json: #"{"start":"7m pasta","label":"x"}"#)
        #expect(both.status == 400 && both.text.contains("give the label once"), "\(both.text)")
    }

    @Test func aKeypadKeyLineStartsByTheSameGrammar() throws {
        let pad = House(config: "key-4 = 1h 30m roast beef\nannounce = no\n", keypad: true)
        try pad.addKeypad("event0")
        let kitchen = pad.kitchen()
        #expect(kitchen.expect("kitchen: listening on", until: soon()))
        try pad.connectKeypad("event0")
        try pad.press(KeyCode.keypadDigits[4])
        #expect(kitchen.expect("roast beef: started, rings in 1:30:00 (pid ", until: soon()), "\(kitchen.stdout)")
        #expect(timer(pad, "roast beef")?.total == .seconds(5400))
        #expect(pad.command(["cancel", "roast", "beef"]).termination == .exited(0))
        kill(kitchen.pid, SIGTERM)
        #expect(kitchen.finish() == .exited(0))
    }
}
