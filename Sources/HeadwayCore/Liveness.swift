/// How a job shows that it is alive, when its reports alone cannot.
///
/// A job that reports progress stalls when its reports stop: its progress stopped, whatever else is
/// going on. A job that does not report progress — a CI job between its started and completed hooks
/// — is alive for as long as its liveness says, and reads as running all that time: moving, never
/// stalled.
public enum Liveness: Sendable, Equatable, Codable {
    /// By its messages only. Without progress reports the job reads as running for the policy's
    /// ``LifecyclePolicy/aliveWithoutReports`` after its last message (6 h by default, the longest
    /// a GitHub-hosted job may run), then is lost; with progress it is lost after
    /// ``LifecyclePolicy/loseAfter`` without a report.
    case reports
    /// While process `pid` runs (a CI runner's worker, `headway run`): never lost; whoever watches
    /// the process (the service) ends the job as failed when it exits without reporting the end.
    case process(pid: Int32)
    /// While heartbeats arrive at least every `interval` seconds: stalled once two are missed, lost
    /// after ``LifecyclePolicy/loseAfter`` (or ten intervals, if longer) without any message.
    case heartbeat(interval: Seconds)
    /// A job that runs elsewhere (a CI server's run), followed by a reporter that looks at its
    /// source every `interval` seconds and sends a heartbeat after each look. The source says
    /// whether the job runs, so it never reads as stalled, however long a step takes; when two
    /// looks are missed the reporter has lost sight of it and the job is shown as *stale*, then
    /// lost after ``LifecyclePolicy/loseAfter`` (or ten intervals, if longer).
    case followed(interval: Seconds)
    /// The service itself follows the job (a systemd unit it watches) and ends it: never lost, and
    /// never stalled for silence unless it reports progress that then stops.
    case owned
}
