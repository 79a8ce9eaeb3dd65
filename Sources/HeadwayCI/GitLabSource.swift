import HeadwayCore
import HeadwayProtocol

/// GitLab (gitlab.com, or a self-managed instance with `api`): the pipelines of one project, their
/// jobs and stages.
///
/// What is read, from GitLab's REST reference (docs.gitlab.com/api/pipelines and /api/jobs):
/// - "List project pipelines" (`GET /projects/:id/pipelines`, newest first, with `per_page` and
///   `ref`): `id`, `status` (`created`, `waiting_for_resource`, `preparing`, `pending`, `running`,
///   `success`, `failed`, `canceled`, `skipped`, `manual`, `scheduled`), `ref`, `created_at`.
/// - "Get a single pipeline" (`/projects/:id/pipelines/:pipeline_id`): the same, for a pipeline
///   followed that left the list.
/// - "List pipeline jobs" (`/projects/:id/pipelines/:pipeline_id/jobs`, the latest try of each):
///   `name`, `stage`, `status` and `started_at`.
/// - "List project pipelines" with `status=success`, `ref` and `per_page=3`: `created_at` and
///   `updated_at` of the last three successful pipelines of a ref.
/// A pipeline's progress is its jobs finished (`success`, `failed`, `canceled`, `skipped`) of its
/// jobs, leaving out the `manual` ones nobody started; its label names the first running job.
/// Its expected duration is the mean of the last three successful pipelines of its ref, each
/// `updated_at - created_at` (the list says no more): their wait for a runner is in it, so the
/// estimate errs late, never early. It is read once per ref and kept up to date with the
/// successful pipelines seen finishing; the service learns durations from the job's `name` too.
public struct GitLabSource: CISource {
    public let project: String
    public let branch: String?
    public let api: String
    private let base: String

    private var followed: Set<Int> = []
    /// Durations of the last successful pipelines, newest first, by ref.
    private var history: [String: [Double]] = [:]
    private var look = Look()

    private struct Look {
        var asked: Set<String> = []
        var listed = false
        var pipelines: [Int: JSONValue] = [:]
        var order: [Int] = []
        var jobs: [Int: [JSONValue]] = [:]
    }

    public static let defaultAPI = "https://gitlab.com/api/v4"

    public init(project: String, branch: String? = nil, api: String = GitLabSource.defaultAPI) throws(SourceError) {
        guard !project.isEmpty, project.utf8.count <= 255, !project.hasPrefix("/"), !project.hasSuffix("/"),
              project.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }) else {
            throw SourceError("gitlab: \"\(DisplayText.sanitised(String(project.prefix(100))))\" is not a project's path or id (like group/widgets or 4711)")
        }
        self.project = project
        self.branch = branch
        self.api = URLText.trimmed(api)
        base = "\(self.api)/projects/\(URLText.component(project))"
    }

    public var description: String { "gitlab \(project)" }
    public var jobPrefix: String { project }
    public var authorization: Authorization { .bearer }

    private var listURL: String {
        "\(base)/pipelines?per_page=10" + (branch.map { "&ref=\(URLText.component($0))" } ?? "")
    }

    private static let historyQuery = "/pipelines?status=success&per_page=3&ref="

    private func historyURL(_ ref: String) -> String { "\(base)\(Self.historyQuery)\(URLText.component(ref))" }

    public mutating func requests() -> [HTTPRequest] {
        var urls: [String] = []
        if !look.listed {
            urls.append(listURL)
        } else {
            for id in look.order where Self.phase(look.pipelines[id]) == .running { urls.append("\(base)/pipelines/\(id)/jobs?per_page=100") }
            for id in followed.sorted() where look.pipelines[id] == nil { urls.append("\(base)/pipelines/\(id)") }
            for id in look.order {
                guard let pipeline = look.pipelines[id], Self.phase(pipeline) != .finished, let ref = pipeline["ref"]?.string,
                      history[ref] == nil else { continue }
                urls.append(historyURL(ref))
            }
        }
        let fresh = urls.filter { !look.asked.contains($0) }
        look.asked.formUnion(fresh)
        return fresh.map { HTTPRequest(url: $0, headers: ["Accept: application/json"]) }
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        let url = request.url
        let rest = url.dropFirst(base.count + "/pipelines".count)
        if url == listURL {
            try requireOK(response, request)
            guard let pipelines = try JSONBody.parse(response.body, from: description).array else {
                throw SourceError("\(description): the answer is not a list of pipelines; is --api GitLab's API (…/api/v4)?")
            }
            for pipeline in pipelines.prefix(100) {
                guard let id = pipeline["id"]?.integer else { continue }
                look.pipelines[id] = pipeline
                look.order.append(id)
            }
            look.listed = true
        } else if url.hasPrefix(base + Self.historyQuery) {
            // History is a nicety: a failure to read it leaves the pipeline without an estimate.
            let ref = URLText.decoded(String(url.dropFirst(base.count + Self.historyQuery.count)))
            guard response.status == 200, let pipelines = try? JSONBody.parse(response.body, from: description).array else { return }
            history[ref] = pipelines.prefix(3).compactMap(Self.duration)
        } else if rest.hasSuffix("/jobs?per_page=100"), let id = Int(rest.dropFirst().prefix { $0.isNumber }) {
            try requireOK(response, request)
            look.jobs[id] = Array((try JSONBody.parse(response.body, from: description).array ?? []).prefix(512))
        } else if let id = Int(rest.dropFirst()) {
            if response.status == 404 {
                followed.remove(id)
                return
            }
            try requireOK(response, request)
            let pipeline = try JSONBody.parse(response.body, from: description)
            guard pipeline["id"]?.integer == id else { return }
            look.pipelines[id] = pipeline
            look.order.append(id)
        }
    }

    private func requireOK(_ response: HTTPResponse, _ request: HTTPRequest) throws(SourceError) {
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401: "\(description): GitLab refused the token (expired or revoked?); make a new one with the read_api scope and put it in the token file"
        case 403: "\(description): the token may not read this project's pipelines; give it the read_api scope (and at least the Reporter role)"
        case 404: "\(description): no such project at \(hostOf(api)) (or it is private: give a token with read_api)"
        default: "\(description): \(hostOf(api)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    enum Phase { case queued, running, finished }

    static func phase(_ pipeline: JSONValue?) -> Phase {
        switch pipeline?["status"]?.string {
        case "running", "canceling": .running
        case "created", "waiting_for_resource", "preparing", "pending", "scheduled": .queued
        default: .finished
        }
    }

    static func outcome(_ status: String?) -> Outcome {
        switch status {
        case "success": .succeeded
        case "failed": .failed
        case "canceled", "skipped": .cancelled
        default: .ended
        }
    }

    static func duration(_ pipeline: JSONValue) -> Double? {
        guard let start = pipeline["created_at"]?.string.flatMap(ServerTime.iso8601), let end = pipeline["updated_at"]?.string.flatMap(ServerTime.iso8601),
              end > start, end - start < 35 * 86_400 else { return nil }
        return end - start
    }

    public mutating func abandonLook() { look = Look() }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        var seen: [CIRun] = []
        var stillFollowed: Set<Int> = []
        for id in look.order {
            guard let pipeline = look.pipelines[id] else { continue }
            let phase = Self.phase(pipeline)
            if phase == .finished, !followed.contains(id) { continue }
            if phase != .finished { stillFollowed.insert(id) }
            let ref = pipeline["ref"]?.string ?? ""
            if phase == .finished, Self.outcome(pipeline["status"]?.string) == .succeeded, let duration = Self.duration(pipeline) {
                history[ref] = Array(([duration] + (history[ref] ?? [])).prefix(3))
            }
            var run = CIRun(
                key: "\(id)", title: "\(DisplayText.sanitised(ref)) #\(id)",
                state: phase == .queued ? .queued : phase == .running ? .running : .finished(Self.outcome(pipeline["status"]?.string)),
                name: "gitlab/\(project)/\(ref)")
            if let durations = history[ref], !durations.isEmpty { run.expected = durations.reduce(0, +) / Double(durations.count) }
            if phase == .running, let jobs = look.jobs[id], !jobs.isEmpty { Self.progress(of: jobs, into: &run) }
            seen.append(run)
        }
        followed = stillFollowed
        look = Look()
        return seen
    }

    static func progress(of jobs: [JSONValue], into run: inout CIRun) {
        let counted = jobs.filter { $0["status"]?.string != "manual" }
        let done = counted.filter { ["success", "failed", "canceled", "skipped"].contains($0["status"]?.string ?? "") }.count
        let starts = jobs.compactMap { $0["started_at"]?.string.flatMap(ServerTime.iso8601) }
        run.startedAt = starts.min()
        guard !counted.isEmpty else { return }
        run.done = Double(done)
        run.total = Double(counted.count)
        let running = jobs.filter { $0["status"]?.string == "running" }
            .min { ($0["started_at"]?.string.flatMap(ServerTime.iso8601) ?? .infinity) < ($1["started_at"]?.string.flatMap(ServerTime.iso8601) ?? .infinity) }
        if let running {
            let stage = DisplayText.sanitised(running["stage"]?.string ?? "")
            let name = DisplayText.sanitised(running["name"]?.string ?? "job")
            run.step = "\(stage.isEmpty ? "" : stage + ": ")\(name) (\(min(done + 1, counted.count))/\(counted.count))"
        }
    }
}
