/// Everything a style needs to draw one job at one moment. A value: styles are pure functions of it.
public struct ProgressSnapshot: Sendable, Equatable {
    /// The moment this snapshot describes.
    public var time: Seconds
    /// Where the job is in its life.
    public var phase: JobPhase
    /// What the job last reported.
    public var kind: ProgressKind
    /// The fraction to draw, eased and never ahead of the report; `nil` when indeterminate.
    /// Below 1 until the job has succeeded.
    public var fraction: Double?
    /// What the job is.
    public var label: String?
    /// What the job says about its current value ("3 of 10 files"); see ``valueText``.
    public var currentValueLabel: String?
    /// Estimated seconds left (a timer's exact remainder); `nil` when unknown or stalled.
    public var timeRemaining: Seconds?
    /// Units of work per second, when known.
    public var rate: Double?
    /// Seconds since the job began: the phase of indeterminate animations.
    public var elapsed: Seconds
    /// Seconds since the current phase began (finish signals and stall looks are timed from it).
    public var phaseElapsed: Seconds
    /// Seconds since the job became determinate, for the cross-fade from an indeterminate look.
    public var determinateFor: Seconds?
    /// When the phase will change by itself if nothing is reported (for frame scheduling).
    public var phaseEndsAt: Seconds?
    /// The fraction is an estimate from how long past runs took, not a report: shown differently,
    /// with "~" on text displays, and never reaching 100 % before the job has succeeded.
    public var isEstimate: Bool
    /// How far past its estimate the job is running, when it is.
    public var overdue: Seconds?
    /// ``timeRemaining`` is the job's own estimate (a tool's ETA), not one made here: shown as an
    /// estimate ("ETA ~1m05s").
    public var timeRemainingIsReported: Bool
    /// Whether the percentage is printed (it is optional).
    public var showsPercent: Bool
    /// What the value and total count, for ``valueText`` (nil: things).
    public var unit: ValueUnit?

    /// The moment, as a style is given it (tests and previews make their own).
    public init(
        time: Seconds, phase: JobPhase, kind: ProgressKind, fraction: Double?, label: String? = nil,
        currentValueLabel: String? = nil, timeRemaining: Seconds? = nil, rate: Double? = nil,
        elapsed: Seconds = 0, phaseElapsed: Seconds = 0, determinateFor: Seconds? = nil,
        phaseEndsAt: Seconds? = nil, isEstimate: Bool = false, overdue: Seconds? = nil, timeRemainingIsReported: Bool = false,
        showsPercent: Bool = true, unit: ValueUnit? = nil
    ) {
        self.time = time
        self.phase = phase
        self.kind = kind
        self.fraction = fraction
        self.label = label
        self.currentValueLabel = currentValueLabel
        self.timeRemaining = timeRemaining
        self.rate = rate
        self.elapsed = elapsed
        self.phaseElapsed = phaseElapsed
        self.determinateFor = determinateFor
        self.phaseEndsAt = phaseEndsAt
        self.isEstimate = isEstimate
        self.overdue = overdue
        self.timeRemainingIsReported = timeRemainingIsReported
        self.showsPercent = showsPercent
        self.unit = unit
    }

    /// Nothing to show: what an output draws when no job is visible.
    public static func idle(at time: Seconds) -> ProgressSnapshot {
        ProgressSnapshot(time: time, phase: .hidden, kind: .indeterminate, fraction: nil)
    }

    /// Whether anything of the job is shown (not pending, hidden or lost).
    public var isVisible: Bool { phase.isVisible }

    /// The whole percentage to print ("42%", "~42%" for an estimate), rounded down so that 99.9 %
    /// never reads as 100 %; `nil` when unknown or not to be shown.
    public var percentText: String? {
        // A countdown reads in time ("3m57s left of 4m"): a percentage falling from 98 would read
        // as a job nearly done.
        if case .timer = kind { return nil }
        guard showsPercent, let fraction else { return nil }
        return "\(isEstimate ? "~" : "")\(Int((fraction * 100).rounded(.down)))%"
    }

    /// The job's own value label, else value and total in the job's unit ("42/120", "1.2/3.1 GB",
    /// "2s/40s") for totals other than 1.
    public var valueText: String? {
        if let currentValueLabel { return currentValueLabel }
        guard case .determinate(let value, let total) = kind, total != 1 || unit != nil else { return nil }
        return NumberText.amounts(value, of: total, unit: unit)
    }

    /// What to say about time: "ETA 1m05s", "ETA ~1m05s" (an estimate from past runs or the
    /// job's own), "overdue 2m10s", "stalled 40s", "stale 2m", "queued 1m20s", a timer's
    /// "3m57s left of 4m", or `nil`.
    public var timeText: String? {
        switch phase {
        case .stalled(let silence): return "stalled \(DurationText.short(silence, rounding: .down))"
        case .stale(let silence): return "stale \(DurationText.short(silence, rounding: .down))"
        case .queued: return "queued \(DurationText.short(phaseElapsed, rounding: .down))"
        case .paused: return "paused"
        case .active: break
        default: return nil
        }
        if let overdue { return "overdue \(DurationText.short(overdue, rounding: .down))" }
        guard let timeRemaining else { return nil }
        if case .timer(let start, let end, _) = kind { return DurationText.countdown(left: timeRemaining, of: end - start) }
        return "ETA \(isEstimate || timeRemainingIsReported ? "~" : "")\(DurationText.short(timeRemaining, rounding: .up))"
    }
}
