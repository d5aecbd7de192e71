import CMosquitto
import Glibc
import SystemKit

/// Sole owner of one configured libmosquitto client (`struct mosquitto`) on the event loop thread.
///
/// A class, not a `~Copyable` struct, because the client's phase enum holds it and libmosquitto's
/// callbacks reach it through the ``BusClient``; it is never shared: made by the loop thread,
/// lent to exactly one connect worker while that runs (``ConnectAttempt`` holds the bare handle
/// then, and this object does not exist yet), and destroyed on the loop thread.
final class MosquittoConnection {
    let library: MosquittoLibrary
    let handle: OpaquePointer

    /// Adopts a handle the loop thread got back from its connect worker.
    /// - Parameters:
    ///   - handle: A handle made by ``makeHandle(settings:version:library:)``; this object destroys it.
    ///   - library: The loaded library.
    init(adopting handle: OpaquePointer, library: MosquittoLibrary) {
        self.handle = handle
        self.library = library
    }

    deinit { library.destroy(handle) }

    /// The connected socket, or -1.
    ///
    /// C: `mosquitto_socket`.
    var socket: Int32 { library.socket(handle) }

    /// Makes a client handle configured from `settings`: the MQTT version given, clean session,
    /// user name and password, Last Will, TLS with the CA file (or `/etc/ssl/certs`) for `mqtts://`.
    ///
    /// MQTT 5 first, for the message expiry of the retained state (``BusMessage/expiry``); a
    /// broker that refuses it gets 3.1.1 (``BusClient`` decides), which has everything else
    /// eggtimer needs (retained messages, a will, QoS 1, CONNACK codes for bad credentials). The
    /// will is set with `mosquitto_will_set`, which works for both (no will properties). Any
    /// thread; no callbacks and no user data are set yet (those belong to the loop thread's adoption).
    /// - Parameters:
    ///   - settings: The client's settings.
    ///   - version: The MQTT version to speak.
    ///   - library: The loaded library.
    /// - Returns: The handle; the caller owns it (`mosquitto_destroy`).
    /// - Throws: `BusError.setup` naming the setting libmosquitto refused.
    /// C: `mosquitto_new`, `mosquitto_int_option`, `mosquitto_username_pw_set`, `mosquitto_will_set`,
    /// `mosquitto_tls_set`.
    static func makeHandle(settings: BusSettings, version: MQTTVersion, library: MosquittoLibrary) throws(BusError)
        -> OpaquePointer
    {
        let (made, errorNumber) = CloseOnExec.markingNewDescriptors {
            (library.new(settings.clientID, true, nil), errno)
        }
        guard let handle = made else {
            throw .setup("mosquitto_new (client id \"\(settings.clientID)\"): \(errorText(errorNumber))")
        }
        do {
            try check(
                library.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, version.optionValue), "MQTT protocol version",
                library)
            if let user = settings.address.user {
                try check(library.usernamePasswordSet(handle, user, settings.password), "user name", library)
            }
            if let will = settings.will {
                let code = will.payload.withUnsafeBytes { bytes in
                    library.willSet(
                        handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos, will.retain)
                }
                try check(code, "Last Will on \(will.topic)", library)
            }
            if settings.address.secure {
                let caPath = settings.caFile == nil ? "/etc/ssl/certs" : nil
                try check(
                    library.tlsSet(handle, settings.caFile, caPath, nil, nil, nil),
                    "TLS CA \(settings.caFile ?? "/etc/ssl/certs")", library)
            }
        } catch {
            library.destroy(handle)
            throw error
        }
        return handle
    }

    /// Throws `BusError.setup` when `code` is not `MOSQ_ERR_SUCCESS`.
    private static func check(_ code: Int32, _ what: String, _ library: MosquittoLibrary) throws(BusError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw .setup("\(what): \(library.text(code, errorNumber: errno))")
    }
}

/// The MQTT version a ``BusClient`` speaks to its broker.
enum MQTTVersion: Equatable {
    /// MQTT 5: message expiry is sent (``BusMessage/expiry``).
    case v5
    /// MQTT 3.1.1, for a broker that refused MQTT 5: no message expiry.
    case v311

    /// The value of `MOSQ_OPT_PROTOCOL_VERSION`.
    var optionValue: Int32 {
        switch self {
        case .v5: MQTT_PROTOCOL_V5
        case .v311: MQTT_PROTOCOL_V311
        }
    }
}
