import HeadwayCore
import HeadwayProtocol

/// A cctray feed (`cc.xml`), which Jenkins, GoCD, TeamCity, Buildkite, CircleCI and others serve:
/// each project's `activity` (`Sleeping`, `Building`, `CheckingModifications`; some servers add
/// `Pending`) and `lastBuildStatus` (`Success`, `Failure`, `Exception`, `Unknown`), as
/// https://cctray.org/v1/ describes them. A project that is `Building` is a run; when it stops,
/// its `lastBuildStatus` is the run's result. The feed has no progress and no start time: a run is
/// indeterminate, or an estimate from the service's learned durations (its `name` is the feed's
/// host and the project).
public struct CCTraySource: CISource {
    public let url: String
    public let projects: [String]
    private var building: Set<String> = []
    private var feed: [CCTrayFeed.Project]?
    private var asked = false

    public init(url: String, projects: [String] = []) throws(SourceError) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw SourceError("cctray: \"\(DisplayText.sanitised(String(url.prefix(100))))\" is not a feed's address (like https://ci.example.com/cc.xml)")
        }
        self.url = url
        self.projects = projects
    }

    /// The address without its query, which may hold a token (Buildkite's `?access_token=`).
    public var description: String { "cctray \(url.prefix { $0 != "?" })" }
    public var jobPrefix: String { hostOf(url) }
    public var authorization: Authorization { .basic }

    public mutating func requests() -> [HTTPRequest] {
        guard !asked else { return [] }
        asked = true
        return [HTTPRequest(url: url, headers: ["Accept: application/xml, text/xml"])]
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        do {
            feed = try CCTrayFeed.projects(in: response.body)
        } catch {
            throw SourceError("\(description): \(error.description)")
        }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401, 403: "\(description): the feed refused the login; the token file must hold USER:TOKEN (or put the feed's own token in its address)"
        case 404: "\(description): no feed at this address"
        default: "\(description): \(hostOf(url)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    static func outcome(_ status: String?) -> Outcome {
        switch status {
        case "Success": .succeeded
        case "Failure", "Exception": .failed
        default: .ended
        }
    }

    public mutating func abandonLook() {
        feed = nil
        asked = false
    }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer {
            feed = nil
            asked = false
        }
        guard let feed else { return [] }
        var seen: [CIRun] = []
        var nowBuilding: Set<String> = []
        for project in feed {
            guard let name = project["name"], !name.isEmpty, projects.isEmpty || projects.contains(name) else { continue }
            let title = DisplayText.sanitised(name)
            let runName = "cctray/\(hostOf(url))/\(name)"
            switch project["activity"] {
            case "Building":
                nowBuilding.insert(name)
                seen.append(CIRun(key: name, title: title, state: .running, name: runName))
            case "Pending":
                nowBuilding.insert(name)
                seen.append(CIRun(key: name, title: title, state: .queued, name: runName))
            default:
                if building.contains(name) {
                    seen.append(CIRun(key: name, title: title, state: .finished(Self.outcome(project["lastBuildStatus"])), name: runName))
                }
            }
        }
        building = nowBuilding
        return seen
    }
}
