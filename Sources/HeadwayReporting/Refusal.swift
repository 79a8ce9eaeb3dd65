import HeadwayProtocol

/// A report the service refused (a job another user began, the service's job limit, a
/// countdown whose end has passed): what it said, and about which job. A refusal never breaks
/// the caller's work; a `HeadwayClient` keeps the newest as `lastRefusal`, a `Job` its own as `refusal`.
public struct Refusal: Sendable, Equatable, CustomStringConvertible {
    /// The job the refused request was about (nil for a question such as a subscription to
    /// every job).
    public var job: String?
    /// The service's answer: the member it refused and why.
    public var error: ProtocolError

    /// A refusal of a request about `job` (nil: about no job), as the service answered it.
    public init(job: String?, error: ProtocolError) {
        self.job = job
        self.error = error
    }

    /// What the refusal means (``/HeadwayProtocol/ProtocolError/code``): decide by this, never by
    /// the message.
    public var code: ProtocolErrorCode { error.code }

    public var description: String { job.map { "\($0): \(error)" } ?? error.description }
}
