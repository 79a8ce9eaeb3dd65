import Synchronization

/// Shows one job's progress on one or more outputs, straight from a Swift program (no daemon).
///
/// The vocabulary follows SwiftUI's `ProgressView`, and so do the initialisers: indeterminate
/// (``init(label:currentValueLabel:outputs:appearance:policy:clock:)``), a value of a total
/// (``init(value:total:label:currentValueLabel:outputs:appearance:policy:clock:)``, total 1 by
/// default, `nil` for indeterminate) and a timer over an interval
/// (``init(timerInterval:countsDown:label:currentValueLabel:outputs:appearance:policy:clock:)``);
/// HeadwayFoundation adds a timer over a range of `Date`s and following a `Foundation.Progress`.
/// ```swift
/// let indicator = ProgressIndicator(label: "Backup", outputs: [
///     LEDOutput(ring, layout: .ring()),
///     DisplayOutput(oled),
/// ])
/// try indicator.update(value: 12, total: 200)
/// try indicator.finish(.succeeded)
/// await indicator.run()   // draws until the success signal has been shown
/// ```
/// Reports are checked and refused with a ``/HeadwayCore/ProgressError`` that leaves the job as it was. Drawing
/// happens in ``refresh()`` (or ``run(framesPerSecond:onFailure:)``), at the time of the injected clock.
///
/// Where it differs from `ProgressView`, and why:
/// - Labels are text, not views: an output draws them in its own font, cut to fit its glass.
/// - A value is never clamped silently: NaN, infinite and negative values and totals that are
///   not above 0 are refused with a ``/HeadwayCore/ProgressError``; a value above the total is shown full
///   only once the job has succeeded (at most 99 % before).
/// - A timer's interval is in seconds of the indicator's clock (``/HeadwayCore/ProgressClock``); the core has
///   no `Date` (HeadwayFoundation takes a `ClosedRange<Date>`).
/// - An indicator has a life `ProgressView` does not: a grace delay before it shows, a stall when
///   reports stop, an outcome when it finishes (``finish(_:)``), then it goes dark.
/// - Styles conform to ``/HeadwayRender/ProgressStyle`` (or ``/HeadwayRender/DisplayStyle``) per medium rather than to
///   `ProgressViewStyle`, and are given to each output.
public final class ProgressIndicator: Sendable {
    private let job: Mutex<ProgressJob>
    private let outputs: [any IndicatorOutput]
    private let clock: any ProgressClock
    private let appearance: Appearance

    /// Begins a job now (indeterminate) and shows it on `outputs` once its grace delay has passed.
    public convenience init(
        label: String? = nil, currentValueLabel: String? = nil, outputs: [any IndicatorOutput], appearance: Appearance = .standard,
        policy: LifecyclePolicy = .standard, clock: any ProgressClock = MonotonicClock()
    ) {
        // An indeterminate start cannot fail: only reports carry numbers that can be wrong.
        var job = try! ProgressJob(label: label, policy: policy, at: clock.now)
        if let currentValueLabel { try! job.setCurrentValueLabel(currentValueLabel, at: clock.now) }
        self.init(job: job, outputs: outputs, appearance: appearance, clock: clock)
    }

    /// Begins a job at `value` of `total` (as `ProgressView(value:total:)`: total 1 by default;
    /// a `nil` value is indeterminate).
    ///
    /// - Throws: ``/HeadwayCore/ProgressError`` for a value or total the job would refuse.
    public convenience init(
        value: Double?, total: Double = 1, label: String? = nil, currentValueLabel: String? = nil, outputs: [any IndicatorOutput],
        appearance: Appearance = .standard, policy: LifecyclePolicy = .standard, clock: any ProgressClock = MonotonicClock()
    ) throws(ProgressError) {
        let now = clock.now
        var job = try ProgressJob(label: label, kind: value.map { .determinate(value: $0, total: total) } ?? .indeterminate, policy: policy, at: now)
        if value == nil, !(total.isFinite && total > 0) { throw .invalidTotal(total) }
        if let currentValueLabel { try job.setCurrentValueLabel(currentValueLabel, at: now) }
        self.init(job: job, outputs: outputs, appearance: appearance, clock: clock)
    }

    /// Begins a timer over `timerInterval`, in seconds of `clock` (as
    /// `ProgressView(timerInterval:countsDown:)`: emptying as time passes when `countsDown`,
    /// filling otherwise). An interval that began earlier shows the part already passed.
    ///
    /// - Throws: ``/HeadwayCore/ProgressError/invalidInterval(start:end:)`` for an empty or infinite interval.
    public convenience init(
        timerInterval: ClosedRange<Seconds>, countsDown: Bool = true, label: String? = nil, currentValueLabel: String? = nil,
        outputs: [any IndicatorOutput], appearance: Appearance = .standard, policy: LifecyclePolicy = .standard,
        clock: any ProgressClock = MonotonicClock()
    ) throws(ProgressError) {
        let now = clock.now
        var job = try ProgressJob(
            label: label, kind: .timer(start: timerInterval.lowerBound, end: timerInterval.upperBound, countsDown: countsDown),
            policy: policy, at: now)
        if let currentValueLabel { try job.setCurrentValueLabel(currentValueLabel, at: now) }
        self.init(job: job, outputs: outputs, appearance: appearance, clock: clock)
    }

    private init(job: ProgressJob, outputs: [any IndicatorOutput], appearance: Appearance, clock: any ProgressClock) {
        self.job = Mutex(job)
        self.outputs = outputs
        self.clock = clock
        self.appearance = appearance
    }

    /// The clock the indicator reads (for a caller that converts another clock's times to it).
    public var now: Seconds { clock.now }

    /// How the job ended, once it has (``finish(_:)``, or a long press of a button).
    public var outcome: Outcome? { job.withLock { $0.outcome } }

    /// Whether the job is paused (``pause()``, or a short press of a button).
    public var isPaused: Bool { job.withLock { $0.pausedAt != nil } }

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

    /// Makes the indicator a timer over the next `duration` (emptying when `countsDown`), as
    /// `ProgressView(timerInterval:countsDown:)`: determinate progress driven by the clock.
    public func countdown(_ duration: Duration, countsDown: Bool = true) throws(ProgressError) {
        try report { (job, now) throws(ProgressError) in
            try job.startTimer(from: now, to: now + duration.seconds, countsDown: countsDown, at: now)
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
