import Headway
import HeadwayProtocol

/// Quiet hours and what idle outputs still show: the last result, failures nobody has seen.
extension ServiceCore {
    /// The wall clock's time of day now.
    var localNow: LocalTime { localTime(wallClock()) }

    /// The quiet hours `output` keeps now: in force, and nobody has woken the outputs.
    func quiet(_ output: ServiceOutput, at now: Seconds, _ local: LocalTime) -> QuietHours? {
        guard let hours = output.quietHours, hours.contains(local), now >= wokenUntil else { return nil }
        return hours
    }

    /// The quiet hours in force now on any output (the first), woken or not: what `status` and the
    /// button answer to.
    func quietHoursInForce(_ local: LocalTime) -> QuietHours? {
        devices.outputs.lazy.compactMap(\.quietHours).first { $0.contains(local) }
    }

    /// The quiet hours in force now, as `status` reports them.
    public var quietNote: QuietNote? {
        quietHoursInForce(localNow).map {
            QuietNote(until: $0.to.text, brightness: $0.brightness, marksFailures: $0.marksFailures, woken: clock.now < wokenUntil)
        }
    }

    /// What `output` draws once quiet hours and its notices are applied to what its layout chose.
    func adjusted(_ drawing: OutputLayout.Drawing, for output: ServiceOutput, at now: Seconds, _ local: LocalTime) -> OutputLayout.Drawing {
        let quiet = quiet(output, at: now, local)
        let marks = output.quietHours?.marksFailures == true ? unseenFailures : 0
        if let quiet, quiet.brightness == 0 {
            // Dark: nothing but the mark of a failure, on a display at a tenth of its light.
            var look = settings.appearance
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

    /// A job ended: the outputs that showed it keep its result up (displays that are asked to),
    /// and a failure during quiet hours is marked until somebody sees it.
    func noteEnd(of id: String, _ outcome: Outcome, label: String?, at now: Seconds) {
        let local = localNow
        if outcome == .failed, devices.outputs.contains(where: { $0.quietHours.map { $0.marksFailures && $0.contains(local) } ?? false }) {
            unseenFailures += 1
        }
        let result = LastResult(outcome: outcome, label: label, endedAt: local.timeOfDay.text)
        for output in devices.outputs where output.isDisplay && output.care.lastResult > 0 && output.layout.shownJobs.contains(id) {
            output.lastResult = (result, now + settings.policy.linger + output.care.lastResult)
        }
    }

    /// A job began: outside quiet hours the failures of the night count as seen.
    func noteBeginning() {
        if quietHoursInForce(localNow) == nil { unseenFailures = 0 }
    }

    /// A button was pressed. During quiet hours the first press only lights the outputs (for the
    /// hours' `wake`); otherwise it acts on the job shown, and a person has seen the marks.
    func press(_ event: ButtonEvent, at now: Seconds) -> [JobEvent] {
        if let hours = quietHoursInForce(localNow), now >= wokenUntil {
            (wokenAt, wokenUntil) = (now, now + hours.wake)
            logger.info("button: quiet hours (\(hours.summary)): outputs lit for \(DurationText.short(hours.wake))")
            return []
        }
        unseenFailures = 0
        return showingJobs ? button(event) : []
    }

    /// When quiet hours or notices next need a frame while no job is shown: each output that has
    /// not yet drawn the start or end of a wake or the end of its last result needs one then (and a last result one
    /// every 10 s meanwhile, for its care); while a failure is marked, one a minute, so the mark
    /// follows the hours' edges.
    func noticeWakeup() -> Seconds? {
        var times: [Seconds] = []
        for output in devices.outputs {
            var due: [Seconds] = []
            if output.lastDrawn < wokenAt { due.append(wokenAt) } else if output.lastDrawn < wokenUntil { due.append(wokenUntil) }
            if let last = output.lastResult, output.lastDrawn < last.until { due.append(min(last.until, output.lastDrawn + 10)) }
            if unseenFailures > 0 { due.append(output.lastDrawn + 60) }
            if let first = due.min() { times.append(max(first, output.nextFrame)) }
        }
        return times.min()
    }
}
