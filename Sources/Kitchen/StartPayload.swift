import HouseBus
import SystemKit
import TextCoding
import TimerEngine
import TimerModel
import TimerText

/// A payload of the kitchen's MQTT start topic, read: the typed request and its asker's id.
///
/// Two forms (issue 42): the plain text of a start (`soft`, `5 min pasta`), which carries no id,
/// and a JSON object `{"start": "5 min pasta", "id": "ha-1718-42"}` whose `id` (optional, or
/// null) is a ``RequestID``, so that a repeat of it (a retry, a redelivery) is answered as the
/// first was and starts nothing more. A payload whose first non-blank byte is `{` is read as JSON;
/// no plain start can begin so. Either way the request is parsed by `StartRequest` (the one
/// parser of every front), and a label the broker reserves (`follow`, `kitchen`) is refused.
/// A plain value; any thread.
struct StartPayload: Equatable, Sendable {
    /// The request.
    var request: StartRequest
    /// Its asker's id; nil when it gave none.
    var id: RequestID?

    /// Why a payload starts nothing: one line, and the id it carried when that could be read.
    struct Refusal: Error, Equatable, Sendable {
        /// The payload's id when it had a readable one (the result names it), else nil.
        var id: RequestID?
        /// The line, without a prefix (`'lunch' is neither a preset … nor a duration`); control
        /// characters escaped.
        var text: String
    }

    /// The longest JSON payload read, in bytes: room for a start of ``StartRequest/limit`` bytes
    /// written with escapes, and an id.
    static let jsonLimit = 2048

    /// The members a JSON payload may have.
    static let members = ["start", "id"]

    /// Reads a start payload.
    /// - Parameters:
    ///   - payload: The message's bytes.
    ///   - presets: The preset names a start may name (`Soft`, any case).
    /// - Returns: The request and its id.
    /// - Throws: ``Refusal`` naming what is wrong: the start (as `StartRequest` words it), the
    ///   label reserved on the broker, JSON that does not parse or is not an object, a member that
    ///   is missing, unknown, repeated or of the wrong type, an id that is not a ``RequestID``.
    static func parse(_ payload: [UInt8], presets: [String]) throws(Refusal) -> StartPayload {
        guard payload.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
            return StartPayload(request: try request(payload, presets: presets, id: nil), id: nil)
        }
        guard payload.count <= jsonLimit else {
            throw Refusal(text: "a JSON start of \(payload.count) bytes is longer than \(jsonLimit)")
        }
        guard case .object(let object)? = JSONValue.parse(payload, byteLimit: jsonLimit, depthLimit: 2) else {
            throw Refusal(text: #"not a JSON object (expected {"start": "soft", "id": "ID"})"#)
        }
        // A readable id names every refusal, so that the asker can match it (one given once).
        let ids = object.filter { $0.key == "id" }
        let readable = ids.count == 1 ? (try? Self.id(ids[0].value)) ?? nil : nil
        var seen: Set<String> = []
        for member in object {
            let key = member.key.escapingControlCharacters
            guard members.contains(member.key) else {
                throw Refusal(id: readable, text: "unknown member '\(key)' in a JSON start (it has only start and id)")
            }
            guard seen.insert(member.key).inserted else {
                throw Refusal(id: readable, text: "member '\(key)' given twice")
            }
        }
        let id = try Self.id(JSONValue.object(object)["id"])
        guard let start = JSONValue.object(object)["start"] else {
            throw Refusal(id: id, text: #"a JSON start without "start" (the request: "soft", "5 min pasta")"#)
        }
        guard case .string(let text) = start else { throw Refusal(id: id, text: #""start" is not a string"#) }
        return StartPayload(request: try request(Array(text.utf8), presets: presets, id: id), id: id)
    }

    /// The id of a JSON payload's `id` member.
    /// - Parameter value: The member's value; nil when there is none.
    /// - Returns: The id; nil when absent or null.
    /// - Throws: ``Refusal`` when it is not a string or not a ``RequestID``.
    private static func id(_ value: JSONValue?) throws(Refusal) -> RequestID? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let id = RequestID(text) else {
                let shown = String(text.prefix(RequestID.limit + 1)).escapingControlCharacters
                throw Refusal(
                    text:
                        "bad request id '\(shown)': 1 to \(RequestID.limit) ASCII letters, digits, '-', '_', '.' or ':'"
                )
            }
            return id
        default: throw Refusal(text: #""id" is not a string"#)
        }
    }

    /// The request of a start's words, refused as `StartRequest` refuses it or when it asks for a
    /// label the broker reserves.
    private static func request(_ words: [UInt8], presets: [String], id: RequestID?) throws(Refusal) -> StartRequest {
        let request: StartRequest
        do { request = try StartRequest.parse(words, presets: presets) } catch {
            throw Refusal(id: id, text: error.description.escapingControlCharacters)
        }
        if let label = request.label, let owner = BusOptions.reservedLabels[LabelRule.key(label)] {
            throw Refusal(
                id: id, text: "the label '\(label)' is the \(owner)'s on the broker (P/NODE/\(label)/availability)")
        }
        return request
    }
}
