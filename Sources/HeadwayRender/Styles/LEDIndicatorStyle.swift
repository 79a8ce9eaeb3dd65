import HeadwayCore
import RealModule

/// The built-in style for LED strips and rings.
///
/// - Determinate (and timers): a fill along the layout, its leading LED blended in linear light; the
///   last lit LED pulses gently so a fill at rest still shows the job is alive.
/// - An estimate (no progress reported; past runs say how long the job takes): a dashed fill, every
///   other LED dimmed, so it cannot be taken for reported progress. Past the estimate (overdue): the
///   dashes in the overdue colour, trading places every second — alive, and late.
/// - Indeterminate: a comet circling a ring, or a segment sweeping back and forth along a strip.
///   When a total becomes known the animation cross-fades into the fill in ``crossFade`` seconds.
/// - Stalled: the fill (or the whole chain, when indeterminate) turns the stalled colour and breathes
///   slowly; nothing moves along the chain, because nothing is progressing.
/// - Paused: the fill in the tint, dimmed and breathing slowly.
/// - Queued (waiting at its source to start): the track, and the first LED in the tint breathing
///   slowly at the start line.
/// - Stale (its reporter lost sight of it): the fill (or the whole chain) in the stale colour,
///   breathing slowly: neither progress nor a stall.
/// - Finished: success completes the fill and washes into the success colour; failure blinks the fill
///   in the failure colour; cancellation dims it; an end without a result shows the fill in the
///   neutral `ended` colour; each fades out by the end of the linger.
/// - Other jobs running that this chain does not show: its last LED is a dim white marker.
public struct LEDIndicatorStyle: ProgressStyle {
    /// How progress runs over the chain.
    public var layout: LEDLayout
    /// Seconds one comet revolution (or one sweep there and back) takes.
    public var period: Seconds
    /// How long the switch from indeterminate to determinate cross-fades.
    public var crossFade: Seconds

    /// The style for `layout`; `period` is how long the indeterminate comet takes round (default: by the chain's length).
    public init(layout: LEDLayout, period: Seconds? = nil, crossFade: Seconds = 0.5) {
        self.layout = layout
        self.period = period ?? (layout.isRing ? 1.5 : 2.4)
        self.crossFade = crossFade
    }

    /// The style for a strip filled from its first LED.
    public static let strip = LEDIndicatorStyle(layout: .strip)
    /// The style for a ring filled from LED `start`, clockwise or not.
    public static func ring(start: Int = 0, clockwise: Bool = true) -> LEDIndicatorStyle {
        LEDIndicatorStyle(layout: .ring(start: start, clockwise: clockwise))
    }

    public func render(_ configuration: ProgressStyleConfiguration, into frame: inout LEDFrame) {
        let snapshot = configuration.snapshot
        let look = configuration.appearance
        frame.fill(.black)
        guard snapshot.isVisible, frame.count > 0 else { return frame.markUnseenFailures(configuration.notices, appearance: look) }
        let painter = LEDPainter(layout: layout)
        switch snapshot.phase {
        case .finished(let outcome):
            drawFinished(outcome, snapshot, look, painter, &frame)
        case .stalled:
            drawStalled(snapshot, look, painter, &frame)
        case .queued:
            let breath = Float(0.3 + 0.2 * Double.cos(2 * .pi * snapshot.phaseElapsed / 4))
            frame.fill(look.trackLight)
            frame[layout.index(ofPosition: 0, count: frame.count)] = look.tintLight.scaled(by: breath)
        case .stale:
            let breath = Float(0.35 + 0.15 * Double.cos(2 * .pi * snapshot.phaseElapsed / 6))
            let stale = LinearColour(look.stale).scaled(by: breath)
            if let fraction = snapshot.fraction {
                painter.fill(&frame, fraction: fraction, colour: stale, track: look.trackLight)
            } else {
                frame.fill(stale.scaled(by: 0.3))
            }
        case .paused:
            // Held by a person: the fill (or the whole chain) in the tint, dimmed, breathing slowly.
            let breath = Float(0.3 + 0.15 * Double.cos(2 * .pi * snapshot.phaseElapsed / 4))
            if let fraction = snapshot.fraction {
                painter.fill(&frame, fraction: fraction, colour: look.tintLight.scaled(by: breath), track: look.trackLight)
            } else {
                frame.fill(look.tintLight.scaled(by: breath * 0.3))
            }
        default:
            drawActive(snapshot, look, painter, &frame)
        }
        if configuration.otherJobs > 0 {
            frame[layout.index(ofPosition: frame.count - 1, count: frame.count)] = LinearColour(red: 0.06, green: 0.06, blue: 0.06)
        }
        frame.scale(by: Float(look.brightness))
    }

    private func drawActive(_ snapshot: ProgressSnapshot, _ look: Appearance, _ painter: LEDPainter, _ frame: inout LEDFrame) {
        if snapshot.isEstimate, let fraction = snapshot.fraction {
            let overdue = snapshot.overdue != nil
            let colour = overdue ? LinearColour(look.overdue) : look.tintLight
            painter.fill(&frame, fraction: fraction, colour: colour, track: look.trackLight)
            // Every other LED of the fill dimmed: an estimate, not a report. Overdue, the dashes
            // trade places every second.
            let shift = overdue ? Int(snapshot.elapsed.rounded(.down)) % 2 : 0
            painter.dim(&frame, upTo: fraction, every: 2, offset: shift, by: 0.2)
            return
        }
        guard let fraction = snapshot.fraction else {
            drawIndeterminate(snapshot.elapsed, look, painter, &frame)
            return
        }
        let pulse = Float(0.8 + 0.2 * Double.cos(2 * .pi * snapshot.elapsed / 2))
        painter.fill(&frame, fraction: fraction, colour: look.tintLight, track: look.trackLight, edgeGain: pulse)
        if let since = snapshot.determinateFor, since < crossFade {
            var previous = LEDFrame(count: frame.count)
            drawIndeterminate(snapshot.elapsed, look, painter, &previous)
            frame = previous.mixed(with: frame, amount: Float(since / crossFade))
        }
    }

    private func drawIndeterminate(_ elapsed: Seconds, _ look: Appearance, _ painter: LEDPainter, _ frame: inout LEDFrame) {
        let count = Double(frame.count)
        if layout.isRing {
            let head = elapsed / period * count
            painter.comet(&frame, head: head, tail: max(2, count / 3), colour: look.tintLight, track: look.trackLight)
        } else {
            let width = max(2, count / 6)
            let travel = 0.5 - 0.5 * Double.cos(2 * .pi * elapsed / period)
            painter.segment(&frame, start: travel * (count - width), width: width, colour: look.tintLight, track: look.trackLight)
        }
    }

    private func drawStalled(_ snapshot: ProgressSnapshot, _ look: Appearance, _ painter: LEDPainter, _ frame: inout LEDFrame) {
        let breath = Float(0.5 - 0.5 * Double.cos(2 * .pi * snapshot.phaseElapsed / 3))
        let stalled = LinearColour(look.stalled)
        if let fraction = snapshot.fraction {
            painter.fill(&frame, fraction: fraction, colour: look.trackLight.mixed(with: stalled, amount: 0.35 + 0.65 * breath), track: look.trackLight)
        } else {
            frame.fill(look.trackLight.mixed(with: stalled, amount: 0.1 + 0.3 * breath))
        }
    }

    private func drawFinished(_ outcome: Outcome, _ snapshot: ProgressSnapshot, _ look: Appearance, _ painter: LEDPainter, _ frame: inout LEDFrame) {
        let elapsed = snapshot.phaseElapsed
        let left = (snapshot.phaseEndsAt ?? (snapshot.time + 1)) - snapshot.time
        let fadeOut = Float(min(1, max(0, left / 0.8)))
        switch outcome {
        case .succeeded:
            painter.fill(&frame, fraction: snapshot.fraction ?? 1, colour: look.tintLight, track: look.trackLight)
            let wash = Float(min(1, max(0, (elapsed - 0.3) / 0.3)))
            let solid = LEDFrame(count: frame.count, colour: LinearColour(look.success))
            frame = frame.mixed(with: solid, amount: wash)
        case .failed:
            let blinking = elapsed < 1.2 && elapsed.truncatingRemainder(dividingBy: 0.4) >= 0.25
            let colour = blinking ? look.trackLight : LinearColour(look.failure)
            painter.fill(&frame, fraction: max(snapshot.fraction ?? 1, 1 / Double(frame.count)), colour: colour, track: look.trackLight)
        case .cancelled:
            painter.fill(&frame, fraction: snapshot.fraction ?? 1, colour: LinearColour(look.cancelled).scaled(by: 0.5), track: look.trackLight)
        case .ended:
            painter.fill(&frame, fraction: snapshot.fraction ?? 1, colour: LinearColour(look.ended), track: look.trackLight)
        }
        frame.scale(by: fadeOut)
    }
}
