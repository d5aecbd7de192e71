import SystemKit
import TextCoding
import TimerModel

extension WebPage {
    /// `/app.js`: the tables made here from the Swift vocabulary (``stateTable``), then the
    /// fixed script (``behaviour``, the file page/app.js).
    static let script = stateTable + behaviour

    /// The script's tables, made from `TimerState` so the script keeps no second list.
    ///
    /// `RINGING` and `FINAL` (`TimerState.isRinging`, `isFinal`), `ACTIONS` (state word → its
    /// row's actions, ``actions(_:)``) and `TITLES`. A row shows its state as the API's JSON words
    /// it (`state`).
    static let stateTable: String = {
        func list(_ words: [String]) -> String { "[" + words.map(JSONText.quoted).joined(separator: ",") + "]" }
        let all = TimerState.allCases
        let actions = all.map { JSONText.quoted($0.rawValue) + ":" + list(Self.actions($0)) }
        return """
            "use strict";
            // Made by WebPage+Script.swift from TimerState: the API's words, no second list.
            const RINGING = \(list(all.filter(\.isRinging).map(\.rawValue)));
            const FINAL = \(list(all.filter(\.isFinal).map(\.rawValue)));
            const ACTIONS = {\(actions.joined(separator: ","))};
            const TITLES = {menu: \(JSONText.quoted(Title.menu)), done: \(JSONText.quoted(Title.done)), \
            counting: \(list([Title.counting.0, Title.counting.1]))};

            """
    }()
}
