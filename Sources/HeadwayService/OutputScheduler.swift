import Headway

/// The output scheduler: which outputs draw at a tick, from which jobs, and whether any job is
/// shown at all (a service showing nothing draws nothing and sleeps). What each output shows is
/// composed by the core from its parts (the layout's choice, a timer's countdown, quiet hours).
struct OutputScheduler {
    /// Whether the last tick showed any job (the outputs must be drawn once more when none is left).
    var showingJobs = false

    /// Draws every output that is due (all of them once after the last job went), each as
    /// `compose` says from the candidate jobs; returns the outputs' failures and recoveries.
    mutating func draw(
        _ outputs: [ServiceOutput], registry: JobRegistry, focus: Focus, at now: Seconds, recorder: FrameRecorder?, clock: any ProgressClock,
        compose: (ServiceOutput, [(id: String, snapshot: ProgressSnapshot)]) -> OutputLayout.Drawing
    ) -> [String] {
        let jobs = candidates(outputs, registry: registry, focus: focus, at: now)
        let clearing = jobs.isEmpty && showingJobs
        var failures: [String] = []
        for output in outputs where output.isDue(at: now) || clearing {
            let (drawn, message) = output.draw(compose(output, jobs), at: now)
            if let message { failures.append(message) }
            // When the drawing returned: on a real bus, its last byte sent.
            if drawn { recorder?.record(output, jobs: jobs, at: clock.now) }
        }
        showingJobs = !jobs.isEmpty
        return failures
    }

    /// The visible jobs the outputs choose from, in the order they began: the newest ones (as many
    /// as the widest strip shows, more for urgency to choose among), the oldest, and every job an
    /// output already shows — never a walk over all jobs.
    private func candidates(
        _ outputs: [ServiceOutput], registry: JobRegistry, focus: Focus, at now: Seconds
    ) -> [(id: String, snapshot: ProgressSnapshot)] {
        guard registry.visibleCount > 0 else { return [] }
        let widest = outputs.map(OutputLayout.capacity).max() ?? 1
        var found = registry.newestVisible(at: now, limit: widest)
        found += registry.oldestVisible(at: now, limit: 1)
        if focus == .urgent {
            for id in registry.urgentIDs.prefix(16) {
                if let entry = registry[id] { found.append((id, entry.job.snapshot(at: now))) }
            }
        }
        for output in outputs {
            for id in output.layout.shownJobs where registry.isVisible(id) {
                if let entry = registry[id] { found.append((id, entry.job.snapshot(at: now))) }
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0.id).inserted }.sorted { registry.order(of: $0.id) < registry.order(of: $1.id) }
    }

    /// When the next frame is due while anything is shown.
    func nextFrame(_ outputs: [ServiceOutput]) -> Seconds? { outputs.map(\.nextFrame).min() }
}
