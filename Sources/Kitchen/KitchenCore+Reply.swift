import ControlChannel
import TimerEngine

extension KitchenCore.Outcome {
    /// The kitchen socket's reply line for this outcome: the started timer's status line
    /// (``TimerStatus/line``: `ok<TAB>label=…<TAB>pid=…`), or `error<TAB>KIND<TAB>text` with the
    /// refusal's kind word (`busy`, `usage`, `unavailable`, `failed`, `configuration`, …).
    var line: String {
        switch self {
        case .started(let status): status.line
        case .refused(let refusal): "error\t\(refusal.kind.rawValue)\t\(refusal.text)"
        }
    }

    /// Reads a reply line from the kitchen's socket; nil for a line that is neither a status line
    /// with every field nor an error line with a known kind.
    /// - Parameter line: The line, without its newline.
    init?(line: String) {
        if let status = TimerStatus(line: line) {
            self = .started(status)
            return
        }
        let words = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, words[0] == "error", let kind = KitchenCore.Refusal.Kind(rawValue: String(words[1]))
        else { return nil }
        self = .refused(KitchenCore.Refusal(kind: kind, text: String(words[2])))
    }
}

extension KitchenCore.Refusal.Kind {
    /// The exit status a shell's `eggtimer start` ends with.
    var exitStatus: ExitStatus {
        switch self {
        case .busy: .temporaryFailure
        case .usage: .usage
        case .unavailable: .unavailable
        case .failed: .software
        case .configuration: .configuration
        case .noInput: .noInput
        case .dataError: .dataError
        case .system: .osError
        }
    }
}
