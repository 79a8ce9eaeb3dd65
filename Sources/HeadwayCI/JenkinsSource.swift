import HeadwayCore
import HeadwayProtocol

/// Jenkins: the builds of one job (`https://ci.example.com/job/widgets`, folders as
/// `…/job/team/job/widgets`), with Jenkins' own estimate of each build's duration.
///
/// What is read, from Jenkins' remote access API (the page at any object's `/api/`, and
/// jenkins.io/doc/book/using/remote-access-api): the job's `…/api/json`, cut down with the `tree`
/// parameter (and its `{0,5}` range) to `displayName`, `fullName`, `inQueue`, `nextBuildNumber`
/// and the newest builds' `number`, `building`, `result` (`SUCCESS`, `UNSTABLE`, `FAILURE`,
/// `NOT_BUILT`, `ABORTED`, null while building), `timestamp` (its start, milliseconds since 1970)
/// and `estimatedDuration` (milliseconds, -1 when Jenkins has no history).
/// A queued build is the job's next build number; a build shows as an estimate from Jenkins'
/// `estimatedDuration` (the service's `expected`), never as progress it does not have.
public struct JenkinsSource: CISource {
    public let job: String
    private var followed: Set<Int> = []
    private var queuedNumber: Int?
    private var answer: JSONValue?
    private var asked = false

    public init(job: String) throws(SourceError) {
        guard job.hasPrefix("https://") || job.hasPrefix("http://"), job.contains("/job/") else {
            throw SourceError("jenkins: \"\(DisplayText.sanitised(String(job.prefix(100))))\" is not a job's address (like https://ci.example.com/job/widgets)")
        }
        self.job = URLText.trimmed(job)
    }

    public var description: String { "jenkins \(job)" }
    public var jobPrefix: String {
        let path = job.split(separator: "/").drop { $0 != "job" }
        return path.filter { $0 != "job" }.joined(separator: "/")
    }
    public var authorization: Authorization { .basic }

    var url: String {
        "\(job)/api/json?tree=displayName,fullName,inQueue,nextBuildNumber,builds%5Bnumber,building,result,timestamp,estimatedDuration%5D%7B0,5%7D"
    }

    public mutating func requests() -> [HTTPRequest] {
        guard !asked else { return [] }
        asked = true
        return [HTTPRequest(url: url, headers: ["Accept: application/json"])]
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        let json = try JSONBody.parse(response.body, from: description)
        guard json["builds"]?.array != nil || json["nextBuildNumber"] != nil else {
            throw SourceError("\(description): the answer is no job's (no builds); is the address a job's, like …/job/NAME?")
        }
        answer = json
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401, 403: "\(description): Jenkins refused the login; the token file must hold USER:API_TOKEN of a user with Overall/Read and Job/Read"
        case 404: "\(description): no such job (check the address, …/job/NAME)"
        default: "\(description): \(hostOf(job)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    static func outcome(_ result: String?) -> Outcome {
        switch result {
        case "SUCCESS": .succeeded
        case "FAILURE", "UNSTABLE": .failed
        case "ABORTED", "NOT_BUILT": .cancelled
        default: .ended
        }
    }

    public mutating func abandonLook() {
        answer = nil
        asked = false
    }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer {
            answer = nil
            asked = false
        }
        guard let answer else { return [] }
        let title = DisplayText.sanitised(answer["displayName"]?.string ?? jobPrefix)
        let name = "jenkins/\(answer["fullName"]?.string ?? jobPrefix)"
        var seen: [CIRun] = []
        var stillFollowed: Set<Int> = []
        var numbers: Set<Int> = []
        for build in answer["builds"]?.array?.prefix(20) ?? [] {
            guard let number = build["number"]?.integer else { continue }
            numbers.insert(number)
            let building = build["building"]?.bool ?? false
            if !building, !followed.contains(number), queuedNumber != number { continue }
            var run = CIRun(key: "\(number)", title: "\(title) #\(number)", state: building ? .running : .finished(Self.outcome(build["result"]?.string)), name: name)
            if let started = build["timestamp"]?.number, started > 0 { run.startedAt = started / 1000 }
            if let estimate = build["estimatedDuration"]?.number, estimate > 0 { run.expected = estimate / 1000 }
            if building { stillFollowed.insert(number) }
            seen.append(run)
        }
        queuedNumber = nil
        if answer["inQueue"]?.bool == true, let next = answer["nextBuildNumber"]?.integer, !numbers.contains(next) {
            seen.append(CIRun(key: "\(next)", title: "\(title) #\(next)", state: .queued, name: name))
            queuedNumber = next
        }
        followed = stillFollowed
        return seen
    }
}
