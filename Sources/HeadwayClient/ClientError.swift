import HeadwayCore
import HeadwayProtocol

/// Why a ``HeadwayClient`` call was refused before anything was sent, or why a question to the
/// service went unanswered. Reports themselves never fail for the service's sake: an absent
/// service is a ``/HeadwayReporting/ConnectionState``, and a refusal by the service is kept as a ``/HeadwayReporting/Refusal``.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The job id may not name a job (docs/protocol.md, "Limits"): `problem` says why.
    case invalidJobID(String, problem: String)
    /// A number the service would refuse (a total that is not above 0, a value that is not
    /// finite): refused here, before sending.
    case invalidProgress(ProgressError)
    /// A countdown or timer that ends before it starts, or lasts more than a year.
    case invalidTimer(String)
    /// The service could not be asked (``HeadwayClient/jobs()``): absent, stopped or too slow.
    case unavailable(String)
    /// The broker's address is wrong, or the broker could not be asked (``HeadwayClient/jobs()``
    /// of a client of a broker).
    case broker(String)

    /// What a refusal made here before sending means, as the service would have said it
    /// (docs/protocol.md, "Errors"); nil for a service or broker that could not be asked.
    public var code: ProtocolErrorCode? {
        switch self {
        case .invalidJobID: .invalidIdentifier
        case .invalidProgress(let error): error.code
        case .invalidTimer: .outOfRange
        case .unavailable, .broker: nil
        }
    }

    public var description: String {
        switch self {
        case .invalidJobID(let id, let problem): "job id \"\(DisplayText.sanitised(String(id.prefix(60))))\" \(problem)"
        case .invalidProgress(let error): error.description
        case .invalidTimer(let problem): problem
        case .unavailable(let reason): "the service is unavailable: \(reason)"
        case .broker(let problem): problem
        }
    }
}
