import ControlChannel
import EventLoop
import Glibc
import TimerEngine

/// The kitchen's commands in flight to its timers, as a source of the event loop: each reply
/// becomes `.timerReply(exchange:reply:)`.
///
/// Each exchange is begun without waiting (``ControlClient/beginExchange(_:label:folder:)``) and
/// its reply read when its descriptor is ready, so a timer that does not answer (a stopped one)
/// holds only its own exchange, never the loop. The deadlines are ``KitchenCore``'s: when one
/// passes, the core asks for the exchange to be dropped (``drop(_:)``), which closes its
/// connection. Owned by the event loop's thread; not thread-safe.
final class TimerExchanges: LoopSource {
    /// The runtime folder.
    let folder: String
    /// The connections waiting for their reply, by the core's number of the exchange.
    private var waiting: [Int: ControlWatch] = [:]

    /// Sends the timers' commands in `folder`.
    /// - Parameter folder: The runtime folder (``RuntimeFolder/current()``).
    init(folder: String) { self.folder = folder }

    /// How many exchanges wait for their reply.
    var count: Int { waiting.count }

    /// Sends `request` to the timer on `socket` as exchange `number`.
    ///
    /// Never blocks.
    /// - Parameters:
    ///   - number: The core's number of the exchange.
    ///   - request: One control line, without a newline.
    ///   - socket: The timer's socket name.
    /// - Returns: Nil once sent; why not (one line, without the label) when it could not be.
    func begin(_ number: Int, _ request: String, to socket: String) -> String? {
        do throws(ControlError) {
            waiting[number] = try ControlClient.beginExchange(request, label: socket, folder: folder)
            return nil
        } catch {
            return error.description
        }
    }

    /// Drops exchange `number` (its deadline passed): its connection is closed, a late reply unread.
    func drop(_ number: Int) { waiting[number] = nil }

    /// Each waiting connection's descriptor.
    var pollRequests: [PollRequest] {
        waiting.values.map { PollRequest(descriptor: $0.descriptor, events: Int16(POLLIN)) }
    }

    /// Reads the replies that came.
    func service(_ ready: [PollReady], at now: ContinuousClock.Instant, into inputs: inout [Input]) {
        for (number, watch) in waiting.sorted(by: { $0.key < $1.key })
        where ready.contains(where: { $0.descriptor == watch.descriptor }) {
            let reply: String?
            do throws(ControlError) {
                switch try watch.reply(until: .now) {
                case .quiet: continue
                case .line(let line): reply = line
                case .ended: reply = nil
                }
            } catch {
                reply = nil
            }
            waiting[number] = nil
            inputs.append(.timerReply(exchange: number, reply: reply))
        }
    }
}
