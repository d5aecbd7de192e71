import TestSupport

/// What the kitchen's broker tests share: the node `kitchen` on a test broker, and a config file
/// whose timers ring on the null device.
enum KitchenOnBroker {
    /// The kitchen's arguments for `broker`: its URL, node `kitchen`, a 5 s keepalive.
    static func bus(_ broker: MosquittoBroker) -> [String] {
        ["--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--node", "kitchen", "--mqtt-keepalive", "5s"]
    }

    /// A config file (`device = null`) in a private folder, for the kitchens and every timer they start.
    /// - Returns: The folder, and the environment that names the file.
    /// - Throws: `TestFailure` when it cannot be written.
    static func config() throws -> (folder: String, environment: [String: String]) {
        let folder = makePrivateDirectory("eggtimer-kitchen-config")
        try writeFile(folder + "/config", "device = null\n")
        return (folder, ["EGGTIMER_CONFIG": folder + "/config"])
    }
}
