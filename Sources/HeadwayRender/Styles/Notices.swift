import HeadwayCore

/// What an output with no job to show may still tell a person: how the last job went, and that
/// jobs failed while quiet hours kept the outputs dim or dark. Styles draw them on idle frames
/// only, small and still, so that they never read as progress.
public struct Notices: Sendable, Equatable {
    /// The last job's result, kept up for a while after its signal (displays show it).
    public var lastResult: LastResult?
    /// Jobs that failed during quiet hours and that nobody has seen since (a button press, or the
    /// next job, clears them).
    public var unseenFailures: Int

    /// Notices of each kind given.
    public init(lastResult: LastResult? = nil, unseenFailures: Int = 0) {
        self.lastResult = lastResult
        self.unseenFailures = max(0, unseenFailures)
    }

    /// Nothing to tell.
    public static let none = Notices()
}

/// How a job ended, and when, as a display keeps it up after the job's signal.
public struct LastResult: Sendable, Equatable {
    /// How the job ended.
    public var outcome: Outcome
    /// What the job was.
    public var label: String?
    /// The local time of day it ended ("14:02").
    public var endedAt: String

    /// The result of a job that ended with `outcome` at `endedAt`.
    public init(outcome: Outcome, label: String?, endedAt: String) {
        self.outcome = outcome
        self.label = label
        self.endedAt = endedAt
    }
}

extension ScreenParts {
    /// An idle display's notices: the last result as a small icon with "Done at 14:02" and the
    /// label, centred; unseen failures as "!" (with their count when more than one) boxed in the
    /// top-right corner.
    static func notices<S: DisplaySurface>(_ surface: inout S, _ notices: Notices, font: BitmapFont) {
        if let result = notices.lastResult {
            let icon = 12, lines = result.label == nil ? 1 : 2
            let height = max(icon, lines * (font.cellHeight + 3))
            let top = (surface.height - height) / 2
            ScreenParts.icon(&surface, outcome: result.outcome, rect: PixelRect(x: 2, y: top, width: icon, height: icon))
            let textX = icon + 6
            let word = switch result.outcome {
            case .succeeded: "Done"
            case .failed: "Failed"
            case .cancelled: "Cancelled"
            case .ended: "Ended"
            }
            surface.draw(font.truncated("\(word) at \(result.endedAt)", toFit: surface.width - textX), x: textX, y: top, font: font)
            if let label = result.label {
                surface.draw(font.truncated(label, toFit: surface.width - textX), x: textX, y: top + font.cellHeight + 3, font: font)
            }
        }
        if notices.unseenFailures > 0 {
            let text = notices.unseenFailures > 1 ? "!\(min(notices.unseenFailures, 99))" : "!"
            let width = font.width(of: text) + 3
            let box = PixelRect(x: surface.width - width, y: 0, width: width, height: font.cellHeight + 3)
            surface.fill(box, level: 0)
            surface.stroke(box, shade: .full)
            surface.draw(text, x: box.x + 2, y: 2, font: font)
        }
    }
}

extension LEDFrame {
    /// An idle chain's notice: its last LED (never where progress starts) dim in the failure colour,
    /// whatever the brightness (quiet hours may have turned that to nothing).
    mutating func markUnseenFailures(_ notices: Notices, appearance: Appearance) {
        guard notices.unseenFailures > 0, count > 0 else { return }
        self[count - 1] = LinearColour(appearance.failure).scaled(by: 0.08)
    }
}

extension LineLevels {
    /// Idle GPIO LEDs' notice: the last one lit (a bar fills from the first, so the last alone is
    /// never progress; a single status LED simply stays on).
    mutating func markUnseenFailures(_ notices: Notices) {
        guard notices.unseenFailures > 0, count > 0 else { return }
        self[count - 1] = true
    }
}
