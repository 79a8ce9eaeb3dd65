import HeadwayCore
import HeadwayProtocol
import HeadwayReporting

/// A job begun by a ``HeadwayClient``: the handle a program reports through. A value — copy it
/// into any task; every copy reports to the same job.
///
/// Reports return at once (nothing waits for the service) and throw only for numbers the
/// service would refuse, or when the job is over. ``finish(_:)`` waits until the end is
/// delivered, within the client's timeout, so a program may exit right after it.
public struct Job: Sendable, Hashable {
    let client: HeadwayClient
    let key: JobKey

    init(client: HeadwayClient, key: JobKey) {
        self.client = client
        self.key = key
    }

    /// The job's id.
    public var id: String { key.id }

    public static func == (lhs: Job, rhs: Job) -> Bool { lhs.key == rhs.key && lhs.client === rhs.client }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// Reports `value` done of `total` (default: the total known, else 1.0), as
    /// `ProgressView(value:total:)` takes it. Values above the total are clamped by the service.
    /// `timeRemaining` is the job's own estimate of the time it has left, shown as an estimate.
    ///
    /// - Throws: ``/HeadwayCore/ProgressError`` for a value that is not a finite number ≥ 0, a total that is
    ///   not above 0, or a job that is over; nothing is sent then.
    public func update(value: Double, total: Double? = nil, label: String? = nil, timeRemaining: Duration? = nil) throws(ProgressError) {
        let eta = timeRemaining?.seconds
        let label = label.map { DisplayText.truncated($0, maxBytes: WireProtocol.maxLabelBytes) }
        let now = client.core.now
        try client.core.change { (state: inout ClientState) throws(ProgressError) in
            try state.core.change(key) { (record: inout ReportedJob) throws(ProgressError) in
                try record.update(value: value, total: total, label: label, timeRemaining: eta, now: now)
            }
        }
    }

    /// Changes the label.
    public func setLabel(_ label: String) throws(ProgressError) {
        let label = DisplayText.truncated(label, maxBytes: WireProtocol.maxLabelBytes)
        try client.core.change { (state: inout ClientState) throws(ProgressError) in
            try state.core.change(key) { (record: inout ReportedJob) throws(ProgressError) in record.setLabel(label) }
        }
    }

    /// Says that the job is alive but cannot tell how far it is (only before it has a total).
    public func indeterminate() throws(ProgressError) {
        let now = client.core.now
        try client.core.change { (state: inout ClientState) throws(ProgressError) in
            try state.core.change(key) { (record: inout ReportedJob) throws(ProgressError) in try record.indeterminate(now: now) }
        }
    }

    /// Ends the job with `outcome` and waits until the service has it — at most the client's
    /// timeout, and not at all while the service is unavailable (it is then told after a
    /// reconnection if it may still hold the job).
    public func finish(_ outcome: Outcome = .succeeded) async throws(ProgressError) {
        try client.core.change { (state: inout ClientState) throws(ProgressError) in
            try state.core.change(key) { (record: inout ReportedJob) throws(ProgressError) in record.finish(outcome) }
        }
        await client.waitForDelivery(of: key)
    }

    /// Waits until everything reported of the job is acknowledged by the service, within the
    /// client's timeout.
    public func flush() async { await client.waitForDelivery(of: key) }

    /// The newest request of this job the service refused (a job id another user holds, a
    /// value it would not take), if any.
    public var refusal: Refusal? { client.core.read { $0.core.record(key)?.refusal } }

    /// Whether the program may still report to the job (it has not finished, and the service
    /// has not ended it).
    public var isRunning: Bool { client.core.read { $0.core.record(key)?.isRunning ?? false } }

    /// What happens to the job from now on: ``/HeadwayProtocol/JobEvent/Kind/paused`` and
    /// ``/HeadwayProtocol/JobEvent/Kind/resumed`` when it was begun with ``/HeadwayReporting/JobControls/pause``,
    /// ``/HeadwayProtocol/JobEvent/Kind/cancelRequested`` with ``/HeadwayReporting/JobControls/cancel``, and
    /// ``/HeadwayProtocol/JobEvent/Kind/finished`` when the service ended it (a countdown that ran out, a long
    /// press on a job without ``/HeadwayReporting/JobControls/cancel``). The stream ends when the job does.
    ///
    /// A pause must be honoured: the job is shown paused because the program said it stops its
    /// work (``/HeadwayReporting/JobControls/pause``), so stop until ``/HeadwayProtocol/JobEvent/Kind/resumed`` comes. A cancel
    /// request asks the program to stop and then ``finish(_:)`` the job
    /// ``/HeadwayCore/Outcome/cancelled``. Each call makes a stream of its own (for one reader); it keeps the
    /// newest 64 events its reader has not taken.
    public func events() -> AsyncStream<JobEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: JobEvent.self, bufferingPolicy: .bufferingNewest(64))
        let core = client.core, key = self.key
        guard let ticket = core.act({ $0.watch(continuation, job: key) }) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in core.act { $0.unwatch(ticket, job: key) } }
        return stream
    }
}
