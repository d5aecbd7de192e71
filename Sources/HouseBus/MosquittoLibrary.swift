import CMosquitto
import Glibc
import SystemKit

/// libmosquitto's functions, loaded with `dlopen` the first time a ``BusClient`` is made.
///
/// The binary does not link libmosquitto (nor libssl and libcrypto, which it pulls in), so a run
/// without `--mqtt` starts and uses memory as before. Each pointer has its header's exact type
/// (`CMosquitto_*`, made with `__typeof__` in the shim header). Loaded once per process and never
/// unloaded; immutable afterwards, so any thread may call through it.
struct MosquittoLibrary: Sendable {
    /// The shared object loaded, by its SONAME.
    static let fileName = "libmosquitto.so.1"

    let libInit: CMosquitto_lib_init
    let libVersion: CMosquitto_lib_version
    let new: CMosquitto_new
    let destroy: CMosquitto_destroy
    let intOption: CMosquitto_int_option
    let usernamePasswordSet: CMosquitto_username_pw_set
    let willSet: CMosquitto_will_set
    let tlsSet: CMosquitto_tls_set
    let connect: CMosquitto_connect
    let disconnect: CMosquitto_disconnect
    let publish: CMosquitto_publish
    let publishV5: CMosquitto_publish_v5
    let propertyAddInt32: CMosquitto_property_add_int32
    let propertyFreeAll: CMosquitto_property_free_all
    let reasonText: CMosquitto_reason_string
    let subscribe: CMosquitto_subscribe
    let unsubscribe: CMosquitto_unsubscribe
    let socket: CMosquitto_socket
    let wantWrite: CMosquitto_want_write
    let loopRead: CMosquitto_loop_read
    let loopWrite: CMosquitto_loop_write
    let loopMisc: CMosquitto_loop_misc
    let userDataSet: CMosquitto_user_data_set
    let connectCallbackSet: CMosquitto_connect_callback_set
    let disconnectCallbackSet: CMosquitto_disconnect_callback_set
    let messageCallbackSet: CMosquitto_message_callback_set
    let publishCallbackSet: CMosquitto_publish_callback_set
    let unsubscribeCallbackSet: CMosquitto_unsubscribe_callback_set
    let errorText: CMosquitto_strerror
    let connackText: CMosquitto_connack_string

    /// The process's library, loaded and initialised (`mosquitto_lib_init`) on first use.
    static let shared: Result<MosquittoLibrary, BusError> = load()

    /// Opens the library and looks up every function.
    ///
    /// Any thread, once.
    /// C: `dlopen`, `dlsym`, `mosquitto_lib_init`.
    private static func load() -> Result<MosquittoLibrary, BusError> {
        let object: SharedObject
        switch SharedObject.open(fileName) {
        case .success(let opened): object = opened
        case .failure(let error): return .failure(.libraryMissing(error.description))
        }
        guard let library = MosquittoLibrary(object) else {
            return .failure(.libraryMissing(object.lookupError.description))
        }
        let result = library.libInit()
        guard result == MOSQ_ERR_SUCCESS.rawValue else {
            return .failure(.setup("mosquitto_lib_init: \(library.text(result))"))
        }
        return .success(library)
    }

    /// Looks up every function in the opened library.
    ///
    /// Fails (nil) when one is missing; `dlerror` says which.
    /// C: `dlsym`.
    private init?(_ object: SharedObject) {
        /// The symbol `name` as the function pointer type `T`.
        func get<T>(_ name: String, _ type: T.Type) -> T? { object.function(name, as: type) }
        guard let libInit = get("mosquitto_lib_init", CMosquitto_lib_init.self),
            let libVersion = get("mosquitto_lib_version", CMosquitto_lib_version.self),
            let new = get("mosquitto_new", CMosquitto_new.self),
            let destroy = get("mosquitto_destroy", CMosquitto_destroy.self),
            let intOption = get("mosquitto_int_option", CMosquitto_int_option.self),
            let usernamePasswordSet = get("mosquitto_username_pw_set", CMosquitto_username_pw_set.self),
            let willSet = get("mosquitto_will_set", CMosquitto_will_set.self),
            let tlsSet = get("mosquitto_tls_set", CMosquitto_tls_set.self),
            let connect = get("mosquitto_connect", CMosquitto_connect.self),
            let disconnect = get("mosquitto_disconnect", CMosquitto_disconnect.self),
            let publish = get("mosquitto_publish", CMosquitto_publish.self),
            let publishV5 = get("mosquitto_publish_v5", CMosquitto_publish_v5.self),
            let propertyAddInt32 = get("mosquitto_property_add_int32", CMosquitto_property_add_int32.self),
            let propertyFreeAll = get("mosquitto_property_free_all", CMosquitto_property_free_all.self),
            let reasonText = get("mosquitto_reason_string", CMosquitto_reason_string.self),
            let subscribe = get("mosquitto_subscribe", CMosquitto_subscribe.self),
            let unsubscribe = get("mosquitto_unsubscribe", CMosquitto_unsubscribe.self),
            let socket = get("mosquitto_socket", CMosquitto_socket.self),
            let wantWrite = get("mosquitto_want_write", CMosquitto_want_write.self),
            let loopRead = get("mosquitto_loop_read", CMosquitto_loop_read.self),
            let loopWrite = get("mosquitto_loop_write", CMosquitto_loop_write.self),
            let loopMisc = get("mosquitto_loop_misc", CMosquitto_loop_misc.self),
            let userDataSet = get("mosquitto_user_data_set", CMosquitto_user_data_set.self),
            let connectCallbackSet = get("mosquitto_connect_callback_set", CMosquitto_connect_callback_set.self),
            let disconnectCallbackSet = get(
                "mosquitto_disconnect_callback_set", CMosquitto_disconnect_callback_set.self),
            let messageCallbackSet = get("mosquitto_message_callback_set", CMosquitto_message_callback_set.self),
            let publishCallbackSet = get("mosquitto_publish_callback_set", CMosquitto_publish_callback_set.self),
            let unsubscribeCallbackSet = get(
                "mosquitto_unsubscribe_callback_set", CMosquitto_unsubscribe_callback_set.self),
            let errorText = get("mosquitto_strerror", CMosquitto_strerror.self),
            let connackText = get("mosquitto_connack_string", CMosquitto_connack_string.self)
        else { return nil }
        (self.libInit, self.libVersion, self.new, self.destroy, self.intOption) =
            (libInit, libVersion, new, destroy, intOption)
        (self.usernamePasswordSet, self.willSet, self.tlsSet, self.connect) =
            (usernamePasswordSet, willSet, tlsSet, connect)
        (self.disconnect, self.publish, self.subscribe, self.socket, self.wantWrite) =
            (disconnect, publish, subscribe, socket, wantWrite)
        (self.loopRead, self.loopWrite, self.loopMisc, self.userDataSet) = (loopRead, loopWrite, loopMisc, userDataSet)
        (self.connectCallbackSet, self.disconnectCallbackSet, self.messageCallbackSet, self.publishCallbackSet) =
            (connectCallbackSet, disconnectCallbackSet, messageCallbackSet, publishCallbackSet)
        (self.errorText, self.connackText) = (errorText, connackText)
        (self.unsubscribe, self.unsubscribeCallbackSet) = (unsubscribe, unsubscribeCallbackSet)
        (self.publishV5, self.propertyAddInt32, self.propertyFreeAll, self.reasonText) =
            (publishV5, propertyAddInt32, propertyFreeAll, reasonText)
    }

    /// libmosquitto's text for a `MOSQ_ERR_*` code; `errno`'s text for `MOSQ_ERR_ERRNO`; its own for
    /// `MOSQ_ERR_KEEPALIVE`.
    /// - Parameters:
    ///   - code: A `MOSQ_ERR_*` value.
    ///   - errorNumber: The `errno` saved right after the failing call (for `MOSQ_ERR_ERRNO`).
    /// - Returns: One line as part of a sentence (``sentence(_:)``), for example `connection refused`.
    /// C: `mosquitto_strerror`, `strerror`.
    func text(_ code: Int32, errorNumber: Int32 = 0) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue, errorNumber != 0 { return sentence(Errno(errorNumber).text) }
        // mosquitto_strerror 2.0.11 says "Unknown error." for this one.
        if code == MOSQ_ERR_KEEPALIVE.rawValue { return "no answer within the keepalive" }
        guard let text = errorText(code) else { return "error \(code)" }
        return sentence(String(cString: text))
    }

    /// The library's version as `major.minor.revision`.
    ///
    /// C: `mosquitto_lib_version`.
    var version: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        _ = libVersion(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}
