import Headway

/// An idle output's countdown toward a systemd timer's next elapse (`countdown:`): within its
/// window before the elapse it shows a clock-driven countdown (the timer's real next elapse, as
/// systemd computed it, randomized delay included), and nothing when the timer has none.
extension ServiceCore {
    /// The window before `output`'s timer next elapses, when it has a countdown and the timer an elapse.
    func countdownWindow(_ output: ServiceOutput, at now: Seconds) -> (start: Seconds, end: Seconds)? {
        guard let countdown = output.countdown,
              let next = units.states[countdown.timer]?.timer?.next(now: now, wallNow: wallClock()), next > now
        else { return nil }
        return (next - countdown.within, next)
    }

    /// What `output` shows while it shows no job: its countdown, inside its window.
    func countdownSnapshot(for output: ServiceOutput, at now: Seconds) -> ProgressSnapshot? {
        guard let window = countdownWindow(output, at: now), window.start <= now, let timer = output.countdown?.timer else { return nil }
        let facts = units.states[timer]
        // The unit it starts says best what is coming ("Nightly backup"); else the timer's own.
        let description = facts?.timer?.unit.flatMap { units.states[$0]?.description } ?? facts?.description ?? timer
        let label = DisplayText.shortened(DisplayText.sanitised(description), maxBytes: 64)
        // Begun a grace delay before its window, so that it is shown from the window's start.
        let job = try? ProgressJob(
            label: label, kind: .timer(start: window.start, end: window.end, countsDown: true), policy: settings.policy,
            at: window.start - settings.policy.grace)
        return job?.snapshot(at: now)
    }

    /// When an idle output with a countdown next needs a frame: at its window's start, at its frame
    /// rate inside the window, and once more after it, to go dark.
    func countdownWakeup(at now: Seconds) -> Seconds? {
        var times: [Seconds] = []
        for output in devices.outputs where output.countdown != nil {
            if let window = countdownWindow(output, at: now) {
                times.append(window.start > now ? window.start : max(now, output.nextFrame))
            } else if output.showedCountdown {
                times.append(max(now, output.nextFrame))
            }
        }
        return times.min()
    }
}
