/// Why a ``BusClient`` could not be made.
public enum BusError: Error {
    /// libmosquitto could not be loaded or lacks a function: the library name and `dlerror()`.
    case libraryMissing(String)
    /// libmosquitto refused the settings (client id, will, TLS files, user name): what and why.
    case setup(String)

    /// One line for the user.
    public var message: String {
        switch self {
        case .libraryMissing(let detail): "cannot load libmosquitto (install libmosquitto1): \(detail)"
        case .setup(let detail): "MQTT setup failed: \(detail)"
        }
    }
}
