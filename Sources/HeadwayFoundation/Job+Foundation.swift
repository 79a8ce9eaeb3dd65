import Foundation
import HeadwayClient

extension Job {
    /// Reports `progress` to the service until it finishes (the job succeeded), is cancelled
    /// (cancelled), the service ends the job, or the calling task is cancelled (the job is left
    /// running, for the caller to finish): its fraction — children's work included —, whether it
    /// is indeterminate, and its description where Foundation gives one. Only changes are sent.
    /// Returns how the job ended, or nil when the task was cancelled first.
    ///
    /// Cancelling the job from a button (a cancel request, or the service cancelling a job that
    /// takes none) cancels the progress; a pause pauses it (for a job begun with
    /// `JobControls.pause`) and a resume resumes it.
    @discardableResult
    public func follow(_ progress: Progress, every interval: Duration = defaultProgressLookInterval) async -> Outcome? {
        let events = self.events()
        let shared = SharedProgress(progress)
        let listener = Task {
            let progress = shared.progress
            for await event in events {
                switch event.kind {
                case .cancelRequested: progress.cancel()
                case .finished where event.outcome == .cancelled: progress.cancel()
                case .paused: progress.pause()
                case .resumed: progress.resume()
                default: break
                }
            }
        }
        defer { listener.cancel() }
        var last: ProgressReading?
        while !Task.isCancelled {
            guard isRunning else { return progress.isCancelled ? .cancelled : .ended }
            let reading = ProgressReading(progress)
            if reading.isCancelled {
                try? await finish(.cancelled)
                return .cancelled
            }
            if reading != last {
                if let label = reading.label, label != last?.label { try? setLabel(label) }
                if let value = reading.value, value != last?.value || reading.total != last?.total {
                    try? update(value: value, total: reading.total)
                }
                last = reading
            }
            if reading.isFinished {
                try? await finish(.succeeded)
                return .succeeded
            }
            try? await Task.sleep(for: interval)
        }
        return nil
    }
}

extension HeadwayClient {
    /// Begins job `id` for `progress` and reports it until it finishes or is cancelled
    /// (``Job/follow(_:every:)``), ending the job as succeeded or cancelled; returns how it ended
    /// (nil when the calling task was cancelled first: the job is then ended as `Outcome/ended`
    /// unless the caller finishes it). A cancel from a button cancels the progress; a pause
    /// pauses it when it is pausable.
    ///
    /// - Throws: ``/HeadwayClient/ClientError`` for a job id that may not name a job.
    @discardableResult
    public func report(
        _ progress: Progress, as id: String, label: String? = nil, name: String? = nil, every interval: Duration = defaultProgressLookInterval
    ) async throws(ClientError) -> Outcome? {
        let reading = ProgressReading(progress)
        let controls: JobControls = reading.isPausable ? .all : .cancel
        let job = try await begin(id, label: reading.label ?? label, total: reading.value == nil ? nil : reading.total, name: name, controls: controls)
        let outcome = await job.follow(progress, every: interval)
        if outcome == nil { try? await job.finish(.ended) }
        return outcome
    }

    /// Begins a countdown to the end of `timerInterval`, as `ProgressView(timerInterval:)` takes
    /// it. The service's countdown runs from the moment it is begun: a range that began earlier
    /// starts full there (a local ``/Headway/ProgressIndicator`` shows the part already passed).
    ///
    /// - Throws: ``/HeadwayClient/ClientError/invalidTimer(_:)`` for a range that has ended.
    public func countdown(_ id: String, label: String? = nil, timerInterval: ClosedRange<Date>, name: String? = nil, controls: JobControls = []) async throws(ClientError) -> Job {
        let left = timerInterval.upperBound.timeIntervalSinceNow
        guard left > 0 else { throw .invalidTimer("the timer ended \(Int(-left)) s ago; a countdown ends in the future") }
        return try await countdown(id, label: label, duration: .milliseconds(Int64((left * 1000).rounded(.up))), name: name, controls: controls)
    }
}

/// A progress handed to the task that carries out a button's requests. `Progress` guards its
/// state with a lock and may be used from any thread; the box lets this compile whether or not
/// the Foundation in use declares it `Sendable` (Swift 6.3.1's does).
struct SharedProgress: @unchecked Sendable {
    let progress: Progress
    init(_ progress: Progress) { self.progress = progress }
}
