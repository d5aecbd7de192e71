/// The release this binary is.
///
/// What `--version` prints and what Home Assistant shows as the devices' software version
/// (issue 45). Pure; any thread.
public enum Release {
    /// The release version.
    public static let version = "1.0.0"
}
