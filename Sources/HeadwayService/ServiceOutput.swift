import Headway

/// One output of the service: what it is, at most how often it draws, and what it last failed with.
/// Owned by the service's loop (not shared between threads).
public final class ServiceOutput {
    /// What the output is.
    public enum Medium {
        /// An LED chain.
        case leds(LEDOutput)
        /// A display.
        case display(DisplayOutput)
        /// Plain GPIO LEDs.
        case lights(LightsOutput)
    }

    /// Its name.
    public let name: String
    /// What it is.
    public let medium: Medium
    /// The output's useful rate: more frames than this are not drawn.
    public let framesPerSecond: Double
    private(set) var lastDrawn = -Double.infinity
    private var lastFailure: String?
    /// Which jobs it shows, and where (kept from frame to frame: shown jobs stay put).
    var layout = OutputLayout()

    /// When it keeps quiet (nil: never).
    public let quietHours: QuietHours?
    /// How long and how bright a display keeps the last result up (displays only).
    public let care: OutputCare
    /// The last result it shows once the job's signal is over, and until when.
    var lastResult: (result: LastResult, until: Seconds)?
    /// The timer whose next elapse it counts down to while idle.
    public let countdown: TimerCountdown?
    /// Whether its last frame was that countdown.
    var showedCountdown = false

    /// An output called `name` drawing at most `framesPerSecond`, counting down to `countdown`'s
    /// next elapse while idle.
    public init(
        name: String, medium: Medium, framesPerSecond: Double, quietHours: QuietHours? = nil, care: OutputCare = .off, countdown: TimerCountdown? = nil
    ) {
        self.name = name
        self.medium = medium
        self.framesPerSecond = framesPerSecond
        self.quietHours = quietHours
        self.care = care
        self.countdown = countdown
    }

    /// Whether it is a display (which shows last results).
    var isDisplay: Bool {
        if case .display = medium { return true }
        return false
    }

    /// What draws it, whatever the medium.
    public var indicatorOutput: any IndicatorOutput { output }

    var output: any IndicatorOutput {
        switch medium {
        case .leds(let output): output
        case .display(let output): output
        case .lights(let output): output
        }
    }

    /// The LEDs of a chain laid out as a strip, when it is one (the only output split between jobs).
    var stripLength: Int? {
        if case .leds(let output) = medium, !output.layout.isRing { return output.count }
        return nil
    }

    /// When the next frame is due.
    var nextFrame: Seconds { lastDrawn + 1 / framesPerSecond }

    /// Whether a frame is due at `now`.
    func isDue(at now: Seconds) -> Bool { now >= nextFrame - 1e-9 }

    /// Draws `drawing`: whether it reached the device, and a message when the output failed in a
    /// new way or recovered (so a display that stays unplugged is reported once, not twenty times a
    /// second).
    func draw(_ drawing: OutputLayout.Drawing, at now: Seconds) -> (drawn: Bool, message: String?) {
        lastDrawn = now
        do throws(DeviceError) {
            switch (drawing, medium) {
            case (.segments(let segments), .leds(let chain)): try chain.draw(segments: segments)
            case (.segments, _): break  // the layout gives segments to LED chains only
            case (.one(let configuration), _): try output.draw(configuration)
            }
            defer { lastFailure = nil }
            return (true, lastFailure != nil ? "\(name): working again" : nil)
        } catch {
            let message = "\(name): \(error.message)"
            defer { lastFailure = message }
            return (false, lastFailure != message ? message : nil)
        }
    }
}
