import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem

/// Reports a Swift program's jobs to a running `headwayd` (or `headway-sim serve`), or over an
/// MQTT broker, with the promises of the `headway` command: a report never blocks or breaks the
/// program's work.
///
/// ```swift
/// let client = HeadwayClient()
/// let job = try await client.begin("backup", label: "Backup", total: 200)
/// try job.update(value: 12)
/// try await job.finish(.succeeded)
/// ```
///
/// - Reports return at once. Each job keeps only its latest state: a report replaces one not yet
///   sent, so any number of reports from any number of tasks costs a bounded amount of memory,
///   and the service always gets the latest. Progress of a job goes out at most 50 times a
///   second; beginnings, labels and the end keep their order.
/// - An absent, stopped or slow service costs a caller that waits for delivery (``begin(_:label:total:unit:name:expected:showsPercent:controls:)``,
///   ``Job/finish(_:)``, ``flush()``) the ``timeout`` once; from then on the service is
///   ``/HeadwayReporting/ConnectionState/unavailable(reason:)``, nothing waits, and reports are kept — not sent —
///   until a reconnection, tried with back-off (0.1 s doubling up to 5 s; a broker 0.5 s up to
///   30 s), is answered.
/// - After a reconnection (the service restarted, say) every running job is begun again with the
///   time it has already run (`elapsed`, so its running time and estimates stay right), its
///   latest label and progress, its subscription and its pause.
/// - A job lives as long as this process: the service watches its process id, and ends the job
///   as failed if the program dies without finishing it.
/// - Bad numbers are refused here with ``/HeadwayCore/ProgressError`` before anything is sent; what the
///   service refuses (another user's job, its job limit) is kept in ``lastRefusal`` and
///   ``Job/refusal``, and never thrown at the program's work.
///
/// These are the rules of the client core every reporter runs (HeadwayReporting's, which the
/// `headway` command and headway-ci run too). One thread of its own does the client's I/O (poll(2) on the connection and a wake-up pipe),
/// so no task of Swift's concurrency pool ever blocks on the socket.
public final class HeadwayClient: Sendable {
    let core: ClientCore
    /// How long a caller waits for the service at most, once.
    public let timeout: Duration
    /// The broker reported to, for a client of one.
    let broker: BrokerSettings?

    /// A client of the local service: the socket at `socket`, else where `headway` would look
    /// (`$HEADWAY_SOCKET`, the system service's socket, the user's). Nothing is sent until the
    /// first job begins.
    public init(socket: String? = nil, timeout: Duration = .milliseconds(200)) {
        self.timeout = timeout
        broker = nil
        let path = socket ?? SocketPath.forClient()
        core = ClientCore(settings: Self.settings(timeout, policy: .socket, place: "the service at \(path)"), overBroker: false)
        let core = self.core
        nonisolated(unsafe) let link = SocketLink(path: path)
        Self.startReporting { core.run(link) }
    }

    /// A client that publishes to an MQTT broker (`mqtt://host[:port]` or `mqtts://…`, docs/mqtt.md)
    /// for the Pis that show its jobs, as `headway --broker` does. `source` is who reports (the
    /// second level of the jobs' topics; default: this machine's name). Credentials come from
    /// `HEADWAY_BROKER_USER` and `HEADWAY_BROKER_PASSWORD_FILE` (or `_PASSWORD`), a CA from
    /// `HEADWAY_BROKER_CA`. Each job holds a connection whose will ends it as failed if this
    /// process (or its machine) dies. ``jobs()`` lists the jobs the broker holds; ``events()``
    /// needs the local service.
    public init(broker: String, source: String? = nil, timeout: Duration = .seconds(1)) throws(ClientError) {
        let settings: BrokerSettings
        do throws(BrokerSettings.Problem) { settings = try BrokerSettings(url: broker) } catch { throw .broker(error.description) }
        let source = source ?? JobPublication.defaultSource
        if let problem = Identifier.problem(source) { throw .broker("source \"\(DisplayText.sanitised(String(source.prefix(60))))\" \(problem)") }
        self.timeout = timeout
        self.broker = settings
        core = ClientCore(settings: Self.settings(timeout, policy: .broker, place: settings.address), overBroker: true)
        let core = self.core
        nonisolated(unsafe) let link = BrokerLink(settings: settings, sessions: .perJob, role: "swift", place: { (source, $0) })
        Self.startReporting { core.run(link) }
    }

    /// Starts the reporting thread: it waits in poll(2), which must never hold up a thread of
    /// Swift's concurrency pool.
    private static func startReporting(_ body: @escaping @Sendable () -> Void) {
        do throws(SystemError) { try Threads.start(body) } catch {
            preconditionFailure("cannot start HeadwayClient's reporting thread (pthread_create: \(error.code))")
        }
    }

    /// The core's settings: progress at most 50 times a second (the fastest output's frame rate),
    /// every job's life this process's.
    private static func settings(_ timeout: Duration, policy: ConnectionPolicy, place: String) -> ReporterCore.Settings {
        ReporterCore.Settings(timeout: max(0.001, timeout.seconds), progressInterval: 0.02, policy: policy, processID: Processes.id, place: place)
    }

    deinit {
        core.act { $0.close(now: core.now, continuation: nil) }
    }

    /// Whether the service answers now.
    public var connection: ConnectionState { core.read(\.core.connection) }

    /// Whether the service answers now (``connection`` is ``/HeadwayReporting/ConnectionState/connected``).
    public var isConnected: Bool { connection == .connected }

    /// The newest request the service refused, of any job.
    public var lastRefusal: Refusal? { core.read(\.core.lastRefusal) }

    /// Begins job `id` (1…128 bytes, no control or invisible characters) and waits until the
    /// service has taken it — at most ``timeout``, and not at all while the service is
    /// unavailable. Beginning an id again begins a new run of it: handles of the old one stop
    /// reporting.
    ///
    /// - Parameters:
    ///   - id: the job's id on the service (the same id begins the job again).
    ///   - label: what the job is, shown beside it.
    ///   - total: the amount of work; without it the job is indeterminate until a report gives one.
    ///   - unit: what the value and total count (``/HeadwayCore/ValueUnit/bytes``, seconds), so that
    ///     people read them in units ("1.2/3.1 GB"); nil for things.
    ///   - name: what runs of the same job share (`"nightly backup"`), so the service learns how
    ///     long it takes and shows later runs that report no progress as an estimate.
    ///   - expected: how long the whole job is expected to take, when the program knows.
    ///   - showsPercent: whether indicators print its percentage.
    ///   - controls: the requests from a button this program honours (``Job/events()``).
    public func begin(
        _ id: String, label: String? = nil, total: Double? = nil, unit: ValueUnit? = nil, name: String? = nil, expected: Duration? = nil,
        showsPercent: Bool = true, controls: JobControls = []
    ) async throws(ClientError) -> Job {
        if let total, !(total.isFinite && total > 0) { throw .invalidProgress(.invalidTotal(total)) }
        let options = BeginOptions(
            label: label, total: total, name: name, showsPercent: showsPercent, expected: try Self.span(expected, "expected"), unit: unit)
        return try await begin(id, options, countdownEnd: nil, controls: controls)
    }

    /// Begins a countdown of `duration` (at most a year), as `headway begin --countdown` does:
    /// determinate progress driven by the clock, which the service ends as succeeded when it
    /// runs out (unless the program finishes it first).
    public func countdown(
        _ id: String, label: String? = nil, duration: Duration, name: String? = nil, showsPercent: Bool = true, controls: JobControls = []
    ) async throws(ClientError) -> Job {
        let seconds = try Self.span(duration, "countdown")!
        let options = BeginOptions(label: label, countdown: seconds, name: name, showsPercent: showsPercent)
        return try await begin(id, options, countdownEnd: core.now + seconds, controls: controls)
    }

    /// A span of time in seconds, checked as the service checks it.
    static func span(_ duration: Duration?, _ what: String) throws(ClientError) -> Double? {
        guard let duration else { return nil }
        let seconds = duration.seconds
        guard seconds > 0, seconds <= WireProtocol.maxSeconds else {
            throw .invalidTimer("\(what) \(DurationText.short(seconds)) must be above 0 and at most a year")
        }
        return seconds
    }

    func begin(_ id: String, _ options: BeginOptions, countdownEnd: Seconds?, controls: JobControls) async throws(ClientError) -> Job {
        if let problem = Identifier.problem(id) { throw .invalidJobID(id, problem: problem) }
        if let name = options.name, let problem = Identifier.problem(name, maxBytes: 2 * WireProtocol.maxJobBytes) {
            throw .invalidJobID(name, problem: "(its name) \(problem)")
        }
        var options = options
        options.label = options.label.map { DisplayText.shortened($0, maxBytes: WireProtocol.maxLabelBytes) }
        let key = core.act { $0.core.begin(id, options: options, countdownEnd: countdownEnd, follows: true, controls: controls, now: core.now) }
        let job = Job(client: self, key: key)
        await waitForDelivery(of: key)
        return job
    }

    /// Waits until what was reported of `key` (or of every job) is acknowledged, within the
    /// timeout, and not at all while the service is unavailable.
    func waitForDelivery(of key: JobKey?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = core.act { $0.wait(for: key, now: core.now, continuation: continuation) }
            if !waiting { continuation.resume() }
        }
    }

    /// Waits until every job's latest report is acknowledged by the service — at most
    /// ``timeout``, and not at all while it is unavailable.
    public func flush() async { await waitForDelivery(of: nil) }

    /// The service's jobs, as `headway status` lists them (the newest 1,000); for a client of a
    /// broker, the jobs it holds as `headway --broker status` lists them (``/HeadwayMQTT/RetainedJobs``).
    ///
    /// - Throws: ``ClientError/unavailable(_:)`` when the service cannot be asked within
    ///   ``timeout``; ``ClientError/broker(_:)`` when the broker cannot.
    public func jobs() async throws(ClientError) -> [ServiceJob] {
        if let broker { return try await retainedJobs(broker).map(ServiceJob.init) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[JobStatus], ClientError>, Never>) in
            if let answer = core.act({ $0.ask(now: core.now, continuation: continuation) }) { continuation.resume(returning: answer) }
        }
        return try result.get().map(ServiceJob.init)
    }

    /// The jobs `broker` holds, read on a thread of its own: the read blocks up to ``timeout``.
    private func retainedJobs(_ broker: BrokerSettings) async throws(ClientError) -> [JobStatus] {
        let seconds = max(0.001, timeout.seconds)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[JobStatus], ClientError>, Never>) in
            do throws(SystemError) {
                try Threads.start {
                    do throws(MQTTSession.Failure) {
                        continuation.resume(returning: .success(try RetainedJobs.read(broker, clientID: JobPublication.clientID("swift-jobs"), within: seconds)))
                    } catch {
                        continuation.resume(returning: .failure(.broker("the broker could not be asked: \(error.description)")))
                    }
                }
            } catch {
                continuation.resume(returning: .failure(.broker("no thread to ask the broker on (pthread_create: \(error.code))")))
            }
        }
        return try result.get()
    }

    /// Every job's events from now on, as `headway watch` prints them: jobs beginning and ending,
    /// pauses, cancel requests. Followed again after a reconnection (events while the service was
    /// away are not known). The stream keeps the newest 256 events its reader has not taken; it
    /// ends when the client does. Over a broker it ends at once.
    public func events() -> AsyncStream<JobEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: JobEvent.self, bufferingPolicy: .bufferingNewest(256))
        guard !core.read({ $0.overBroker }), let ticket = core.act({ $0.watch(continuation, job: nil) }) else {
            continuation.finish()
            return stream
        }
        let core = self.core
        continuation.onTermination = { _ in core.act { $0.unwatch(ticket, job: nil) } }
        return stream
    }

    /// Ends every running job as ``/HeadwayCore/Outcome/ended`` (nobody reports to them any more), sends what
    /// is unsent within ``timeout``, and stops the client's thread. Later reports are refused.
    /// A client that is released closes the same way, without waiting.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            core.act { $0.close(now: core.now, continuation: continuation) }
        }
    }
}


