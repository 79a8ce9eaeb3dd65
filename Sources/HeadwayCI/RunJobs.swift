import HeadwayCore
import HeadwayProtocol

/// Turns what a source saw at each look into the socket protocol's requests (docs/protocol.md):
/// one job per run, begun `follow`ed (the look interval: an `alive` after each look, so a run
/// never reads as stalled and missed looks read as stale), `queued` while it waits, with `elapsed`
/// from the server's start time and `expected` from its history; `update`d with the steps or jobs
/// done of those planned, `label`led with the step it is at, and `finish`ed with the server's
/// result. A run that disappears from the server unfinished ends as `ended` (`cancelled` when it
/// was still queued); when the server cannot be reached, each job is told once that it is `stale`.
///
/// Everything from the server that is shown — ids, titles, step names — has been made safe to
/// show by the source; the job id is checked here by the protocol's own rule.
public struct RunJobs: Sendable {
    /// The start of every job id ("acme/widgets"): the source.
    public let prefix: String
    /// Put before every label ("widgets"), when set.
    public let labelPrefix: String?
    private var told: [String: Told] = [:]

    struct Told: Sendable {
        var job: String
        var queued: Bool
        var label: String
        var done: Double?
        var total: Double?
        var stale = false
    }

    public init(prefix: String, labelPrefix: String? = nil) {
        self.prefix = prefix
        self.labelPrefix = labelPrefix
    }

    /// Jobs told of and not finished.
    public var jobs: [String] { told.values.map(\.job).sorted() }

    /// The job id of a run: `PREFIX/KEY`, made safe and cut from the left to the protocol's limit;
    /// nil when even that may not name a job.
    public func jobID(_ key: String) -> String? {
        var id = DisplayText.sanitised("\(prefix)/\(key)")
        while id.utf8.count > WireProtocol.maxJobBytes { id.removeFirst() }
        return Identifier.problem(id) == nil ? id : nil
    }

    func label(_ run: CIRun) -> String {
        let text = run.step ?? run.title
        let whole = labelPrefix.map { "\($0) \(text)" } ?? text
        return DisplayText.truncated(whole, maxBytes: 200)
    }

    /// What the service is told after a good look. `serverTime` is the server's clock; `follow` the
    /// look interval promised.
    public mutating func look(_ runs: [CIRun], serverTime: Double, follow: Double) -> [Request] {
        var out: [Request] = []
        var seen: Set<String> = []
        let follow = min(max(follow.rounded(.up), 1), 86_400)
        for run in runs {
            guard let job = jobID(run.key), !seen.contains(run.key) else { continue }
            seen.insert(run.key)
            let label = label(run)
            let elapsed = run.startedAt.map { max(0, serverTime - $0) }
            let eta = run.expected.flatMap { expected in elapsed.flatMap { expected - $0 > 1 ? (expected - $0).rounded() : nil } }
            guard var was = told[run.key] else {
                switch run.state {
                case .finished:
                    break
                case .queued:
                    out.append(.begin(job: job, BeginOptions(label: label, name: run.name, follow: follow, queued: true, expected: run.expected)))
                    told[run.key] = Told(job: job, queued: true, label: label)
                case .running:
                    out.append(.begin(job: job, BeginOptions(label: label, name: run.name, follow: follow, elapsed: elapsed.map { min($0, WireProtocol.maxSeconds) }, expected: run.expected)))
                    var now = Told(job: job, queued: false, label: label)
                    if let done = run.done, let total = run.total, total > 0 {
                        out.append(.update(job: job, value: min(done, total), total: total, label: nil, eta: eta))
                        now.done = done
                        now.total = total
                    }
                    told[run.key] = now
                }
                continue
            }
            switch run.state {
            case .finished(let outcome):
                // The step last named is over: the run's own title goes with its result.
                if label != was.label { out.append(.label(job: job, label: label)) }
                out.append(.finish(job: job, outcome: outcome))
                told[run.key] = nil
                continue
            case .queued:
                out.append(label == was.label ? .alive(job: job) : .label(job: job, label: label))
            case .running:
                if let done = run.done, let total = run.total, total > 0 {
                    if was.queued || done != was.done || total != was.total || label != was.label {
                        out.append(.update(job: job, value: min(done, total), total: total, label: label == was.label ? nil : label, eta: eta))
                    } else {
                        out.append(.alive(job: job))
                    }
                    was.done = done
                    was.total = total
                } else if was.queued {
                    out.append(.indeterminate(job: job))
                    if label != was.label { out.append(.label(job: job, label: label)) }
                } else {
                    out.append(label == was.label ? .alive(job: job) : .label(job: job, label: label))
                }
                was.queued = false
            }
            was.label = label
            was.stale = false
            told[run.key] = was
        }
        for (key, was) in told.sorted(by: { $0.key < $1.key }) where !seen.contains(key) {
            out.append(.finish(job: was.job, outcome: was.queued ? .cancelled : .ended))
            told[key] = nil
        }
        return out
    }

    /// The server cannot be reached: each job is told once that it is stale.
    public mutating func unreachable() -> [Request] {
        var out: [Request] = []
        for key in told.keys.sorted() where !told[key]!.stale {
            told[key]!.stale = true
            out.append(.stale(job: told[key]!.job))
        }
        return out
    }

    /// The service no longer knows the jobs (the server could not be reached for longer than it
    /// keeps them): they are begun again at the next look.
    public mutating func forget() { told = [:] }
}
