/// What a program does when a person asks, through the job's button or `headway stop`, for its
/// job to pause or to stop. Pausing is honest (docs/protocol.md, "Pause"): a job is shown paused
/// only when its program really stops its work, so a job takes only the requests it honours.
public struct JobControls: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The program pauses its work on ``/HeadwayProtocol/JobEvent/Kind/paused`` and continues on
    /// ``/HeadwayProtocol/JobEvent/Kind/resumed`` (from a `Job`'s `events()`, or `headway run`'s own). Without it a short press is turned
    /// down: the client resumes the job at once and the program is not told.
    public static let pause = JobControls(rawValue: 1 << 0)
    /// The program stops its work on ``/HeadwayProtocol/JobEvent/Kind/cancelRequested`` and finishes the job
    /// ``/HeadwayCore/Outcome/cancelled``. Without it (and without `pause`) a long press cancels the job in
    /// the service, and a `Job`'s `events()` says so with ``/HeadwayProtocol/JobEvent/Kind/finished``;
    /// with `pause` alone a long press does nothing (the job has a controller, which the service
    /// asks to stop, and this program does not).
    public static let cancel = JobControls(rawValue: 1 << 1)
    /// Both.
    public static let all: JobControls = [.pause, .cancel]
}
