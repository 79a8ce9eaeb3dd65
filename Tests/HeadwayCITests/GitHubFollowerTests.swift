@testable import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import Testing

/// A GitHub repository followed on a manual clock: what the service is told at each look, and
/// what is asked of GitHub.
@Suite("GitHub Actions followed")
struct GitHubFollowerTests {
    let list = "https://api.github.com/repos/acme/widgets/actions/runs?per_page=10&exclude_pull_requests=true"
    let jobs = "https://api.github.com/repos/acme/widgets/actions/runs/500/jobs?per_page=100"
    let history = "https://api.github.com/repos/acme/widgets/actions/workflows/77/runs?status=success&per_page=3&exclude_pull_requests=true&branch=main"

    func follower(token: String? = "t0ken") throws -> Follower {
        Follower(source: try GitHubSource(repository: "acme/widgets"), policy: PollingPolicy(running: 15, idle: 60, budget: 1000), token: token)
    }

    func at(_ seconds: Double) -> Moment { Moment(monotonic: seconds, wall: Payloads.base + seconds) }

    /// Queued, then a 12-step job stepping through, then its result; the estimate from the last
    /// successful runs of the workflow on its branch.
    @Test func aRunFromTheQueueToItsResult() throws {
        var state = (status: "queued", done: 0, conclusion: String?.none)
        let server = CannedServer { [list, jobs, history] request in
            switch request.url {
            case list:
                ok(Payloads.githubRuns([Payloads.githubRun(id: 500, number: 42, status: state.status, conclusion: state.conclusion, started: 0, updated: 600)]))
            case jobs:
                ok(Payloads.githubJobs([Payloads.githubJob(name: "build", status: "in_progress", steps: Payloads.twelveSteps, done: state.done)]))
            case history:
                ok(Payloads.githubRuns([Payloads.githubRun(id: 400, number: 41, status: "completed", conclusion: "success", started: -3000, updated: -2400),
                                        Payloads.githubRun(id: 399, number: 40, status: "completed", conclusion: "success", started: -5000, updated: -4460)]))
            default: .failure(.other(host: "api.github.com", detail: "unexpected \(request.url)"))
            }
        }
        var follower = try follower()
        var step = server.look(&follower, at: at(0))
        #expect(step.jobRequests == [.begin(job: "acme/widgets/500", BeginOptions(label: "CI #42", name: "github/acme/widgets/CI/main", follow: 15, queued: true, expected: 570))])
        #expect(server.log.first?.headers.contains("Authorization: Bearer t0ken") == true)
        #expect(follower.nextLookAt == 15, "a queued run is followed at the running interval")

        state.status = "in_progress"
        state.done = 4
        step = server.look(&follower, at: at(15))
        #expect(step.jobRequests == [.update(job: "acme/widgets/500", value: 4.0 / 12, total: 1, label: "build: Run tests (5/12)", eta: 555)])

        step = server.look(&follower, at: at(30))
        #expect(step.jobRequests == [.alive(job: "acme/widgets/500")], "nothing moved: a look says it is alive")

        state.done = 5
        step = server.look(&follower, at: at(45))
        #expect(step.jobRequests == [.update(job: "acme/widgets/500", value: 5.0 / 12, total: 1, label: "build: Build docs (6/12)", eta: 525)])

        state = ("completed", 12, "failure")
        step = server.look(&follower, at: at(60))
        #expect(step.jobRequests == [.label(job: "acme/widgets/500", label: "CI #42"), .finish(job: "acme/widgets/500", outcome: .failed)], "the run's title with its result")
        #expect(follower.nextLookAt == 120, "idle again: the idle interval")
        #expect(server.log.filter { $0.url == history }.count == 1, "the history is read once")
    }

    /// A run already running when the follower starts: begun with its elapsed time by the
    /// server's clock; a re-run is a new job; a run that vanishes unfinished ends as unknown.
    @Test func lateReRunAndVanished() throws {
        var runs = [Payloads.githubRun(id: 500, number: 42, status: "in_progress", started: -300)]
        let server = CannedServer { [list] request in
            if request.url == list { return ok(Payloads.githubRuns(runs)) }
            if request.url.contains("/jobs") { return ok(Payloads.githubJobs([])) }
            if request.url.contains("status=success") { return ok(Payloads.githubRuns([])) }
            return .success(HTTPResponse(status: 404))
        }
        var follower = try follower()
        #expect(server.look(&follower, at: at(0)).jobRequests == [.begin(job: "acme/widgets/500", BeginOptions(label: "CI #42", name: "github/acme/widgets/CI/main", follow: 15, elapsed: 300))])
        runs = [Payloads.githubRun(id: 500, number: 42, status: "queued", attempt: 2)]
        let rerun = server.look(&follower, at: at(15)).jobRequests
        #expect(rerun.contains(.finish(job: "acme/widgets/500", outcome: .ended)))
        #expect(rerun.contains { if case .begin(let job, let options) = $0 { job == "acme/widgets/500-2" && options.queued } else { false } })
        runs = []
        #expect(server.look(&follower, at: at(30)).jobRequests == [.finish(job: "acme/widgets/500-2", outcome: .cancelled)], "deleted while queued")
    }

    /// Unchanged answers come back 304 to the ETag sent: the body kept is read again.
    @Test func conditionalRequests() throws {
        let body = Payloads.githubRuns([Payloads.githubRun(id: 500, number: 42, status: "queued")])
        let server = CannedServer { request in
            if request.headers.contains("If-None-Match: \"v1\"") { return .success(HTTPResponse(status: 304, headers: HTTPHeaders([("ETag", "\"v1\"")]))) }
            return ok(request.url.contains("status=success") ? Payloads.githubRuns([]) : body, [("ETag", "\"v1\"")])
        }
        var follower = try follower()
        _ = server.look(&follower, at: at(0))
        let second = server.look(&follower, at: at(15))
        #expect(second.jobRequests == [.alive(job: "acme/widgets/500")])
        #expect(follower.notModified == 1)
        #expect(server.log.last?.headers.contains("If-None-Match: \"v1\"") == true)
    }

    /// The look interval promised to the service is the pause the rate limit leaves, measured on
    /// the server's clock.
    @Test func theFollowIntervalWithinTheRateLimit() throws {
        var remaining = 4000
        let server = CannedServer { request in
            remaining -= 1
            return ok(request.url.contains("status=success") ? Payloads.githubRuns([]) : Payloads.githubRuns([Payloads.githubRun(id: 500, number: 42, status: "queued")]),
                      [("x-ratelimit-remaining", "\(remaining)"), ("x-ratelimit-reset", "\(Int(Payloads.base) + 3600)"), ("Date", "Thu, 26 Nov 2026 09:00:00 GMT")])
        }
        var follower = try follower()
        guard case .begin(_, let options)? = server.look(&follower, at: at(0)).jobRequests.first else { Issue.record("no begin"); return }
        #expect(options.follow == 15)
        remaining = 100
        _ = server.look(&follower, at: at(15))
        // About 99 left for 3600 s, half of them kept for the token's other uses: a look of 2 every 73 s.
        #expect((72...74).contains(follower.nextLookAt - 15), "\(follower.nextLookAt)")
        #expect((72...74).contains(follower.followInterval))
    }

    /// A 403 with no requests left waits for the reset, at most the back-off's 10 minutes; the jobs
    /// are stale meanwhile, told once.
    @Test func rateLimitWaitsForTheReset() throws {
        var limited = false
        let server = CannedServer { request in
            if limited {
                return .success(HTTPResponse(status: 403, headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "\(Int(Payloads.base) + 900)"),
                                                                                ("Date", "Thu, 26 Nov 2026 09:00:30 GMT")])))
            }
            return ok(request.url.contains("status=success") ? Payloads.githubRuns([]) : Payloads.githubRuns([Payloads.githubRun(id: 500, number: 42, status: "queued")]))
        }
        var follower = try follower()
        _ = server.look(&follower, at: at(0))
        limited = true
        let step = server.look(&follower, at: at(30))
        #expect(step.jobRequests == [.stale(job: "acme/widgets/500")])
        #expect(step.log.count == 1 && step.log[0].contains("rate limiting") && step.log[0].contains("asking again in 10m00s (it asked for 14m30s"), "\(step.log)")
        #expect(follower.nextLookAt == 30 + 600, "not before the reset, or the back-off's limit when that comes first")
        #expect(server.look(&follower, at: at(100)).requests.isEmpty)
    }

    /// Regression: a server that refused connections was logged twice, "after 8 ms" then "after
    /// 0 ms": the follower compared the transport's words. The same failure on the way is one
    /// line, whatever its details; another failure is a line of its own.
    @Test func theSameFailureOnTheWayIsOneLineWhateverItsDetails() throws {
        var failure: HTTPFailure? = .connect(host: "api.github.com", detail: "Failed to connect after 8 ms")
        let server = CannedServer { _ in failure.map { .failure($0) } ?? ok(Payloads.githubRuns([])) }
        var follower = try follower()
        #expect(server.look(&follower, at: at(0)).log.count == 1)
        failure = .connect(host: "api.github.com", detail: "Failed to connect after 0 ms")
        #expect(server.look(&follower, at: at(follower.nextLookAt)).log.isEmpty, "the same failure, other words")
        failure = .timeout(host: "api.github.com", seconds: 10)
        #expect(server.look(&follower, at: at(follower.nextLookAt)).log.count == 1, "another failure")
        failure = nil
        #expect(server.look(&follower, at: at(follower.nextLookAt)).log == ["github acme/widgets: reachable again"])
    }

    /// Retry-After is honoured; a 5xx backs off, doubling; a failure is logged once; recovery is said.
    @Test func backOffAndRetryAfter() throws {
        var status = 200
        let server = CannedServer { request in
            if status == 429 { return .success(HTTPResponse(status: 429, headers: HTTPHeaders([("Retry-After", "120")]))) }
            if status != 200 { return .success(HTTPResponse(status: status)) }
            return ok(Payloads.githubRuns([]))
        }
        var follower = try follower()
        _ = server.look(&follower, at: at(0))
        #expect(follower.nextLookAt == 60)
        status = 502
        #expect(server.look(&follower, at: at(60)).log == ["github acme/widgets: api.github.com answered 502 (a server error; trying again later)"])
        #expect(follower.nextLookAt == 120)
        #expect(server.look(&follower, at: at(120)).log.isEmpty, "the same failure is not logged again")
        #expect(follower.nextLookAt == 240)
        _ = server.look(&follower, at: at(240))
        #expect(follower.nextLookAt == 480)
        status = 429
        _ = server.look(&follower, at: at(480))
        #expect(follower.nextLookAt >= 480 + 120)
        status = 200
        #expect(server.look(&follower, at: at(1500)).log == ["github acme/widgets: reachable again"])
        #expect(follower.nextLookAt == 1560)
    }

    /// Without a token GitHub allows 60 requests an hour: the budget spaces the looks.
    @Test func theBudgetSpacesLooks() throws {
        let server = CannedServer { _ in ok(Payloads.githubRuns([])) }
        var follower = Follower(source: try GitHubSource(repository: "acme/widgets"), policy: SourceSettings(kind: .github(repository: "acme/widgets", workflow: nil, branch: nil)).policy(hasToken: false))
        var moment = 0.0
        var looks = 0
        while moment < 3600 {
            if !server.look(&follower, at: at(moment)).requests.isEmpty { looks += 1 }
            moment = max(moment + 1, follower.nextLookAt)
        }
        #expect(looks <= 50)
        #expect(server.log.allSatisfy { !$0.headers.contains { $0.hasPrefix("Authorization") } })
    }

    /// Errors name the source and the fix; bad JSON and hostile names are handled.
    @Test func errorsAndHostileText() throws {
        var answer: Result<HTTPResponse, HTTPFailure> = .success(HTTPResponse(status: 401))
        let server = CannedServer { _ in answer }
        var follower = try follower()
        #expect(server.look(&follower, at: at(0)).log.first?.contains("refused the token") == true)
        answer = .success(HTTPResponse(status: 404))
        #expect(server.look(&follower, at: at(1000)).log.first?.contains("no such repository") == true)
        answer = ok(Array("{\"workflow_runs\": [".utf8))
        #expect(server.look(&follower, at: at(2000)).log.first?.contains("not the JSON expected") == true)
        answer = .failure(.tls(host: "api.github.com", detail: "certificate verify failed"))
        #expect(server.look(&follower, at: at(3000)).log.first?.contains("TLS with api.github.com failed") == true)
        answer = ok(Payloads.githubRuns([Payloads.githubRun(id: 7, number: 1, status: "queued", name: "\u{1b}[31mred\u{7}\u{200B}")]))
        let step = server.look(&follower, at: at(4000))
        guard case .begin(_, let options)? = step.jobRequests.first else { Issue.record("no begin"); return }
        #expect(options.label == "red #1")
        #expect(throws: SourceError.self) { try GitHubSource(repository: "acme/widgets/../x") }
    }
}
