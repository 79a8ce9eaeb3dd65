import Headway

/// What a service keeps in its state folder, written off its loop by one state writer: the
/// durations past runs took, and the jobs it holds, so that a restart loses neither.
public struct ServiceState {
    /// The learned durations.
    let durations: DurationStore
    /// The jobs kept through a restart.
    let jobs: JobKeeper

    /// The state kept in `folder` (made when first written).
    public init(folder: String, logger: ServiceLogger) {
        let writer = StateWriter(folder: folder, logger: logger)
        durations = DurationStore(writer: writer)
        jobs = JobKeeper(writer: writer, logger: logger)
    }
}
