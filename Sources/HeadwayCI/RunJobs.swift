import HeadwayCore
import HeadwayProtocol

/// Turns what a source saw at each look into the socket protocol's requests (docs/protocol.md):
/// one job per run, begun `follow`ed (the look interval: an `alive` after each look, so a run
/// never reads as stalled and missed looks read as stale), `queued` while it waits, with `elapsed`
/// from the server's start time and `expected` from its history; `update`d with the steps or jobs
/// done of those planned, `label`led with the step it is at, and `finish`ed with the server's
/// result. A run that disappears from the server unfinished ends as `ended` (`cancelled` when it
/// was still queued); when the server cannot be reached, each job is told once that it is `stale`.
/// A run whose server takes commands (a print) is paused and resumed as the server shows it, and
/// its job is begun taking the button's requests (``controlledJobs``, ``command(for:job:)``).
///
/// Everything from the server that is shown — titles, step names — has been made safe to show by
/// the source; ids and names are made to fit the protocol's own rule here, stably, so that a
/// branch with an invisible character or of 250 characters is shown (its original in the label).
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
        var paused = false
        var controllable = false
        /// A pause or resumption asked through Headway and sent to the server: the looks left for
        /// the server to show it before the service is told what the server really does.
        var asked: (paused: Bool, looksLeft: Int)?
    }

    /// Looks a server has to show a pause or resumption asked of it, before the job is shown as
    /// the server has it again (a printer that refused the pause goes on printing, and says so).
    static let commandLooks = 5

    public init(prefix: String, labelPrefix: String? = nil) {
        self.prefix = prefix
        self.labelPrefix = labelPrefix
    }

    /// Jobs told of and not finished.
    public var jobs: [String] { told.values.map(\.job).sorted() }

    /// Jobs told of whose server takes pause, resume and cancel: they are begun with those
    /// controls, so that the button's requests come to the follower.
    public var controlledJobs: Set<String> { Set(told.values.filter(\.controllable).map(\.job)) }

    /// What the server must be asked after the service's `event` about `job`: nil when the event
    /// is no request, the job is not one of these, or the server already does what it asks (the
    /// pause the follower itself told the service of).
    public mutating func command(for kind: JobCommand, job: String) -> (key: String, command: JobCommand)? {
        guard let key = told.first(where: { $0.value.job == job })?.key, var was = told[key], was.controllable else { return nil }
        switch kind {
        case .pause, .resume:
            let pause = kind == .pause
            guard was.paused != pause || (was.asked.map { $0.paused != pause } ?? false) else { return nil }
            was.asked = (pause, Self.commandLooks)
            was.paused = pause
            told[key] = was
            return (key, kind)
        case .cancel:
            return (key, .cancel)
        }
    }

    /// The job id of a run: `PREFIX/KEY`, or when the server's key makes it one the service would
    /// refuse (an invisible character, too long) a stable form of it (``Identifier/fitted(_:maxBytes:)``).
    public func jobID(_ key: String) -> String? { Identifier.fitted("\(prefix)/\(key)") }

    /// The name runs of one kind share (workflow and branch), as the service takes it.
    static func name(_ run: CIRun) -> String? { run.name.flatMap { Identifier.fitted($0, maxBytes: WireProtocol.maxNameBytes) } }

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
            // A server's estimate past what the service takes (Jenkins' for a job that once hung)
            // is cut to it, as the running time is.
            var run = run
            run.expected = run.expected.map { min($0, WireProtocol.maxSeconds) }
            let figured = run.expected.flatMap { expected in elapsed.flatMap { expected - $0 > 1 ? (expected - $0).rounded() : nil } }
            let eta = run.remaining.map { min(max(0, $0.rounded()), WireProtocol.maxSeconds) } ?? figured
            guard var was = told[run.key] else {
                switch run.state {
                case .finished:
                    break
                case .queued:
                    out.append(.begin(job: job, BeginOptions(label: label, name: Self.name(run), follow: follow, queued: true, expected: run.expected)))
                    told[run.key] = Told(job: job, queued: true, label: label, controllable: run.controllable)
                case .running:
                    out.append(.begin(job: job, BeginOptions(label: label, name: Self.name(run), follow: follow, elapsed: elapsed.map { min($0, WireProtocol.maxSeconds) }, expected: run.expected)))
                    var now = Told(job: job, queued: false, label: label, controllable: run.controllable)
                    if let done = run.done, let total = run.total, total > 0 {
                        out.append(.update(job: job, value: min(done, total), total: total, label: nil, eta: eta))
                        now.done = done
                        now.total = total
                    }
                    if run.paused, run.controllable {
                        out.append(.pause(job: job))
                        now.paused = true
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
                if was.controllable { out += pausing(run, &was) }
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

    /// The service is told of a pause or resumption at the server, unless one asked through
    /// Headway is still on its way there.
    private func pausing(_ run: CIRun, _ was: inout Told) -> [Request] {
        if let asked = was.asked {
            if asked.paused == run.paused || asked.looksLeft <= 1 {
                was.asked = nil
            } else {
                was.asked = (asked.paused, asked.looksLeft - 1)
                return []
            }
        }
        guard run.paused != was.paused else { return [] }
        was.paused = run.paused
        return [run.paused ? .pause(job: was.job) : .resume(job: was.job)]
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
