@testable import HeadwayCI
import HeadwayProtocol

/// Answers as the servers' references describe them (the fields each source reads, with the
/// names and formats of docs.github.com's "Workflow runs" and "Workflow jobs", docs.gitlab.com's
/// Pipelines and Jobs APIs, Jenkins' remote access API, cctray.org's v1 and Buildbot's data API),
/// and a server made of them that a follower is driven against on a manual clock.
enum Payloads {
    static func time(_ seconds: Double) -> String {
        // 2026-11-26T09:00:00Z is 1795683600 s; times are given as offsets from it.
        let base = 1_795_683_600.0
        let total = Int(base + seconds)
        let day = total / 86_400, rest = total % 86_400
        precondition(day == 20_783, "the payloads' times stay on 2026-11-26")
        return "2026-11-26T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }

    static let base = 1_795_683_600.0

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func githubRun(id: Int, number: Int, status: String, conclusion: String? = nil, started: Double = 0, updated: Double = 0,
                          attempt: Int = 1, name: String = "CI", workflow: Int = 77, branch: String = "main") -> JSONValue {
        .object([
            ("id", .number(Double(id))), ("name", .string(name)), ("head_branch", .string(branch)), ("run_number", .number(Double(number))),
            ("run_attempt", .number(Double(attempt))), ("status", .string(status)), ("conclusion", conclusion.map(JSONValue.string) ?? .null),
            ("workflow_id", .number(Double(workflow))), ("event", .string("push")),
            ("run_started_at", .string(time(started))), ("created_at", .string(time(started))), ("updated_at", .string(time(updated))),
        ])
    }

    static func githubRuns(_ runs: [JSONValue]) -> [UInt8] {
        Array(JSONValue.object([("total_count", .number(Double(runs.count))), ("workflow_runs", .array(runs))]).text.utf8)
    }

    /// A job of `steps` steps, `done` of them completed and the next in progress.
    static func githubJob(name: String, status: String, steps: [String], done: Int, started: Double = 0) -> JSONValue {
        let list: [JSONValue] = steps.enumerated().map { index, step in
            let state = index < done ? "completed" : index == done && status == "in_progress" ? "in_progress" : "queued"
            return .object([("name", .string(step)), ("status", .string(state)), ("conclusion", state == "completed" ? .string("success") : .null),
                            ("number", .number(Double(index + 1)))])
        }
        return .object([("id", .number(9)), ("name", .string(name)), ("status", .string(status)), ("started_at", .string(time(started))), ("steps", .array(list))])
    }

    static func githubJobs(_ jobs: [JSONValue]) -> [UInt8] {
        Array(JSONValue.object([("total_count", .number(Double(jobs.count))), ("jobs", .array(jobs))]).text.utf8)
    }

    static var githubRunsText: String { String(decoding: githubRuns([githubRun(id: 500, number: 42, status: "in_progress")]), as: UTF8.self) }
    static var githubJobsText: String { String(decoding: githubJobs([githubJob(name: "build", status: "in_progress", steps: twelveSteps, done: 4)]), as: UTF8.self) }

    static let twelveSteps = ["Set up job", "Checkout", "Set up Swift", "Resolve", "Run tests", "Build docs", "Lint", "Package",
                              "Sign", "Upload", "Post Checkout", "Complete job"]
}

/// A server of canned answers: `answer` gives each URL's, the request log keeps what was asked.
final class CannedServer {
    var answer: (HTTPRequest) -> Result<HTTPResponse, HTTPFailure>
    private(set) var log: [HTTPRequest] = []

    init(_ answer: @escaping (HTTPRequest) -> Result<HTTPResponse, HTTPFailure>) {
        self.answer = answer
    }

    /// Steps `follower` at `moment` until its look (if one is due) is over; what it told and logged.
    func look(_ follower: inout Follower, at moment: Moment) -> Follower.Step {
        var all = Follower.Step()
        var step = follower.step(at: moment)
        while true {
            all.jobRequests += step.jobRequests
            all.log += step.log
            all.requests += step.requests
            guard !step.requests.isEmpty else { return all }
            for request in step.requests {
                log.append(request)
                follower.receive(answer(request), for: request, at: moment)
            }
            step = follower.step(at: moment)
        }
    }
}

func ok(_ body: [UInt8], _ headers: [(String, String)] = []) -> Result<HTTPResponse, HTTPFailure> {
    .success(HTTPResponse(status: 200, headers: HTTPHeaders(headers), body: body))
}
