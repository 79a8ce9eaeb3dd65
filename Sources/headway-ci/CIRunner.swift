import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// headway-ci's one loop: every source's follower is stepped when its time comes or an answer
/// arrives; their GETs go to one libcurl multi handle (no thread per source), their requests to the
/// reporter. SIGTERM or SIGINT: every job followed is told it is stale, and the loop ends.
final class CIRunner {
    private var followers: [Follower]
    private let client: CurlClient
    private let reporter: JobReporter
    private var inFlight: [UInt64: (follower: Int, request: HTTPRequest)] = [:]
    /// Commands sent to servers (a pause from the button), by tag.
    private var commands: [UInt64: (follower: Int, request: HTTPRequest)] = [:]
    private var nextTag: UInt64 = 1
    /// Where each follower's token is read from, so that a token replaced in its file is taken.
    private let tokens: [TokenFile?]
    /// The WebSockets of the sources that say when something changed.
    private let pushes: PushSockets

    init(followers: [Follower], tokens: [TokenFile?], client: CurlClient, reporter: JobReporter) {
        self.followers = followers
        self.tokens = tokens
        self.client = client
        self.reporter = reporter
        pushes = PushSockets(client: client, followers: followers)
    }

    private func newTag() -> UInt64 {
        defer { nextTag += 1 }
        return nextTag
    }

    static func now() -> Moment { Moment(monotonic: MonotonicClock().now, wall: WallClock.now) }

    func run() {
        let signals = SignalPipe([SignalNumber.terminate, SignalNumber.interrupt, SignalNumber.hangUp])
        while true {
            let now = Self.now()
            for index in followers.indices { advance(index, at: now) }
            pushes.connect(followers, at: now.monotonic, tags: newTag)
            let wake = (followers.compactMap(\.wakeAt) + [pushes.wakeAt].compactMap { $0 }).min().map { $0 - Self.now().monotonic } ?? 5
            let link = reporter.prepare()
            let sockets = pushes.descriptors
            let waits = ([signals.readEnd] + link.descriptors).map { (descriptor: $0, send: false) } + sockets.map { ($0.socket, $0.send) }
            let ready = client.poll(timeout: min(max(wake, 0), link.timeout ?? 5, 5), descriptors: waits)
            if ready[0], signals.drain().contains(where: { $0.number == SignalNumber.terminate || $0.number == SignalNumber.interrupt }) {
                pushes.close()
                for index in followers.indices { tell(followers[index].stopping(), from: index) }
                reporter.stop(within: 2)
                return
            }
            for event in reporter.service() { command(event) }
            let readable = zip(sockets, ready.suffix(sockets.count)).filter(\.1).map(\.0.index)
            pushes.serve(readable, followers: &followers, at: Self.now())
            let finished = client.finished { (self.inFlight[$0] ?? self.commands[$0]).map { hostOf($0.request.url) } ?? self.pushes.host(of: $0) ?? "?" }
            for (tag, result, connection) in finished {
                if pushes.owns(tag) {
                    pushes.finished(tag, result, connection, followers: &followers, at: Self.now(), tags: newTag)
                    continue
                }
                if let (index, request) = commands.removeValue(forKey: tag) {
                    if let line = followers[index].commandAnswered(result, for: request) { log(line) }
                    continue
                }
                guard let (index, request) = inFlight.removeValue(forKey: tag) else { continue }
                followers[index].receive(result, for: request, at: Self.now())
                advance(index, at: Self.now())
            }
        }
    }

    /// A person's request about a job (the button's pause, resumption or cancel), carried to the
    /// server of the follower whose job it is.
    private func command(_ event: JobEvent) {
        let kind: JobCommand
        switch event.kind {
        case .paused: kind = .pause
        case .resumed: kind = .resume
        case .cancelRequested: kind = .cancel
        default: return
        }
        let now = Self.now()
        for index in followers.indices {
            guard let request = followers[index].command(kind, job: event.job, at: now) else { continue }
            log("\(followers[index].source.description): \(kind.rawValue) asked for \(event.job) from Headway")
            let tag = nextTag
            nextTag += 1
            if client.get(request, tag: tag) {
                commands[tag] = (index, request)
            } else {
                log("\(followers[index].source.description): libcurl refused the \(kind.rawValue) request")
            }
            return
        }
    }

    /// Steps one follower until it has nothing more to do now.
    private func advance(_ index: Int, at now: Moment) {
        while true {
            let step = followers[index].step(at: now)
            for line in step.log { log(line) }
            // A look that failed may be a token revoked and replaced in its file: read it again.
            if step.lookEnded, followers[index].isFailing, let file = tokens[index], let token = file.read(), token != followers[index].token {
                followers[index].token = token
                log("\(followers[index].source.description): took the new token in \(file.path)")
            }
            tell(step.jobRequests, from: index)
            guard !step.requests.isEmpty else { return }
            var refused = false
            for request in step.requests {
                let tag = nextTag
                nextTag += 1
                if client.get(request, tag: tag) {
                    inFlight[tag] = (index, request)
                } else {
                    followers[index].receive(.failure(.other(host: hostOf(request.url), detail: "libcurl refused the request")), for: request, at: now)
                    refused = true
                }
            }
            if !refused { return }
        }
    }

    private func tell(_ requests: [Request], from index: Int) {
        guard !requests.isEmpty else { return }
        reporter.tell(requests, controlled: followers[index].jobs.controlledJobs)
    }
}
