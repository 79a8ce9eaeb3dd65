/// What a refusal means, for a program to act on: each has a stable code on the wire beside the
/// message people read (docs/protocol.md, "Errors"), so that rewording a message never changes
/// what a client does. A code from a newer service that this build does not know reads as
/// ``unknown(_:)``.
public enum ProtocolErrorCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The line is not a JSON object (not JSON at all, or another value).
    case malformed
    /// The line is longer than ``WireProtocol/maxLineBytes``; it was skipped up to its newline.
    case lineTooLong
    /// `v` is missing or names a version this service does not speak.
    case unsupportedVersion
    /// `op` is missing or names no operation of this service.
    case unknownOperation
    /// A member is missing, of the wrong type, not one of its values, or given with a member it
    /// excludes (`percent` with `value`, `total` with `countdown`, `follow` with `pid` …).
    case invalidMember
    /// A number outside its range: a negative value, a total not above 0, a percentage over 100,
    /// a span of time past a year, a countdown that ends in the past, a heartbeat or look
    /// interval outside 1…86400 s, a number that is no process id.
    case outOfRange
    /// A job id or a `begin`'s `name` that may not name a job: empty, too long, or with control,
    /// escape or invisible characters.
    case invalidIdentifier
    /// The service holds no job of that id: it was never begun, or it is over and forgotten, or
    /// the service restarted.
    case noSuchJob
    /// The job has finished (by its reporter, a button, a countdown that ran out, its watched
    /// process); it takes no more reports until it is begun again.
    case jobFinished
    /// The job has a total: it cannot go back to indeterminate.
    case alreadyDeterminate
    /// Another user began the job: only that user or root may change it (or the socket's
    /// owner refuses the request for another reason of who is asking).
    case notPermitted
    /// Nothing that runs the job can pause, resume or stop it (no controller such as
    /// `headway run` follows it; a systemd unit is stopped with systemctl).
    case notControllable
    /// The `pid` names no process the service can watch.
    case noSuchProcess
    /// A limit of the service was reached: the jobs it holds, the processes it watches, the
    /// jobs one connection follows.
    case limitReached
    /// The service is at its connection limit and closed this connection: try again shortly.
    case busy
    /// This service does not offer the operation (a simulator rig without a button).
    case unsupported
    /// The service could not carry out the request's input or output (writing a snapshot).
    case ioError
    /// A code this build does not know (from a newer service), or none (an older one: empty).
    case unknown(String)

    /// Every code of this version of the protocol (``WireProtocol/version``), in the order
    /// docs/protocol.md lists them.
    public static let known: [ProtocolErrorCode] = [
        .malformed, .lineTooLong, .unsupportedVersion, .unknownOperation, .invalidMember, .outOfRange, .invalidIdentifier,
        .noSuchJob, .jobFinished, .alreadyDeterminate, .notPermitted, .notControllable, .noSuchProcess, .limitReached, .busy,
        .unsupported, .ioError,
    ]

    /// The code as it is on the wire (`no-such-job`).
    public var rawValue: String {
        switch self {
        case .malformed: "malformed"
        case .lineTooLong: "line-too-long"
        case .unsupportedVersion: "unsupported-version"
        case .unknownOperation: "unknown-operation"
        case .invalidMember: "invalid-member"
        case .outOfRange: "out-of-range"
        case .invalidIdentifier: "invalid-identifier"
        case .noSuchJob: "no-such-job"
        case .jobFinished: "job-finished"
        case .alreadyDeterminate: "already-determinate"
        case .notPermitted: "not-permitted"
        case .notControllable: "not-controllable"
        case .noSuchProcess: "no-such-process"
        case .limitReached: "limit-reached"
        case .busy: "busy"
        case .unsupported: "unsupported"
        case .ioError: "io-error"
        case .unknown(let text): text
        }
    }

    /// The code `rawValue` names; one this build does not know is ``unknown(_:)`` (never nil).
    public init?(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    public var description: String { rawValue }
}
