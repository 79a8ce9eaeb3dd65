import Foundation
@testable import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import Testing

/// Each source's reading of its server's answers (payloads with the reference's field names and
/// formats), and the mapping of runs to the service's requests.
@Suite("Sources and the runs they report")
struct SourceMappingTests {
    /// A token is warned about where it would cross a network in the clear: plain HTTP to another
    /// machine, not to this one's loopback (a Buildbot or a printer on the same Pi).
    @Test(arguments: [
        ("http://127.0.0.1:8010", false), ("http://localhost:8010/", false), ("http://[::1]:7125", false), ("http://user@127.0.0.2/x", false),
        ("https://ci.example.com", false), ("http://ci.example.com:8010", true), ("http://192.168.1.20", true), ("http://127.0.0.1.example.com", true),
        ("HTTP://[fe80::1]:80", true),
    ])
    func aTokenInTheClearIsToldOnlyWhereItCrossesANetwork(url: String, warned: Bool) {
        #expect(SourceSettings(kind: .buildbot(url: url, builder: "b")).tokenCrossesPlainHTTP == warned)
    }

    func at(_ seconds: Double) -> Moment { Moment(monotonic: seconds, wall: Payloads.base + seconds) }

    func json(_ text: String) -> Result<HTTPResponse, HTTPFailure> { ok(Array(text.utf8)) }

    @Test func gitLabPipelinesJobsAndStages() throws {
        var jobs = #"[{"id":1,"name":"compile","stage":"build","status":"running","started_at":"2026-11-26T09:00:05.000Z"},{"id":2,"name":"unit","stage":"test","status":"created"},{"id":3,"name":"deploy","stage":"deploy","status":"manual"}]"#
        var status = "running"
        let server = CannedServer { request in
            if request.url == "https://gitlab.com/api/v4/projects/group%2Fwidgets/pipelines?per_page=10&ref=main" {
                return ok(Array(#"[{"id":88,"iid":3,"status":"\#(status)","ref":"main","created_at":"2026-11-26T09:00:00.000Z"}]"#.utf8))
            }
            if request.url.hasSuffix("/pipelines/88/jobs?per_page=100") { return ok(Array(jobs.utf8)) }
            if request.url == "https://gitlab.com/api/v4/projects/group%2Fwidgets/pipelines?status=success&per_page=3&ref=main" {
                // The ref's last successful pipelines: 5 and 7 minutes from created to their last update.
                return ok(Array(#"[{"id":80,"status":"success","ref":"main","created_at":"2026-11-25T10:00:00.000Z","updated_at":"2026-11-25T10:05:00.000Z"},{"id":79,"status":"success","ref":"main","created_at":"2026-11-25T09:00:00.000Z","updated_at":"2026-11-25T09:07:00.000Z"}]"#.utf8))
            }
            return .success(HTTPResponse(status: 404))
        }
        var follower = Follower(source: try GitLabSource(project: "group/widgets", branch: "main"), policy: PollingPolicy(), token: "glpat")
        let first = server.look(&follower, at: at(65))
        // An estimate from the ref's history beside the jobs done: 6 minutes expected, 1 gone.
        #expect(first.jobRequests == [
            .begin(job: "group/widgets/88", BeginOptions(label: "build: compile (1/2)", name: "gitlab/group/widgets/main", follow: 15, elapsed: 60, expected: 360)),
            .update(job: "group/widgets/88", value: 0, total: 2, label: nil, eta: 300),
        ])
        #expect(server.log.first?.headers.contains("Authorization: Bearer glpat") == true)
        jobs = #"[{"id":1,"name":"compile","stage":"build","status":"success","started_at":"2026-11-26T09:00:05.000Z"},{"id":2,"name":"unit","stage":"test","status":"running","started_at":"2026-11-26T09:02:00.000Z"},{"id":3,"name":"deploy","stage":"deploy","status":"manual"}]"#
        #expect(server.look(&follower, at: at(130)).jobRequests == [.update(job: "group/widgets/88", value: 1, total: 2, label: "test: unit (2/2)", eta: 235)])
        #expect(server.log.filter { $0.url.contains("status=success") }.count == 1, "a ref's history is read once")
        status = "failed"
        #expect(server.look(&follower, at: at(145)).jobRequests == [.label(job: "group/widgets/88", label: "main #88"), .finish(job: "group/widgets/88", outcome: .failed)])
        #expect(GitLabSource.outcome("canceled") == .cancelled && GitLabSource.outcome("manual") == .ended)
    }

    @Test func jenkinsBuildsQueueAndEstimate() throws {
        var body = #"{"displayName":"widgets","fullName":"team/widgets","inQueue":true,"nextBuildNumber":8,"builds":[{"number":7,"building":false,"result":"SUCCESS","timestamp":1795680000000,"estimatedDuration":600000}]}"#
        let server = CannedServer { _ in ok(Array(body.utf8)) }
        var follower = Follower(source: try JenkinsSource(job: "https://ci.example.com/job/team/job/widgets/"), policy: PollingPolicy(), token: "alice:t0k")
        #expect(server.look(&follower, at: at(0)).jobRequests == [.begin(job: "team/widgets/8", BeginOptions(label: "widgets #8", name: "jenkins/team/widgets", follow: 15, queued: true))])
        #expect(server.log.first?.url.hasPrefix("https://ci.example.com/job/team/job/widgets/api/json?tree=") == true)
        #expect(server.log.first?.headers.contains("Authorization: Basic YWxpY2U6dDBr") == true, "alice:t0k in base64")
        body = #"{"displayName":"widgets","fullName":"team/widgets","inQueue":false,"nextBuildNumber":9,"builds":[{"number":8,"building":true,"result":null,"timestamp":1795683540000,"estimatedDuration":600000},{"number":7,"building":false,"result":"SUCCESS","timestamp":1795680000000,"estimatedDuration":600000}]}"#
        #expect(server.look(&follower, at: at(15)).jobRequests == [.indeterminate(job: "team/widgets/8")])
        body = body.replacingOccurrences(of: #""building":true,"result":null"#, with: #""building":false,"result":"UNSTABLE""#)
        #expect(server.look(&follower, at: at(30)).jobRequests == [.finish(job: "team/widgets/8", outcome: .failed)])
        // A build already running when the follower starts: elapsed and Jenkins' estimate.
        var fresh = Follower(source: try JenkinsSource(job: "https://ci.example.com/job/widgets"), policy: PollingPolicy())
        body = #"{"displayName":"w","builds":[{"number":3,"building":true,"timestamp":1795683300000,"estimatedDuration":900000}]}"#
        #expect(server.look(&fresh, at: at(0)).jobRequests == [.begin(job: "widgets/3", BeginOptions(label: "w #3", name: "jenkins/widgets", follow: 15, elapsed: 300, expected: 900))])
    }

    @Test func ccTrayProjectsBuildingThenTheirStatus() throws {
        var activity = "Building", status = "Success"
        let server = CannedServer { _ in
            ok(Array(#"<Projects><Project name="widgets" activity="\#(activity)" lastBuildStatus="\#(status)" lastBuildTime="2026-11-26T08:00:00Z" webUrl="x"/><Project name="other" activity="Building" lastBuildStatus="Success" lastBuildTime="2026-11-26T08:00:00Z" webUrl="x"/></Projects>"#.utf8))
        }
        var follower = Follower(source: try CCTraySource(url: "https://ci.example.com/cc.xml?access_token=secret", projects: ["widgets"]), policy: PollingPolicy())
        #expect(server.look(&follower, at: at(0)).jobRequests == [.begin(job: "ci.example.com/widgets", BeginOptions(label: "widgets", name: "cctray/ci.example.com/widgets", follow: 15))])
        (activity, status) = ("Sleeping", "Exception")
        #expect(server.look(&follower, at: at(15)).jobRequests == [.finish(job: "ci.example.com/widgets", outcome: .failed)])
        // The feed's token in its address never reaches a message.
        let broken = CannedServer { _ in .success(HTTPResponse(status: 500)) }
        let log = broken.look(&follower, at: at(1000)).log
        #expect(log.count == 1 && !log[0].contains("secret"), "\(log)")
    }

    @Test func buildbotRequestsBuildsAndSteps() throws {
        let root = "http://bb.example.com:8010/api/v2"
        var builds = #"{"builds":[{"buildid":11,"number":5,"buildrequestid":20,"complete":true,"results":0,"started_at":1795683000}]}"#
        var steps11 = #"{"steps":[{"name":"worker_preparation","number":0,"complete":true},{"name":"compile","number":1,"complete":true},{"name":"test","number":2,"complete":true}]}"#
        var waiting = #"{"buildrequests":[{"buildrequestid":21}]}"#
        let server = CannedServer { request in
            switch request.url {
            case "\(root)/builders?name=runtests": ok(Array(#"{"builders":[{"builderid":1,"name":"runtests"}]}"#.utf8))
            case "\(root)/builders/1/builds?order=-number&limit=5": ok(Array(builds.utf8))
            case "\(root)/buildrequests?builderid=1&claimed=false&complete=false": ok(Array(waiting.utf8))
            case "\(root)/builds/11/steps": ok(Array(steps11.utf8))
            case "\(root)/builds/12/steps": ok(Array(#"{"steps":[{"name":"worker_preparation","number":0,"complete":true},{"name":"compile","number":1,"complete":false}]}"#.utf8))
            default: .failure(.other(host: "bb", detail: request.url))
            }
        }
        var follower = Follower(source: try BuildbotSource(url: "http://bb.example.com:8010/", builder: "runtests"), policy: PollingPolicy())
        #expect(server.look(&follower, at: at(0)).jobRequests == [.begin(job: "runtests/21", BeginOptions(label: "runtests (request 21)", name: "buildbot/runtests", follow: 15, queued: true))])
        builds = #"{"builds":[{"buildid":12,"number":6,"buildrequestid":21,"complete":false,"results":null,"started_at":1795683590},{"buildid":11,"number":5,"buildrequestid":20,"complete":true,"results":0,"started_at":1795683000}]}"#
        waiting = #"{"buildrequests":[]}"#
        #expect(server.look(&follower, at: at(15)).jobRequests == [.update(job: "runtests/21", value: 1, total: 3, label: "runtests: compile (2/3)")])
        // Killed mid-build: retried (results 5) as a new build of the same request, the same job.
        builds = #"{"builds":[{"buildid":12,"number":6,"buildrequestid":21,"complete":true,"results":5}]}"#
        waiting = #"{"buildrequests":[{"buildrequestid":21}]}"#
        #expect(server.look(&follower, at: at(30)).jobRequests == [.label(job: "runtests/21", label: "runtests (request 21)")])
        builds = #"{"builds":[{"buildid":13,"number":7,"buildrequestid":21,"complete":true,"results":2},{"buildid":12,"number":6,"buildrequestid":21,"complete":true,"results":5}]}"#
        waiting = #"{"buildrequests":[]}"#
        steps11 = ""
        #expect(server.look(&follower, at: at(45)).jobRequests == [.label(job: "runtests/21", label: "runtests #7"), .finish(job: "runtests/21", outcome: .failed)])
    }

    @Test func runsToRequests() {
        var jobs = RunJobs(prefix: "acme/widgets", labelPrefix: "widgets")
        let queued = CIRun(key: "1", title: "CI #1", state: .queued)
        #expect(jobs.look([queued], serverTime: 100, follow: 14.2) == [.begin(job: "acme/widgets/1", BeginOptions(label: "widgets CI #1", follow: 15, queued: true))])
        #expect(jobs.unreachable() == [.stale(job: "acme/widgets/1")])
        #expect(jobs.unreachable().isEmpty, "told once")
        #expect(jobs.look([queued], serverTime: 115, follow: 15) == [.alive(job: "acme/widgets/1")])
        var running = CIRun(key: "1", title: "CI #1", state: .running, startedAt: 110)
        #expect(jobs.look([running], serverTime: 130, follow: 15) == [.indeterminate(job: "acme/widgets/1")])
        running.step = "build: Test (2/3)"
        #expect(jobs.look([running], serverTime: 145, follow: 15) == [.label(job: "acme/widgets/1", label: "widgets build: Test (2/3)")])
        #expect(jobs.look([], serverTime: 160, follow: 15) == [.finish(job: "acme/widgets/1", outcome: .ended)], "gone while running")
        // Hostile ids: a stable form within the protocol's limit, the source's prefix kept.
        let long = CIRun(key: String(repeating: "x", count: 300), title: "t", state: .running)
        guard case .begin(let job, _)? = jobs.look([long], serverTime: 0, follow: 15).first else { Issue.record("no begin"); return }
        #expect(job.utf8.count <= WireProtocol.maxJobBytes && Identifier.problem(job) == nil)
        #expect(job.hasPrefix("acme/widgets/xxx"))
        #expect(jobs.jobID("\u{1b}[2J")?.hasPrefix("acme/widgets/~") == true)
    }

    @Test func theConfigurationFile() throws {
        let file = try CIConfiguration.read("""
            interval: 20
            ca-file: /etc/headway/ci-ca.pem
            sources:
              - github: acme/widgets
                workflow: ci.yml
                branch: main
                label: widgets
                credential: github-token
              - buildbot: http://127.0.0.1:8010/
                builder: runtests
                idle-interval: 120
            """)
        #expect(file.caFile == "/etc/headway/ci-ca.pem")
        #expect(file.sources.map(\.kind) == [.github(repository: "acme/widgets", workflow: "ci.yml", branch: "main"), .buildbot(url: "http://127.0.0.1:8010/", builder: "runtests")])
        #expect(file.sources[0].policy(hasToken: true) == PollingPolicy(running: 20, idle: 60, budget: 1000))
        #expect(file.sources[1].policy(hasToken: false) == PollingPolicy(running: 20, idle: 120, budget: 3600))
        let refusals: [(String, String)] = [
            ("sources:\n  - github: acme\n", "line 2: github: \"acme\" is not OWNER/REPO"),
            ("sources:\n  - gitlab: g/p\n    workflow: x\n", "line 3: workflow: is for github sources"),
            ("sources:\n  - jenkins: https://ci/job/w\n    intervall: 5\n", "line 3: \"intervall\" is not a setting in a source"),
            ("sources:\n  - github: a/b\n    interval: 0\n", "line 3: interval: must be a number from 1 to 3600"),
            ("sources:\n  - buildbot: http://x/\n", "line 2: a buildbot source needs builder: NAME"),
            ("sources: []\n", "sources: must be a list of one or more sources"),
            ("interval: 5\n", "no sources"),
            ("sources:\n  - github: a/b\n    api: ftp://x\n", "api: must start with https://"),
        ]
        for (text, message) in refusals {
            #expect(throws: CIConfiguration.Problem.self, "\(text)") { try CIConfiguration.read(text) }
            do { _ = try CIConfiguration.read(text) } catch { #expect(error.description.contains(message), "\(error.description)") }
        }
    }

    @Test func rateLimitHeaders() {
        let github = RateLimit(headers: HTTPHeaders([("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1000")]), wall: 400)
        #expect(github == RateLimit(remaining: 0, resetAt: 1000) && github!.refuses(status: 403) && !github!.refuses(status: 404))
        let gitlab = RateLimit(headers: HTTPHeaders([("RateLimit-Remaining", "10"), ("RateLimit-Reset", "460"), ("Retry-After", "30")]), wall: 400)
        #expect(gitlab == RateLimit(remaining: 10, resetAt: 460, retryAt: 430))
        #expect(RateLimit(headers: HTTPHeaders([("Retry-After", "Thu, 26 Nov 2026 09:10:00 GMT")]), wall: 0)?.retryAt == Payloads.base + 600)
        #expect(RateLimit(headers: HTTPHeaders([("Retry-After", "soon")]), wall: 0) == nil, "nonsense is ignored")
        #expect(RateLimit(headers: HTTPHeaders(), wall: 0) == nil)
        // Half of what is left stays for the token's other uses.
        let policy = PollingPolicy(running: 15, idle: 60, budget: 5000)
        #expect(policy.delay(requests: 2, busy: true, failures: 0, limit: RateLimit(remaining: 40, resetAt: 3600), wall: 0) == 360)
    }
}
