import Headway
import HeadwayProtocol

/// Quiet hours, composed: the core asks its ``QuietHoursPolicy`` what idle and quiet outputs show.
extension ServiceCore {
    /// The wall clock's time of day now.
    var localNow: LocalTime { localTime(wallClock()) }

    /// The quiet hours in force now on any output (the first), woken or not: what `status` and the
    /// button answer to.
    func quietHoursInForce(_ local: LocalTime) -> QuietHours? {
        devices.outputs.lazy.compactMap(\.quietHours).first { $0.contains(local) }
    }

    /// The quiet hours in force now, as `status` reports them.
    public var quietNote: QuietNote? {
        quietHoursInForce(localNow).map {
            QuietNote(until: $0.to.text, brightness: $0.brightness, marksFailures: $0.marksFailures, woken: quietHours.isWoken(at: clock.now))
        }
    }

    /// A job ended: displays keep its result up, a failure in quiet hours is marked.
    func noteEnd(of id: String, _ outcome: Outcome, label: String?, at now: Seconds) {
        quietHours.noteEnd(of: id, outcome, label: label, on: devices.outputs, at: now, localNow, linger: settings.policy.linger)
    }

    /// A job began: outside quiet hours the failures of the night count as seen.
    func noteBeginning() {
        quietHours.noteBeginning(quietHoursInForce: quietHoursInForce(localNow) != nil)
    }

    /// A button was pressed. During quiet hours the first press only lights the outputs; otherwise
    /// it acts on the job shown.
    func press(_ event: ButtonEvent, at now: Seconds) -> [JobEvent] {
        let hours = quietHoursInForce(localNow)
        if quietHours.press(during: hours, at: now) {
            if let hours { logger.info("button: quiet hours (\(hours.summary)): outputs lit for \(DurationText.short(hours.wake))") }
            return []
        }
        return scheduler.showingJobs ? button(event) : []
    }
}
