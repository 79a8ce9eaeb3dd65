/// The wire protocol between `headway` and the service: one JSON object per line over a Unix stream
/// socket, each carrying `"v":1`. See docs/protocol.md, which lists these limits and what a client
/// is told when it reaches one.
public enum WireProtocol {
    /// The protocol's version, the `"v"` of every line. Its refusals carry the codes of
    /// ``ProtocolErrorCode/known``; a code added within the version reaches older clients as
    /// ``ProtocolErrorCode/unknown(_:)``.
    public static let version = 1
    /// Longest request line, in bytes; a longer one is answered with one error and skipped up to
    /// its newline.
    public static let maxLineBytes = 4096
    /// Longest job id, in bytes of UTF-8.
    public static let maxJobBytes = 128
    /// Labels longer than this many bytes of UTF-8 are kept, cut here with "…" (never refused:
    /// a long CI job name must not make the job disappear).
    public static let maxLabelBytes = 1024
    /// Longest reply line a client reads (a `status` of many jobs), in bytes.
    public static let maxReplyBytes = 4 << 20
    /// Longest span of time a request may name (a countdown, an ETA, a job's age): a leap year.
    public static let maxSeconds: Double = 366 * 86_400
}
