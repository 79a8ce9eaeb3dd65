import Synchronization

/// Shows one job's progress on one or more outputs, straight from a Swift program (no daemon).
///
/// The vocabulary follows SwiftUI's `ProgressView`: a job is indeterminate until it reports a value
/// of a total, can be a timer that counts down, and has a label and a current-value label.
/// ```swift
/// let indicator = ProgressIndicator(label: "Backup", outputs: [
///     LEDOutput(ring, layout: .ring()),
///     DisplayOutput(oled),
/// ])
/// try indicator.update(value: 12, total: 200)
/// try indicator.finish(.succeeded)
/// await indicator.run()   // draws until the success signal has been shown
/// ```
/// Reports are checked and refused with a ``ProgressError`` that leaves the job as it was. Drawing
/// happens in ``refresh()`` (or ``run(framesPerSecond:)``), at the time of the injected clock.
public final class ProgressIndicator: Sendable {
    private let job: Mutex<ProgressJob>
    private let outputs: [any IndicatorOutput]
    private let clock: any ProgressClock
    private let appearance: Appearance

    /// Begins a job now (indeterminate) and shows it on `outputs` once its grace delay has passed.
    public init(
        label: String? = nil, outputs: [any IndicatorOutput], appearance: Appearance = .standard,
        policy: LifecyclePolicy = .standard, clock: any ProgressClock = MonotonicClock()
    ) {
        self.outputs = outputs
        self.clock = clock
        self.appearance = appearance
        // An indeterminate start cannot fail: only reports carry numbers that can be wrong.
        job = Mutex(try! ProgressJob(label: label, policy: policy, at: clock.now))
    }

    private func report(_ change: (inout ProgressJob, Seconds) throws(ProgressError) -> Void) throws(ProgressError) {
        let now = clock.now
        try job.withLock { (job: inout ProgressJob) throws(ProgressError) in
            var updated = job
            try change(&updated, now)
            job = updated
        }
    }

    /// Reports `value` done of `total` (default: the total already known, else 1.0).
    public func update(value: Double, total: Double? = nil, label: String? = nil) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.update(value: value, total: total, label: label, at: now) }
    }

    /// Reports that the job is alive but cannot say how far it is.
    public func indeterminate() throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.indeterminate(at: now) }
    }

    /// Makes the indicator a timer over the next `duration` seconds (emptying when `countsDown`):
    /// determinate progress driven by the clock.
    public func countdown(_ duration: Seconds, countsDown: Bool = true) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in
            try job.startTimer(from: now, to: now + duration, countsDown: countsDown, at: now)
        }
    }

    /// Changes the label.
    public func setLabel(_ label: String?) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.setLabel(label, at: now) }
    }

    /// Sets the text describing the current value ("3 of 10 files").
    public func setCurrentValueLabel(_ text: String?) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.setCurrentValueLabel(text, at: now) }
    }

    /// The job started over: back to indeterminate at zero.
    public func reset(label: String? = nil) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.reset(label: label, at: now) }
    }

    /// Pauses the job: shown as paused, never stalled or lost while it is.
    public func pause() throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.pause(at: now) }
    }

    /// Resumes a paused job.
    public func resume() throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.resume(at: now) }
    }

    /// What a button press means for a job shown directly: a short press pauses or resumes, a long
    /// press (held, which is the confirmation) cancels.
    public func handle(_ event: ButtonEvent) throws(ProgressError) {
        switch event {
        case .shortPress:
            let paused = job.withLock { $0.pausedAt != nil }
            if paused { try resume() } else { try pause() }
        case .longPress:
            try finish(.cancelled)
        }
    }

    /// Ends the job with `outcome`; its signal shows for the policy's linger, then the outputs go idle.
    public func finish(_ outcome: Outcome = .succeeded) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in try job.finish(outcome, at: now) }
    }

    /// The job as it would be drawn now.
    public var snapshot: ProgressSnapshot {
        let now = clock.now
        return job.withLock { $0.snapshot(at: now) }
    }

    /// Draws the current moment on every output. Every output is tried even when one fails; the
    /// first failure is thrown afterwards, and the failed output is sent a whole frame next time.
    /// Returns the snapshot drawn.
    @discardableResult
    public func refresh() throws(DeviceError) -> ProgressSnapshot {
        let snapshot = self.snapshot
        let configuration = ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance)
        var firstFailure: DeviceError?
        for output in outputs {
            do {
                try output.draw(configuration)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure { throw firstFailure }
        return snapshot
    }

    /// Draws at up to `framesPerSecond` until the job has ended and its signal is over (or it was
    /// lost). Device failures are passed to `onFailure` and drawing goes on, so an unplugged
    /// display comes back by itself.
    public func run(framesPerSecond: Double = 30, onFailure: @Sendable (DeviceError) -> Void = { _ in }) async {
        let interval = Duration.seconds(1 / framesPerSecond)
        while !Task.isCancelled {
            let snapshot: ProgressSnapshot
            do {
                snapshot = try refresh()
            } catch {
                onFailure(error)
                snapshot = self.snapshot
            }
            let ended = job.withLock { $0.outcome != nil }
            if snapshot.phase == .lost || (ended && snapshot.phase == .hidden) { return }
            try? await Task.sleep(for: interval)
        }
    }
}
