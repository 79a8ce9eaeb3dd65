import HeadwayCore
import HeadwayProtocol

/// Buildbot: the builds of one builder through the master's REST data API (`/api/v2`), their steps
/// as Buildbot creates them, and the requests waiting for a worker.
///
/// What is read, from Buildbot's data API reference (docs.buildbot.net, "REST API" and the "Data
/// API" resource types builder, build, step and buildrequest), checked against a real master:
/// - `GET /api/v2/builders?name=NAME`: `builders[].builderid`;
/// - `GET /api/v2/builders/ID/builds?order=-number&limit=5`: `builds[]` with `buildid`, `number`,
///   `buildrequestid`, `complete`, `results` (0 success, 1 warnings, 2 failure, 3 skipped,
///   4 exception, 5 retry, 6 cancelled; null while running) and `started_at` (seconds since 1970);
/// - `GET /api/v2/buildrequests?builderid=ID&claimed=false&complete=false`: requests waiting, with
///   `buildrequestid`;
/// - `GET /api/v2/builds/BUILDID/steps`: `steps[]` with `name`, `number`, `complete` — only the
///   steps that have started: the number planned is not in the API until they run.
/// One job is one build request, so a build Buildbot retries (after a worker or the master was
/// lost, `results` 5) goes on as the same job. The number of steps a build will have is taken from
/// the builder's last successful build; a build with more raises it.
public struct BuildbotSource: CISource {
    public let root: String
    public let builder: String
    private var builderID: Int?
    /// Steps of the builder's last successful build, and which build that was.
    private var planned: (build: Int, steps: Int)?
    private var followed: Set<Int> = []
    private var look = Look()

    private struct Look {
        var asked: Set<String> = []
        var builds: [JSONValue]?
        var waiting: [Int]?
        var steps: [Int: [JSONValue]] = [:]
    }

    public init(url: String, builder: String) throws(SourceError) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw SourceError("buildbot: \"\(DisplayText.sanitised(String(url.prefix(100))))\" is not a master's address (like http://buildbot.example.com:8010/)")
        }
        guard !builder.isEmpty else { throw SourceError("buildbot: say which builder to follow with --builder NAME") }
        var root = URLText.trimmed(url)
        if root.hasSuffix("/api/v2") { root = String(root.dropLast("/api/v2".count)) }
        self.root = root
        self.builder = builder
    }

    public var description: String { "buildbot \(builder) at \(hostOf(root))" }
    public var jobPrefix: String { builder }
    public var authorization: Authorization { .bearer }

    private var api: String { "\(root)/api/v2" }

    public mutating func requests() -> [HTTPRequest] {
        var urls: [String] = []
        if let id = builderID {
            urls.append("\(api)/builders/\(id)/builds?order=-number&limit=5")
            urls.append("\(api)/buildrequests?builderid=\(id)&claimed=false&complete=false")
            for build in look.builds ?? [] {
                guard let buildID = build["buildid"]?.integer else { continue }
                if build["complete"]?.bool == false {
                    urls.append("\(api)/builds/\(buildID)/steps")
                } else if [0, 1].contains(build["results"]?.integer), planned == nil || planned!.build < buildID,
                          buildID == latestSuccessful(look.builds ?? []) {
                    urls.append("\(api)/builds/\(buildID)/steps")
                }
            }
        } else {
            urls.append("\(api)/builders?name=\(URLText.component(builder))")
        }
        let fresh = urls.filter { !look.asked.contains($0) }
        look.asked.formUnion(fresh)
        return fresh.map { HTTPRequest(url: $0, headers: ["Accept: application/json"]) }
    }

    private func latestSuccessful(_ builds: [JSONValue]) -> Int? {
        builds.filter { $0["complete"]?.bool == true && [0, 1].contains($0["results"]?.integer) }.compactMap { $0["buildid"]?.integer }.max()
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        let json = try JSONBody.parse(response.body, from: description)
        let path = request.url.dropFirst(api.count)
        if path.hasPrefix("/builders?") {
            guard let id = json["builders"]?.array?.first?["builderid"]?.integer else {
                throw SourceError("\(description): the master has no builder \"\(DisplayText.sanitised(builder))\" (its builders are listed at \(api)/builders)")
            }
            builderID = id
        } else if path.hasPrefix("/builders/") {
            look.builds = Array((json["builds"]?.array ?? []).prefix(20))
        } else if path.hasPrefix("/buildrequests") {
            look.waiting = (json["buildrequests"]?.array ?? []).prefix(100).compactMap { $0["buildrequestid"]?.integer }
        } else if path.hasPrefix("/builds/"), let buildID = Int(path.dropFirst("/builds/".count).prefix { $0.isNumber }) {
            let steps = Array((json["steps"]?.array ?? []).prefix(1000))
            look.steps[buildID] = steps
            if let build = look.builds?.first(where: { $0["buildid"]?.integer == buildID }), build["complete"]?.bool == true {
                planned = (buildID, steps.count)
            }
        }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401, 403: "\(description): the master refused the request; give a token it accepts, or allow anonymous reading"
        case 404: "\(description): no Buildbot data API at \(api) (is the address the master's web address, with its www plugin?)"
        default: "\(description): \(hostOf(root)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    static func outcome(_ results: Int?) -> Outcome {
        switch results {
        case 0, 1: .succeeded
        case 2, 4: .failed
        case 3, 6: .cancelled
        default: .ended
        }
    }

    public mutating func abandonLook() { look = Look() }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer { look = Look() }
        guard builderID != nil, let builds = look.builds else { return [] }
        let title = DisplayText.sanitised(builder)
        var seen: [String: CIRun] = [:]
        var order: [String] = []
        var stillFollowed: Set<Int> = []
        func add(_ run: CIRun) {
            if seen[run.key] == nil { order.append(run.key) }
            seen[run.key] = run
        }
        for request in look.waiting ?? [] {
            stillFollowed.insert(request)
            add(CIRun(key: "\(request)", title: "\(title) (request \(request))", state: .queued, name: "buildbot/\(builder)"))
        }
        // Oldest first, so that the newest build of a request (a retry) is the one kept.
        for build in builds.reversed() {
            guard let request = build["buildrequestid"]?.integer, let number = build["number"]?.integer else { continue }
            let complete = build["complete"]?.bool ?? false
            let results = build["results"]?.integer
            var run = CIRun(key: "\(request)", title: "\(title) #\(number)", state: .running, name: "buildbot/\(builder)")
            run.startedAt = build["started_at"]?.number
            if complete {
                // Retried: the request waits again (it is listed above) or its next build runs.
                if results == 5 { continue }
                guard followed.contains(request) || stillFollowed.contains(request) else { continue }
                run.state = .finished(Self.outcome(results))
                stillFollowed.remove(request)
            } else {
                stillFollowed.insert(request)
                if let buildID = build["buildid"]?.integer, let steps = look.steps[buildID] { progress(of: steps, into: &run) }
            }
            add(run)
        }
        // A request followed that neither waits nor has a build listed: leave it to the mapper
        // (it ends as unknown) unless a newer build list shows it.
        followed = stillFollowed
        return order.compactMap { seen[$0] }
    }

    private func progress(of steps: [JSONValue], into run: inout CIRun) {
        let done = steps.filter { $0["complete"]?.bool == true }.count
        let total = max(planned?.steps ?? 0, steps.count)
        if let current = steps.first(where: { $0["complete"]?.bool != true }) {
            let name = "\(DisplayText.sanitised(builder)): \(DisplayText.sanitised(current["name"]?.string ?? "step"))"
            run.step = planned == nil ? name : "\(name) (\(min(done + 1, total))/\(total))"
        }
        guard planned != nil, total > 0 else { return }
        run.done = Double(done)
        run.total = Double(total)
    }
}
