import HeadwayCore

/// The built-in style for an RGB status LED on three GPIO lines (red, green, blue), such as the
/// Display HAT Mini's: ``StatusLEDStyle``'s blinking, in the colour of what the job is doing — the
/// tint while it runs, the stalled, stale or overdue colour, the outcome's colour when it ends.
/// Each line is on or off, so a colour is shown by the channels at least half as bright as its
/// brightest (the tint #00a0ff lights green and blue: cyan; the stalled #ff9000 red and green:
/// yellow). An idle LED shows failures nobody has seen in the failure colour.
public struct RGBStatusLEDStyle: ProgressStyle {
    /// The RGB status LED style.
    public init() {}

    public func render(_ configuration: ProgressStyleConfiguration, into levels: inout LineLevels) {
        let snapshot = configuration.snapshot
        let look = configuration.appearance
        levels = LineLevels(count: levels.count)
        guard levels.count == 3 else { return }
        guard snapshot.isVisible else {
            if configuration.notices.unseenFailures > 0 { Self.light(look.failure, &levels) }
            return
        }
        guard StatusLEDStyle.isLit(snapshot), look.brightness > 0 else { return }
        let colour: Colour = switch snapshot.phase {
        case .finished(.succeeded): look.success
        case .finished(.failed): look.failure
        case .finished(.cancelled): look.cancelled
        case .finished(.ended): look.ended
        case .stalled: look.stalled
        case .stale: look.stale
        default: snapshot.overdue != nil ? look.overdue : look.tint
        }
        Self.light(colour, &levels)
    }

    /// Lights the lines of the channels of `colour` at least half as bright as its brightest.
    static func light(_ colour: Colour, _ levels: inout LineLevels) {
        let brightest = max(colour.red, colour.green, colour.blue)
        guard brightest > 0 else { return }
        for (index, channel) in [colour.red, colour.green, colour.blue].enumerated() { levels[index] = 2 * Int(channel) >= Int(brightest) }
    }
}
