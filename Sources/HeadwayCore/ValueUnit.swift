/// What a job's value and total count, so that people read them in units: bytes as kB, MB and GB
/// (or KiB, MiB and GiB, where the tool that reports them counts in those), seconds as a duration.
/// A job without one counts things ("3/10 files").
public enum ValueUnit: String, Sendable, Equatable, Codable, CaseIterable {
    /// Bytes, read in decimal multiples: 1.2 GB.
    case bytes
    /// Bytes, read in binary multiples (KiB, MiB, GiB), as restic, pv, curl and wget print them.
    case binaryBytes = "bytes-iec"
    /// Seconds, read as a duration: 2m05s.
    case seconds
}
