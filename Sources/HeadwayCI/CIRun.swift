import HeadwayCore

/// One run of a server as a source sees it at one look: a workflow run, a pipeline, a build, a
/// print, a Home Assistant timer. A run is one job on the display; its label names the step it is at.
public struct CIRun: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Waiting at the server to start (a queue, a runner to pick it up).
        case queued
        case running
        case finished(Outcome)
    }

    /// The run's own id at its server, unique within the source (a run id, a pipeline id, a build
    /// request): the last part of the job's id.
    public var key: String
    /// What the run is, shown while no step is known: "CI #42".
    public var title: String
    /// The step it is at, when the server says: "build: Run tests (5/12)".
    public var step: String?
    public var state: State
    /// When it started, by the server's clock (seconds since 1970).
    public var startedAt: Double?
    /// How far it is: steps or jobs done of those planned, when the server says.
    public var done: Double?
    public var total: Double?
    /// How long the whole run is expected to take, from the server's history or its own estimate.
    public var expected: Double?
    /// What runs of the same kind share (workflow and branch), for the service's learned durations.
    public var name: String?
    /// Paused at the server (a print paused at the printer or from Headway's button).
    public var paused = false
    /// Seconds left, when the server says so itself (a printer's estimate, a timer's end): shown as
    /// the job's estimate in place of one figured from `expected`.
    public var remaining: Double?
    /// Whether the server takes pause, resume and cancel for this run (``CISource/command(_:key:)``).
    public var controllable = false

    public init(key: String, title: String, step: String? = nil, state: State, startedAt: Double? = nil,
                done: Double? = nil, total: Double? = nil, expected: Double? = nil, name: String? = nil) {
        self.key = key
        self.title = title
        self.step = step
        self.state = state
        self.startedAt = startedAt
        self.done = done
        self.total = total
        self.expected = expected
        self.name = name
    }

    public var isActive: Bool {
        if case .finished = state { return false }
        return true
    }
}

/// Why a look at a source failed, in one line that names the source and the fix.
public struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// The server asked for a pause (a rate limit): seconds since 1970 when it may be asked again.
    public var retryAt: Double?
    /// What failed on the way, when the request got no answer: what says whether two failures
    /// are the same, whatever the transport's words (a connection refused "after 8 ms" and
    /// "after 0 ms" is one failure).
    public var transport: HTTPFailure.Kind?

    public init(_ description: String, retryAt: Double? = nil, transport: HTTPFailure.Kind? = nil) {
        self.description = description
        self.retryAt = retryAt
        self.transport = transport
    }

    /// Whether this is the failure `other` was: the same kind on the way, else the same words.
    func repeats(_ other: SourceError?) -> Bool {
        guard let other else { return false }
        if let transport, let earlier = other.transport { return transport == earlier }
        return description == other.description
    }
}

/// A server followed by headway-ci (a CI server, a printer, a home). A look at it is a few GETs made in rounds: the source says
/// what it needs (``requests()``), is handed each answer (``receive(_:for:)``), says what else it
/// needs now that it knows more (a run's jobs once it knows the run), and when it needs nothing
/// more, says what it saw (``finishLook(serverTime:)``). It keeps what it learned between looks
/// (its history, the ids it follows) and nothing else; the follower does the pacing, the
/// conditional requests and the rate limits.
public protocol CISource: Sendable {
    /// For messages: "github acme/widgets".
    var description: String { get }
    /// The part of its jobs' ids that says where they come from ("acme/widgets"); with a broker,
    /// its MQTT source.
    var jobPrefix: String { get }
    /// The server's answers may carry a token: how its header is written.
    var authorization: Authorization { get }
    /// The requests the current look still needs; empty when it has what it needs.
    mutating func requests() -> [HTTPRequest]
    /// An answer (2xx, or a 304 already replaced by the body it confirmed) to one of them.
    mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError)
    /// Ends the look: the runs as the server shows them. `serverTime` is the server's clock.
    mutating func finishLook(serverTime: Double) -> [CIRun]
    /// Forgets what the current look gathered (it failed): what was learned before stays.
    mutating func abandonLook()
    /// An error answer (4xx, 5xx) in the server's own terms, with the fix.
    func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String
    /// The request that carries `command` to the server for the run `key` (nil: it takes none).
    func command(_ command: JobCommand, key: String) -> HTTPRequest?
}

extension CISource {
    public func command(_ command: JobCommand, key: String) -> HTTPRequest? { nil }
}

/// What a person asked of a job through Headway (its button, `headway stop`), for its server.
public enum JobCommand: String, Sendable, Equatable {
    case pause, resume, cancel
}

/// How a token is sent.
public enum Authorization: Sendable, Equatable {
    /// `Authorization: Bearer TOKEN` (GitHub, GitLab).
    case bearer
    /// `Authorization: Basic base64(USER:TOKEN)` (Jenkins, cctray feeds); the file holds USER:TOKEN.
    case basic
    /// `X-Api-Key: TOKEN` (OctoPrint's API key; docs.octoprint.org api/general.html "Authorization").
    case apiKey

    public func header(token: String) -> String {
        switch self {
        case .bearer: "Authorization: Bearer \(token)"
        case .basic: "Authorization: Basic \(Base64.encode(Array(token.utf8)))"
        case .apiKey: "X-Api-Key: \(token)"
        }
    }
}
