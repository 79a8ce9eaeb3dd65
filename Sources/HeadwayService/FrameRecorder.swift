import Headway

/// When each output's last frame reached its device (its drawing returned: on a real bus, its last
/// byte sent) and the progress value of each job it showed: what update-to-glass latency is
/// measured from. A part the core is given when something measures (the simulator); the daemon
/// runs without one and pays nothing.
public final class FrameRecorder {
    /// One output's last frame.
    public struct Frame: Sendable, Equatable {
        /// When its drawing returned, on the service's clock.
        public var at: Seconds
        /// The value of each determinate job it showed.
        public var values: [String: Double]
    }

    /// The last frame of each output, by name.
    public private(set) var frames: [String: Frame] = [:]

    /// A recorder with no frames yet.
    public init() {}

    /// `output` drew a frame that returned at `time`, showing some of `jobs`.
    func record(_ output: ServiceOutput, jobs: [(id: String, snapshot: ProgressSnapshot)], at time: Seconds) {
        var values: [String: Double] = [:]
        for id in output.layout.shownJobs {
            if let job = jobs.first(where: { $0.id == id }), case .determinate(let value, _) = job.snapshot.kind { values[id] = value }
        }
        frames[output.name] = Frame(at: time, values: values)
    }
}
