@testable import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import Testing

/// What a server says is made to fit the service: names and ids it would refuse get a stable,
/// safe form, an estimate past a year is cut, and a server's wish to be left alone is held to the
/// back-off's limit.
@Suite("Server text and waits within bounds")
struct ServerTextBoundsTests {
    func at(_ seconds: Double) -> Moment { Moment(monotonic: seconds, wall: Payloads.base + seconds) }

    func follower() throws -> Follower {
        Follower(source: try GitHubSource(repository: "acme/widgets"), policy: PollingPolicy(running: 15, idle: 60, budget: 1000), token: "t0ken")
    }

    /// Regression: a run whose branch had a zero-width space, or a 234-character renovate branch,
    /// was begun with a `name` the service refuses, so it was never shown.
    @Test func branchesTheServiceWouldRefuseAreShownUnderAStableName() throws {
        let renovate = "renovate/" + String(repeating: "major-upgrade-of-a-dependency-", count: 7) + "v2"
        for branch in ["main\u{200B}", renovate, "feat/\u{1B}]0;pwned\u{07}"] {
            let server = CannedServer { request in
                ok(request.url.contains("/jobs") || request.url.contains("status=success")
                    ? Payloads.githubRuns([]) : Payloads.githubRuns([Payloads.githubRun(id: 500, number: 42, status: "in_progress", branch: branch)]))
            }
            var follower = try follower()
            let step = server.look(&follower, at: at(0))
            guard case .begin(let job, let options)? = step.jobRequests.first else {
                Issue.record("no begin for \(branch.debugDescription): \(step.jobRequests)")
                continue
            }
            #expect(Identifier.problem(job) == nil)
            let name = try #require(options.name)
            #expect(Identifier.problem(name, maxBytes: WireProtocol.maxNameBytes) == nil, "\(name.debugDescription)")
            #expect(try Request.parse(step.jobRequests[0].line) == step.jobRequests[0], "the service takes it")
            // The same branch gives the same name at every look and after a restart: its durations are learned.
            var again = try self.follower()
            guard case .begin(_, let second)? = server.look(&again, at: at(0)).jobRequests.first else { continue }
            #expect(second.name == name)
        }
        // Branches that read alike stay apart.
        #expect(Identifier.fitted("github/a/b/CI/main\u{200B}", maxBytes: 256) != Identifier.fitted("github/a/b/CI/main", maxBytes: 256))
        #expect(Identifier.fitted(String(repeating: "x", count: 300) + "1", maxBytes: 256) != Identifier.fitted(String(repeating: "x", count: 300) + "2", maxBytes: 256))
        #expect(Identifier.fitted("github/a/b/CI/main", maxBytes: 256) == "github/a/b/CI/main", "a name that fits is itself")
    }

    /// Regression: a cctray project whose name could not be a job id was dropped silently.
    @Test func idsTheServiceWouldRefuseGetAStableForm() {
        let jobs = RunJobs(prefix: "ci.example.com")
        let long = String(repeating: "a-very-long-project-name-", count: 8)
        let ids = [jobs.jobID(long), jobs.jobID("release\u{200B}"), jobs.jobID("release"), jobs.jobID(long + "2")]
        #expect(ids.allSatisfy { $0.map { Identifier.problem($0) == nil } ?? false }, "\(ids)")
        #expect(Set(ids.compactMap { $0 }).count == 4, "texts that differ stay apart")
        #expect(ids.allSatisfy { $0?.hasPrefix("ci.example.com/") == true }, "the source's prefix stays: a broker maps the job by it")
    }

    /// Regression: Jenkins' estimatedDuration of a job that once hung (years) was sent as is, and
    /// the begin refused.
    @Test func anEstimatePastAYearIsCut() throws {
        var jobs = RunJobs(prefix: "jenkins/widgets")
        let run = CIRun(key: "8", title: "widgets #8", state: .running, startedAt: Payloads.base - 60, expected: 3 * 366 * 86_400, name: "jenkins/widgets")
        let requests = jobs.look([run], serverTime: Payloads.base, follow: 10)
        guard case .begin(_, let options)? = requests.first else { return #expect(Bool(false), "\(requests)") }
        #expect(options.expected == WireProtocol.maxSeconds)
        #expect(try Request.parse(requests[0].line) == requests[0])
    }

    /// Regression: Retry-After as an HTTP date, or x-ratelimit-reset, years ahead parked a source
    /// for ever ("asking again in >9999d"). Every wait is held to the back-off's limit, and the
    /// log says when the source is asked again.
    @Test func aServersWaitIsHeldToTheBackOffsLimit() throws {
        for headers in [[("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")], [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "253402300799")]] {
            var limited = false
            let server = CannedServer { request in
                if limited { return .success(HTTPResponse(status: 429, headers: HTTPHeaders(headers + [("Date", "Thu, 26 Nov 2026 09:00:30 GMT")]))) }
                return ok(Payloads.githubRuns([]))
            }
            var follower = try follower()
            _ = server.look(&follower, at: at(0))
            limited = true
            let step = server.look(&follower, at: at(60))
            #expect(follower.nextLookAt <= 60 + follower.policy.maxBackoff, "\(follower.nextLookAt)")
            #expect(step.log.count == 1 && step.log[0].contains("asking again in 10m") && step.log[0].contains("more than a year"), "\(step.log)")
            // Asked again when the back-off's limit is up, not in years.
            limited = false
            #expect(!server.look(&follower, at: at(60 + follower.policy.maxBackoff)).requests.isEmpty)
        }
        let policy = PollingPolicy()
        #expect(policy.delay(requests: 1, busy: true, failures: 0, limit: RateLimit(retryAt: 1e12), wall: 0) == policy.maxBackoff)
        #expect(policy.delay(requests: 1, busy: true, failures: 0, limit: RateLimit(remaining: 0, resetAt: 1e12), wall: 0) == policy.maxBackoff)
        #expect(policy.delay(requests: 1, busy: true, failures: 0, limit: RateLimit(retryAt: 120), wall: 0) == 120, "a shorter wait is kept")
    }
}

/// One limiter of repeated log lines for every program.
@Suite("Repeated log lines")
struct LogLimiterTests {
    @Test func aKindIsWrittenThenHeldToItsInterval() {
        var limiter = LogLimiter(interval: 60, capacity: 4)
        #expect(limiter.admit("refused x", kind: "x", at: 0) == "refused x")
        #expect(limiter.admit("refused x", kind: "x", at: 1) == nil)
        #expect(limiter.admit("refused x", kind: "x", at: 2) == nil)
        #expect(limiter.admit("refused y", kind: "y", at: 3) == "refused y", "other kinds are not held back")
        #expect(limiter.admit("refused x", kind: "x", at: 61) == "refused x (2 more like it in the last 1m01s)")
        #expect(limiter.admit("refused x", kind: "x", at: 200) == "refused x")
        var once = LogLimiter(interval: nil)
        #expect(once.admit("a", kind: "a", at: 0) == "a")
        #expect(once.admit("a", kind: "a", at: 1e9) == nil)
    }

    @Test func itRemembersABoundedNumberOfKinds() {
        var limiter = LogLimiter(interval: nil, capacity: 100)
        for index in 0..<10_000 { _ = limiter.admit("job \(index)", kind: "\(index)", at: Double(index)) }
        #expect(limiter.count == 100)
        #expect(limiter.remembers("9999") && !limiter.remembers("0"), "the kind written longest ago goes first")
    }
}
