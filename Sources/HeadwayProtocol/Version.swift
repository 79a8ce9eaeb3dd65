import CPlatform

/// The version of this build, as every executable's `--version` prints it: `git describe` of the
/// tree it was built from (Scripts/build passes it), or "development" for a plain `swift build`.
public enum Version {
    /// This build's version.
    public static let current = String(cString: hw_version())
}
