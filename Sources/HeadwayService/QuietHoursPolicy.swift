import Headway

/// The quiet-hours and care policy: what outputs show while no job is shown or while quiet hours
/// keep them dark or dim — the last result a display keeps up, the failures nobody has seen yet,
/// the minute a press lights everything. State of its own; the core asks it what to draw.
struct QuietHoursPolicy {
    /// Jobs that failed during quiet hours that nobody has seen since.
    var unseenFailures = 0
    /// When a button press last lit the outputs during quiet hours, and until when.
    private(set) var wokenAt = -Double.infinity
    private(set) var wokenUntil = -Double.infinity

    /// Whether a press has the outputs lit now.
    func isWoken(at now: Seconds) -> Bool { now < wokenUntil }

    /// The quiet hours `output` keeps now: in force, and nobody has woken the outputs.
    func quiet(_ output: ServiceOutput, at now: Seconds, _ local: LocalTime) -> QuietHours? {
        guard let hours = output.quietHours, hours.contains(local), now >= wokenUntil else { return nil }
        return hours
    }

    /// What `output` draws once quiet hours and its notices are applied to what its layout chose.
    func adjusted(
        _ drawing: OutputLayout.Drawing, for output: ServiceOutput, at now: Seconds, _ local: LocalTime, appearance: Appearance
    ) -> OutputLayout.Drawing {
        let quiet = quiet(output, at: now, local)
        let marks = output.quietHours?.marksFailures == true ? unseenFailures : 0
        if let quiet, quiet.brightness == 0 {
            // Dark: nothing but the mark of a failure, on a display at a tenth of its light.
            var look = appearance
            look.brightness *= 0.1
            return .one(ProgressStyleConfiguration(snapshot: .idle(at: now), appearance: look, notices: Notices(unseenFailures: marks)))
        }
        func capped(_ configuration: ProgressStyleConfiguration) -> ProgressStyleConfiguration {
            var configuration = configuration
            if let quiet { configuration.appearance.brightness = min(configuration.appearance.brightness, quiet.brightness) }
            return configuration
        }
        switch drawing {
        case .segments(let segments):
            return .segments(segments.map { LEDOutput.Segment(range: $0.range, configuration: capped($0.configuration)) })
        case .one(var configuration):
            if !configuration.snapshot.isVisible {
                var notices = Notices(unseenFailures: marks)
                if let last = output.lastResult, now < last.until {
                    notices.lastResult = last.result
                    configuration.appearance.brightness *= output.care.lastResultBrightness
                }
                configuration.notices = notices
            }
            return .one(capped(configuration))
        }
    }

    /// A job ended: the displays that showed it keep its result up (those whose care asks to), and
    /// a failure during quiet hours is marked until somebody sees it.
    mutating func noteEnd(of id: String, _ outcome: Outcome, label: String?, on outputs: [ServiceOutput], at now: Seconds, _ local: LocalTime, linger: Seconds) {
        if outcome == .failed, outputs.contains(where: { $0.quietHours.map { $0.marksFailures && $0.contains(local) } ?? false }) {
            unseenFailures += 1
        }
        let result = LastResult(outcome: outcome, label: label, endedAt: local.timeOfDay.text)
        for output in outputs where output.isDisplay && output.care.lastResult > 0 && output.layout.shownJobs.contains(id) {
            output.lastResult = (result, now + linger + output.care.lastResult)
        }
    }

    /// A job began: outside quiet hours the failures of the night count as seen.
    mutating func noteBeginning(quietHoursInForce: Bool) {
        if !quietHoursInForce { unseenFailures = 0 }
    }

    /// A button was pressed with `hours` in force (or none). During quiet hours the first press only
    /// lights the outputs, for the hours' `wake`: true then, the press is used up. Otherwise a person
    /// has seen the marks, and the press acts on the job shown.
    mutating func press(during hours: QuietHours?, at now: Seconds) -> Bool {
        if let hours, now >= wokenUntil {
            (wokenAt, wokenUntil) = (now, now + hours.wake)
            return true
        }
        unseenFailures = 0
        return false
    }

    /// When quiet hours or notices next need a frame while no job is shown: each output that has
    /// not yet drawn the start or end of a wake or the end of its last result needs one then (and a
    /// last result one every 10 s meanwhile, for its care); while a failure is marked, one a minute,
    /// so the mark follows the hours' edges.
    func wakeup(_ outputs: [ServiceOutput]) -> Seconds? {
        var times: [Seconds] = []
        for output in outputs {
            var due: [Seconds] = []
            if output.lastDrawn < wokenAt { due.append(wokenAt) } else if output.lastDrawn < wokenUntil { due.append(wokenUntil) }
            if let last = output.lastResult, output.lastDrawn < last.until { due.append(min(last.until, output.lastDrawn + 10)) }
            if unseenFailures > 0 { due.append(output.lastDrawn + 60) }
            if let first = due.min() { times.append(max(first, output.nextFrame)) }
        }
        return times.min()
    }
}
