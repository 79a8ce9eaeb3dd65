import HeadwayCI
import HeadwayCore
import HeadwayProtocol

/// `headway-bench ci`: the requests headway-ci sends each source in an hour at its default pacing,
/// while nothing runs and while one run goes on the whole hour, played on a simulated clock with the
/// follower's own code against answers shaped as each server's (the same bodies every time, with an
/// ETag where the server gives one, so the 304s are counted too).
enum CIRequests {
    struct Server {
        var name: String
        var settings: SourceSettings
        var token: Bool
        var etag: Bool
        var idle: (String) -> String
        var running: (String) -> String
    }

    static let now = "2026-11-26T09:00:00Z"
    static let githubRun = #"{"id":1,"name":"CI","run_number":1,"run_attempt":1,"status":"in_progress","workflow_id":2,"head_branch":"main","run_started_at":"\#(now)","updated_at":"\#(now)"}"#
    static let githubJobs = #"{"jobs":[{"name":"build","status":"in_progress","started_at":"\#(now)","steps":[{"name":"a","number":1,"status":"completed"},{"name":"b","number":2,"status":"in_progress"}]}]}"#

    static func github(_ url: String, running: Bool) -> String {
        if url.contains("/jobs") { return githubJobs }
        if url.contains("status=success") || !running { return #"{"workflow_runs":[]}"# }
        return #"{"workflow_runs":[\#(githubRun)]}"#
    }

    static var servers: [Server] { [
        Server(name: "GitHub, token", settings: SourceSettings(kind: .github(repository: "acme/widgets", workflow: nil, branch: nil)), token: true, etag: true,
               idle: { github($0, running: false) }, running: { github($0, running: true) }),
        Server(name: "GitHub, no token", settings: SourceSettings(kind: .github(repository: "acme/widgets", workflow: nil, branch: nil)), token: false, etag: true,
               idle: { github($0, running: false) }, running: { github($0, running: true) }),
        Server(name: "GitLab", settings: SourceSettings(kind: .gitlab(project: "group/widgets", branch: nil)), token: true, etag: true,
               idle: { _ in "[]" },
               running: { $0.contains("/jobs") ? #"[{"name":"unit","stage":"test","status":"running","started_at":"\#(now)"}]"# : #"[{"id":5,"status":"running","ref":"main"}]"# }),
        Server(name: "Jenkins", settings: SourceSettings(kind: .jenkins(job: "https://ci.example.com/job/widgets")), token: true, etag: false,
               idle: { _ in #"{"displayName":"w","builds":[]}"# },
               running: { _ in #"{"displayName":"w","builds":[{"number":3,"building":true,"timestamp":1795683600000,"estimatedDuration":600000}]}"# }),
        Server(name: "cctray", settings: SourceSettings(kind: .cctray(url: "https://ci.example.com/cc.xml", projects: [])), token: false, etag: false,
               idle: { _ in #"<Projects><Project name="w" activity="Sleeping" lastBuildStatus="Success"/></Projects>"# },
               running: { _ in #"<Projects><Project name="w" activity="Building" lastBuildStatus="Success"/></Projects>"# }),
        Server(name: "Buildbot", settings: SourceSettings(kind: .buildbot(url: "http://bb.example.com:8010/", builder: "runtests")), token: false, etag: false,
               idle: { url in url.contains("/builders?") ? #"{"builders":[{"builderid":1}]}"# : url.contains("buildrequests") ? #"{"buildrequests":[]}"# : #"{"builds":[]}"# },
               running: { url in
                   if url.contains("/builders?") { return #"{"builders":[{"builderid":1}]}"# }
                   if url.contains("buildrequests") { return #"{"buildrequests":[]}"# }
                   if url.hasSuffix("/steps") { return #"{"steps":[{"name":"compile","complete":false}]}"# }
                   return #"{"builds":[{"buildid":9,"number":9,"buildrequestid":9,"complete":false,"started_at":1795683600}]}"#
               }),
    ] }

    /// Requests sent in one simulated hour, and how many of them were answered 304.
    static func hour(_ server: Server, running: Bool) throws -> (sent: Int, notModified: Int) {
        var follower = Follower(source: try server.settings.makeSource(), policy: server.settings.policy(hasToken: server.token), token: server.token ? "t" : nil)
        var clock = 0.0
        let start = 1_795_683_600.0
        while clock < 3600 {
            let moment = Moment(monotonic: clock, wall: start + clock)
            var step = follower.step(at: moment)
            while !step.requests.isEmpty {
                for request in step.requests {
                    let body = Array((running ? server.running : server.idle)(request.url).utf8)
                    let etag = "\"\(body.count)-\(body.reduce(0) { ($0 &* 31) &+ Int($1) })\""
                    let response = server.etag && request.headers.contains("If-None-Match: \(etag)")
                        ? HTTPResponse(status: 304, headers: HTTPHeaders([("ETag", etag)]))
                        : HTTPResponse(status: 200, headers: HTTPHeaders(server.etag ? [("ETag", etag)] : []), body: body)
                    follower.receive(.success(response), for: request, at: moment)
                }
                step = follower.step(at: moment)
            }
            clock = max(clock + 0.001, follower.nextLookAt)
        }
        return (follower.sent, follower.notModified)
    }

    static func report() throws {
        print("headway-ci: requests an hour per source at the default pacing (304s among them)")
        for server in servers {
            let idle = try hour(server, running: false)
            let busy = try hour(server, running: true)
            let policy = server.settings.policy(hasToken: server.token)
            print("  \(server.name) (every \(NumberText.compact(policy.running)) s running, \(NumberText.compact(policy.idle)) s idle, budget \(NumberText.compact(policy.budget))): idle \(idle.sent) (\(idle.notModified) 304), one run going on \(busy.sent) (\(busy.notModified) 304)")
        }
    }
}
