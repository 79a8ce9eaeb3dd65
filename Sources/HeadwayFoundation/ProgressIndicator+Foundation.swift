import Foundation
import Headway

extension ProgressIndicator {
    /// Begins a timer over a range of dates, as `ProgressView(timerInterval:countsDown:)` takes
    /// it: emptying as time passes when `countsDown`, filling otherwise; a range that began
    /// earlier shows the part already passed. The dates are placed on the indicator's clock now,
    /// so a later change of the system's date does not move the timer.
    ///
    /// - Throws: `ProgressError/invalidInterval(start:end:)` for an empty range.
    public convenience init(
        timerInterval: ClosedRange<Date>, countsDown: Bool = true, label: String? = nil, currentValueLabel: String? = nil,
        outputs: [any IndicatorOutput], appearance: Appearance = .standard, policy: LifecyclePolicy = .standard,
        clock: any ProgressClock = MonotonicClock()
    ) throws(ProgressError) {
        let now = clock.now, today = Date()
        let start = now + timerInterval.lowerBound.timeIntervalSince(today)
        let end = now + timerInterval.upperBound.timeIntervalSince(today)
        guard end > start else { throw .invalidInterval(start: start, end: end) }
        try self.init(
            timerInterval: start...end, countsDown: countsDown, label: label, currentValueLabel: currentValueLabel, outputs: outputs,
            appearance: appearance, policy: policy, clock: clock)
    }

    /// Shows `progress` until it finishes (the job succeeded), is cancelled (cancelled), or the
    /// calling task is cancelled (the job is left as it is, for the caller to finish): its
    /// fraction — children's work included —, whether it is indeterminate, and its description
    /// where Foundation gives one (``/Headway/ProgressIndicator/setLabel(_:)`` otherwise). Returns how the job ended, or nil
    /// when the task was cancelled first.
    ///
    /// A long press of a button handed to ``/Headway/ProgressIndicator/handle(_:)`` cancels the progress; a short press
    /// pauses it when it is pausable (`isPausable`) and is turned down otherwise, since nothing
    /// would stop the work. A progress paused by its own program shows as paused.
    @discardableResult
    public func follow(_ progress: Progress, every interval: Duration = defaultProgressLookInterval) async -> Outcome? {
        var last: ProgressReading?
        var pausedByPress = false
        while !Task.isCancelled {
            if outcome == .cancelled, !progress.isCancelled { progress.cancel() }
            if let outcome { return outcome }
            let reading = ProgressReading(progress)
            pausedByPress = applyPause(reading, to: progress, pausedByPress: pausedByPress)
            if reading != last {
                apply(reading, after: last)
                last = reading
            }
            if reading.isCancelled {
                try? finish(.cancelled)
                return .cancelled
            }
            if reading.isFinished {
                try? finish(.succeeded)
                return .succeeded
            }
            try? await Task.sleep(for: interval)
        }
        return nil
    }

    /// A person's pause reaches the progress when it can be paused, else it is undone; the
    /// program's own pause of the progress is shown. Returns whether the progress is paused
    /// because of a press.
    private func applyPause(_ reading: ProgressReading, to progress: Progress, pausedByPress: Bool) -> Bool {
        switch (isPaused, reading.isPaused) {
        case (true, false):
            if pausedByPress { try? resume() } // the program resumed its progress
            else if reading.isPausable {
                progress.pause()
                return true
            } else { try? resume() }
        case (false, true):
            if pausedByPress { progress.resume() } else { try? pause() }
        default:
            return pausedByPress && reading.isPaused
        }
        return false
    }

    private func apply(_ reading: ProgressReading, after last: ProgressReading?) {
        if let label = reading.label, label != last?.label { try? setLabel(label) }
        if reading.detail != last?.detail { try? setCurrentValueLabel(reading.detail) }
        if let value = reading.value {
            if value != last?.value || reading.total != last?.total { try? update(value: value, total: reading.total) }
        }
    }
}
