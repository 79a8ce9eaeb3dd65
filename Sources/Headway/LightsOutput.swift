import Synchronization

/// Plain on/off LEDs on GPIO lines (a bar graph or a status LED) drawn in a style. Like an LED
/// chain, it skips frames identical to the last one sent.
public final class LightsOutput: IndicatorOutput, RecordsShownFrames {
    /// The GPIO LEDs drawn on.
    public let device: any LineLevelsDevice
    /// The style each frame is drawn in (a bar graph, or a status LED's blinking).
    public let style: any ProgressStyle<LineLevels>
    private let lastSent = Mutex<[Bool]?>(nil)
    /// The levels the LEDs last took.
    public let record = ShownRecord()

    /// `device` drawn in `style` (default: ``/HeadwayRender/BarGraphStyle``; ``/HeadwayRender/StatusLEDStyle`` for one LED).
    public init(_ device: any LineLevelsDevice, style: (any ProgressStyle<LineLevels>)? = nil) {
        self.device = device
        self.style = style ?? (device.count == 1 ? StatusLEDStyle() : BarGraphStyle())
    }

    /// Whether the lines are one RGB LED's red, green and blue (the Display HAT Mini's), not
    /// separate lamps: what shows it (the page) draws one LED of their colour.
    package var isOneRGBLED: Bool { device.count == 3 && style is RGBStatusLEDStyle }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        try lastSent.withLock { (last: inout [Bool]?) throws(DeviceError) in
            var levels = LineLevels(count: device.count)
            style.render(configuration, into: &levels)
            guard last != levels.values else { return }
            last = nil
            do throws(DeviceError) {
                try device.show(levels.values)
            } catch {
                record.failed(error.message)
                throw error
            }
            last = levels.values
            record.took(.lights(levels.values), bytes: levels.values.count, at: configuration.time)
        }
    }
}
