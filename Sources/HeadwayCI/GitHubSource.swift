import HeadwayCore
import HeadwayProtocol

/// GitHub Actions (github.com, or GitHub Enterprise Server with `api`): the workflow runs of one
/// repository, queued and in progress, their jobs and steps.
///
/// What is read, from GitHub's REST reference (docs.github.com/en/rest/actions):
/// - "List workflow runs for a repository" (`GET /repos/{owner}/{repo}/actions/runs`) and "for a
///   workflow" (`…/actions/workflows/{workflow_id}/runs`, which takes a file name or an id), with
///   `per_page`, `branch`, `status` and `exclude_pull_requests`: `workflow_runs[]` with `id`,
///   `name`, `run_number`, `run_attempt`, `status` (`queued`, `in_progress`, `completed`,
///   `requested`, `waiting`, `pending`), `conclusion` (`success`, `failure`, `neutral`,
///   `cancelled`, `skipped`, `timed_out`, `action_required`, `stale`, `startup_failure`),
///   `workflow_id`, `head_branch`, `run_started_at` and `updated_at` (ISO 8601).
/// - "Get a workflow run" (`…/actions/runs/{run_id}`): the same fields, for a run followed that
///   left the list.
/// - "List jobs for a workflow run" (`…/actions/runs/{run_id}/jobs`, `filter=latest` by default:
///   the latest attempt's jobs): `jobs[]` with `name`, `status`, `started_at` and `steps[]`, each
///   with `name`, `number` and `status`.
/// The expected duration of a run is the mean of the last three successful runs of its workflow on
/// its branch (`status=success`), each `updated_at - run_started_at`, read once per workflow and
/// branch and kept up to date with the successful runs seen finishing.
public struct GitHubSource: CISource {
    public let owner: String
    public let repository: String
    public let workflow: String?
    public let branch: String?
    public let api: String
    private let repo: String

    /// Run ids active at the last look: each is followed until its conclusion is seen.
    private var followed: [Int: JSONValue] = [:]
    /// Durations of the last successful runs, newest first, by workflow id and branch.
    private var history: [String: [Double]] = [:]
    private var look = Look()

    private struct Look {
        var asked: Set<String> = []
        var runs: [Int: JSONValue] = [:]
        var order: [Int] = []
        var listed = false
        var jobs: [Int: [JSONValue]] = [:]
    }

    public static let defaultAPI = "https://api.github.com"
    static let headers = ["Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28"]
    static let listed = 10

    public init(repository: String, workflow: String? = nil, branch: String? = nil, api: String = GitHubSource.defaultAPI) throws(SourceError) {
        let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } }) else {
            throw SourceError("github: \"\(DisplayText.sanitised(String(repository.prefix(100))))\" is not OWNER/REPO (like acme/widgets)")
        }
        owner = String(parts[0])
        self.repository = String(parts[1])
        self.workflow = workflow
        self.branch = branch
        self.api = URLText.trimmed(api)
        repo = "\(self.api)/repos/\(owner)/\(self.repository)"
    }

    public var description: String { "github \(owner)/\(repository)" }
    public var jobPrefix: String { "\(owner)/\(repository)" }
    public var authorization: Authorization { .bearer }

    /// A workflow given by its file name or id has runs of its own to list; one given by its name
    /// is picked from the repository's runs.
    private var workflowPath: String? {
        guard let workflow, workflow.hasSuffix(".yml") || workflow.hasSuffix(".yaml") || Int(workflow) != nil else { return nil }
        return URLText.component(workflow)
    }

    private var listURL: String {
        var url = workflowPath.map { "\(repo)/actions/workflows/\($0)/runs" } ?? "\(repo)/actions/runs"
        url += "?per_page=\(Self.listed)&exclude_pull_requests=true"
        if let branch { url += "&branch=\(URLText.component(branch))" }
        return url
    }

    private func historyKey(_ run: JSONValue) -> String? {
        guard let workflow = run["workflow_id"]?.integer else { return nil }
        return "\(workflow)/\(run["head_branch"]?.string ?? "")"
    }

    private func historyURL(_ run: JSONValue) -> String? {
        guard let workflow = run["workflow_id"]?.integer else { return nil }
        var url = "\(repo)/actions/workflows/\(workflow)/runs?status=success&per_page=3&exclude_pull_requests=true"
        if let branch = run["head_branch"]?.string { url += "&branch=\(URLText.component(branch))" }
        return url
    }

    public mutating func requests() -> [HTTPRequest] {
        var urls: [String] = []
        if !look.listed {
            urls.append(listURL)
        } else {
            for id in look.order {
                guard let run = look.runs[id], Self.phase(run) == .running else { continue }
                urls.append("\(repo)/actions/runs/\(id)/jobs?per_page=100")
            }
            for id in followed.keys.sorted() where look.runs[id] == nil {
                urls.append("\(repo)/actions/runs/\(id)?exclude_pull_requests=true")
            }
            for id in look.order {
                guard let run = look.runs[id], Self.phase(run) != .finished, let key = historyKey(run), history[key] == nil,
                      let url = historyURL(run) else { continue }
                urls.append(url)
            }
        }
        let fresh = urls.filter { !look.asked.contains($0) }
        look.asked.formUnion(fresh)
        return Array(Set(fresh)).sorted().map { HTTPRequest(url: $0, headers: Self.headers) }
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        let url = request.url
        if url == listURL {
            try requireOK(response, request)
            let json = try JSONBody.parse(response.body, from: description)
            guard let runs = json["workflow_runs"]?.array else { throw SourceError("\(description): the answer has no workflow_runs; is --api GitHub's API?") }
            for run in runs.prefix(100) {
                guard let id = run["id"]?.integer else { continue }
                if let workflow, workflowPath == nil, run["name"]?.string != workflow { continue }
                look.runs[id] = run
                look.order.append(id)
            }
            look.listed = true
        } else if url.contains("/workflows/"), url.contains("status=success") {
            // History is a nicety: a failure to read it leaves the run without an estimate.
            guard response.status == 200, let json = try? JSONBody.parse(response.body, from: description),
                  let runs = json["workflow_runs"]?.array, let key = runs.first.flatMap(historyKey) ?? keyOfHistoryURL(url) else { return }
            history[key] = runs.compactMap(Self.duration)
        } else if let id = Self.runID(in: url, before: "/jobs") {
            try requireOK(response, request)
            let json = try JSONBody.parse(response.body, from: description)
            look.jobs[id] = Array((json["jobs"]?.array ?? []).prefix(256))
        } else if let id = Self.runID(in: url, before: "?") {
            // A run followed that left the list: its conclusion, or gone (deleted) when 404.
            if response.status == 404 || response.status == 410 {
                followed[id] = nil
                return
            }
            try requireOK(response, request)
            let run = try JSONBody.parse(response.body, from: description)
            guard run["id"]?.integer == id else { return }
            look.runs[id] = run
            look.order.append(id)
        }
    }

    /// The history key a history URL was asked for, when its answer listed no run.
    private func keyOfHistoryURL(_ url: String) -> String? {
        guard let start = url.firstRange(of: "/workflows/") else { return nil }
        let workflow = url[start.upperBound...].prefix { $0 != "/" }
        let branch = url.firstRange(of: "&branch=").map { String(url[$0.upperBound...]) } ?? ""
        return "\(workflow)/\(URLText.decoded(branch))"
    }


    private static func runID(in url: String, before marker: String) -> Int? {
        guard let runs = url.firstRange(of: "/actions/runs/") else { return nil }
        let rest = url[runs.upperBound...]
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix(marker) else { return nil }
        return Int(digits)
    }

    private func requireOK(_ response: HTTPResponse, _ request: HTTPRequest) throws(SourceError) {
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401:
            "\(description): GitHub refused the token (expired or revoked?); make a new one that may read Actions (fine-grained: \"Actions: Read-only\"; classic: repo, for a private repository) and put it in the token file"
        case 403:
            "\(description): the token may not read this repository's Actions; give it \"Actions: Read-only\" (fine-grained) or the repo scope (classic)"
        case 404:
            "\(description): no such repository or workflow at \(hostOf(api)) (or it is private: give a token that may read it)"
        default:
            "\(description): \(hostOf(api)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    enum Phase { case queued, running, finished }

    static func phase(_ run: JSONValue) -> Phase {
        switch run["status"]?.string {
        case "in_progress": .running
        case "completed": .finished
        default: .queued
        }
    }

    static func outcome(_ conclusion: String?) -> Outcome {
        switch conclusion {
        case "success": .succeeded
        case "failure", "timed_out", "startup_failure": .failed
        case "cancelled", "skipped": .cancelled
        default: .ended
        }
    }

    static func duration(_ run: JSONValue) -> Double? {
        guard let start = run["run_started_at"]?.string.flatMap(ServerTime.iso8601), let end = run["updated_at"]?.string.flatMap(ServerTime.iso8601),
              end > start, end - start < 35 * 86_400 else { return nil }
        return end - start
    }

    public mutating func abandonLook() { look = Look() }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        var seen: [CIRun] = []
        var stillFollowed: [Int: JSONValue] = [:]
        for id in look.order {
            guard let run = look.runs[id] else { continue }
            let phase = Self.phase(run)
            // A run first seen finished was never shown: nothing to say about it.
            if phase == .finished, followed[id] == nil { continue }
            if phase != .finished { stillFollowed[id] = run }
            if phase == .finished, let key = historyKey(run), Self.outcome(run["conclusion"]?.string) == .succeeded, let duration = Self.duration(run) {
                history[key] = Array(([duration] + (history[key] ?? [])).prefix(3))
            }
            seen.append(mapped(run, id: id, phase: phase))
        }
        followed = stillFollowed
        look = Look()
        return seen
    }

    private func mapped(_ run: JSONValue, id: Int, phase: Phase) -> CIRun {
        let attempt = run["run_attempt"]?.integer ?? 1
        let workflowName = DisplayText.sanitised(run["name"]?.string ?? "run")
        let number = run["run_number"]?.integer.map { " #\($0)" } ?? ""
        let branch = run["head_branch"]?.string ?? ""
        var ciRun = CIRun(
            key: attempt > 1 ? "\(id)-\(attempt)" : "\(id)", title: workflowName + number,
            state: phase == .queued ? .queued : phase == .running ? .running : .finished(Self.outcome(run["conclusion"]?.string)),
            startedAt: run["run_started_at"]?.string.flatMap(ServerTime.iso8601),
            name: "github/\(owner)/\(repository)/\(workflowName)/\(branch)")
        if let key = historyKey(run), let durations = history[key], !durations.isEmpty {
            ciRun.expected = durations.reduce(0, +) / Double(durations.count)
        }
        if phase == .running, let jobs = look.jobs[id], !jobs.isEmpty { Self.progress(of: jobs, into: &ciRun) }
        return ciRun
    }

    /// Jobs done of the jobs of the run, each running job counting the share of its steps done;
    /// the step named is the running step of the job that started first.
    static func progress(of jobs: [JSONValue], into run: inout CIRun) {
        var done = 0.0
        var current: (started: Double, text: String)?
        for job in jobs {
            let steps = job["steps"]?.array ?? []
            switch job["status"]?.string {
            case "completed":
                done += 1
            case "in_progress":
                let finished = steps.filter { $0["status"]?.string == "completed" }.count
                if !steps.isEmpty { done += Double(finished) / Double(steps.count) }
                let started = job["started_at"]?.string.flatMap(ServerTime.iso8601) ?? .infinity
                let jobName = DisplayText.sanitised(job["name"]?.string ?? "job")
                var text = jobName
                if let step = steps.first(where: { $0["status"]?.string == "in_progress" }) ?? steps.first(where: { $0["status"]?.string != "completed" }) {
                    let number = step["number"]?.integer ?? (finished + 1)
                    text = "\(jobName): \(DisplayText.sanitised(step["name"]?.string ?? "step")) (\(number)/\(steps.count))"
                }
                if current == nil || started < current!.started { current = (started, text) }
            default:
                break
            }
        }
        run.done = done
        run.total = Double(jobs.count)
        run.step = current?.text
    }
}
