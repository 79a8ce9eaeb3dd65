import HeadwayCore
import HeadwayProtocol

/// One server to follow — a CI server, a printer, a home — as the command line or the
/// configuration file names it.
public struct SourceSettings: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case github(repository: String, workflow: String?, branch: String?)
        case gitlab(project: String, branch: String?)
        case jenkins(job: String)
        case cctray(url: String, projects: [String])
        case buildbot(url: String, builder: String)
        case octoprint(url: String)
        case moonraker(url: String)
        case homeassistant(url: String, entities: [HomeEntity])
    }

    public var kind: Kind
    /// The API's root (GitHub Enterprise Server, a self-managed GitLab); nil: the public service.
    public var api: String?
    /// Put before each run's label.
    public var label: String?
    /// Seconds between looks while something runs or waits, and while nothing does.
    public var interval: Double?
    public var idleInterval: Double?
    /// Requests an hour at most.
    public var budget: Double?
    /// Where the token is: a file, or a systemd credential's name (`LoadCredential=`).
    public var tokenFile: String?
    public var credential: String?

    public init(kind: Kind, api: String? = nil, label: String? = nil, interval: Double? = nil, idleInterval: Double? = nil,
                budget: Double? = nil, tokenFile: String? = nil, credential: String? = nil) {
        self.kind = kind
        self.api = api
        self.label = label
        self.interval = interval
        self.idleInterval = idleInterval
        self.budget = budget
        self.tokenFile = tokenFile
        self.credential = credential
    }

    public func makeSource() throws(SourceError) -> any CISource {
        switch kind {
        case .github(let repository, let workflow, let branch):
            try GitHubSource(repository: repository, workflow: workflow, branch: branch, api: api ?? GitHubSource.defaultAPI)
        case .gitlab(let project, let branch):
            try GitLabSource(project: project, branch: branch, api: api ?? GitLabSource.defaultAPI)
        case .jenkins(let job): try JenkinsSource(job: job)
        case .cctray(let url, let projects): try CCTraySource(url: url, projects: projects)
        case .buildbot(let url, let builder): try BuildbotSource(url: url, builder: builder)
        case .octoprint(let url): try OctoPrintSource(url: url)
        case .moonraker(let url): try MoonrakerSource(url: url)
        case .homeassistant(let url, let entities): try HomeAssistantSource(url: url, entities: entities)
        }
    }

    /// Whether a token sent to the addresses asked would cross a network readable on the way:
    /// plain HTTP to another machine (this machine's own loopback is no network).
    public var tokenCrossesPlainHTTP: Bool {
        addresses.contains { address in
            guard address.lowercased().hasPrefix("http://") else { return false }
            return !LoopbackAddress.contains(Self.host(of: address))
        }
    }

    /// The host of `address` without its port ("http://user@[::1]:8010/x" → "::1").
    static func host(of address: String) -> String {
        let authority = Substring(hostOf(address))
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[authority.index(after: authority.startIndex)..<close]) }
        return String(authority.prefix { $0 != ":" })
    }

    /// The addresses asked.
    public var addresses: [String] {
        switch kind {
        case .github: [api ?? GitHubSource.defaultAPI]
        case .gitlab: [api ?? GitLabSource.defaultAPI]
        case .jenkins(let job): [job]
        case .cctray(let url, _): [url]
        case .buildbot(let url, _): [url]
        case .octoprint(let url), .moonraker(let url), .homeassistant(let url, _): [url]
        }
    }

    /// The default pacing of each kind of server: the public services' rate limits shared with a
    /// token's other uses (GitHub: 60 requests an hour without a token, 5000 with one; GitLab.com:
    /// 2000 a minute), and a team's own server asked more often.
    public func policy(hasToken: Bool) -> PollingPolicy {
        var policy: PollingPolicy
        switch kind {
        case .github: policy = PollingPolicy(running: 15, idle: 60, budget: hasToken ? 1000 : 50)
        case .gitlab: policy = PollingPolicy(running: 15, idle: 60, budget: 1000)
        case .jenkins, .cctray, .buildbot: policy = PollingPolicy(running: 10, idle: 30, budget: 3600)
        // A printer or a home on the local network, asked often enough that the display follows
        // within a few seconds (a look is one to three small requests; a home's, one per entity).
        case .octoprint, .moonraker, .homeassistant: policy = PollingPolicy(running: 2, idle: 15, budget: 20_000, maxBackoff: 60)
        }
        if let interval { policy.running = interval }
        if let idleInterval { policy.idle = max(idleInterval, policy.running) } else { policy.idle = max(policy.idle, policy.running) }
        if let budget { policy.budget = budget }
        return policy
    }
}
