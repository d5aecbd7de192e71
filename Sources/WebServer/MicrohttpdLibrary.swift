import CMicrohttpd
import SystemKit

/// libmicrohttpd's functions, loaded with `dlopen` when an ``HTTPServer`` starts.
///
/// The binary does not link libmicrohttpd (nor GnuTLS, which it pulls in), so a kitchen without
/// `--http` starts and uses memory as before. Each pointer has its header's exact type
/// (`CMicrohttpd_*`, made with `__typeof__` in the shim header). The shared object is never
/// unloaded; the value is immutable, so any thread may hold it (the daemon calls themselves are
/// confined to the server's thread).
struct MicrohttpdLibrary {
    /// The shared object loaded by default, by its SONAME.
    static let fileName = "libmicrohttpd.so.12"
    /// The environment variable naming another shared object to load instead (a test seam: a
    /// name that does not exist shows the error a box without the library gives).
    static let fileNameVariable = "EGGTIMER_LIBMICROHTTPD"

    let startDaemon: CMicrohttpd_start_daemon
    let stopDaemon: CMicrohttpd_stop_daemon
    let daemonInfo: CMicrohttpd_get_daemon_info
    let timeout: CMicrohttpd_get_timeout
    let run: CMicrohttpd_run
    let connectionValues: CMicrohttpd_get_connection_values
    let connectionInfo: CMicrohttpd_get_connection_info
    let responseFromBuffer: CMicrohttpd_create_response_from_buffer
    let responseFromCallback: CMicrohttpd_create_response_from_callback
    let addResponseHeader: CMicrohttpd_add_response_header
    let queueResponse: CMicrohttpd_queue_response
    let destroyResponse: CMicrohttpd_destroy_response
    let suspend: CMicrohttpd_suspend_connection
    let resume: CMicrohttpd_resume_connection
    let featureSupported: CMicrohttpd_is_feature_supported

    /// Opens the library and looks up every function.
    /// - Parameter fileName: A SONAME or a path.
    /// - Returns: The functions, or the reason in one line (`libmicrohttpd.so.12: cannot open
    ///   shared object file: No such file or directory`). Any thread.
    /// C: `dlopen`, `dlsym`.
    static func load(_ fileName: String) -> Result<MicrohttpdLibrary, HTTPServerError> {
        switch SharedObject.open(fileName) {
        case .success(let object):
            guard let library = MicrohttpdLibrary(object) else {
                return .failure(HTTPServerError(description: object.lookupError.description))
            }
            return .success(library)
        case .failure(let error):
            return .failure(HTTPServerError(description: error.description))
        }
    }

    /// Looks up every function in the opened library; nil when one is missing.
    ///
    /// C: `dlsym`.
    private init?(_ object: SharedObject) {
        /// The symbol `name` as the function pointer type `T`.
        func get<T>(_ name: String, _ type: T.Type) -> T? { object.function(name, as: type) }
        guard let startDaemon = get("MHD_start_daemon", CMicrohttpd_start_daemon.self),
            let stopDaemon = get("MHD_stop_daemon", CMicrohttpd_stop_daemon.self),
            let daemonInfo = get("MHD_get_daemon_info", CMicrohttpd_get_daemon_info.self),
            let timeout = get("MHD_get_timeout", CMicrohttpd_get_timeout.self),
            let run = get("MHD_run", CMicrohttpd_run.self),
            let connectionValues = get("MHD_get_connection_values", CMicrohttpd_get_connection_values.self),
            let connectionInfo = get("MHD_get_connection_info", CMicrohttpd_get_connection_info.self),
            let responseFromBuffer = get(
                "MHD_create_response_from_buffer", CMicrohttpd_create_response_from_buffer.self),
            let responseFromCallback = get(
                "MHD_create_response_from_callback", CMicrohttpd_create_response_from_callback.self),
            let addResponseHeader = get("MHD_add_response_header", CMicrohttpd_add_response_header.self),
            let queueResponse = get("MHD_queue_response", CMicrohttpd_queue_response.self),
            let destroyResponse = get("MHD_destroy_response", CMicrohttpd_destroy_response.self),
            let suspend = get("MHD_suspend_connection", CMicrohttpd_suspend_connection.self),
            let resume = get("MHD_resume_connection", CMicrohttpd_resume_connection.self),
            let featureSupported = get("MHD_is_feature_supported", CMicrohttpd_is_feature_supported.self)
        else { return nil }
        (self.startDaemon, self.stopDaemon, self.daemonInfo, self.timeout, self.run) =
            (startDaemon, stopDaemon, daemonInfo, timeout, run)
        (self.connectionValues, self.connectionInfo, self.responseFromBuffer, self.responseFromCallback) =
            (connectionValues, connectionInfo, responseFromBuffer, responseFromCallback)
        (self.addResponseHeader, self.queueResponse, self.destroyResponse) =
            (addResponseHeader, queueResponse, destroyResponse)
        (self.suspend, self.resume, self.featureSupported) = (suspend, resume, featureSupported)
    }
}
