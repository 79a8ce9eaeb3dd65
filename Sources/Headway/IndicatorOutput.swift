import Synchronization

/// One place an indicator is shown: an LED chain or a display, with the style it is drawn in.
///
/// An output remembers what it last sent, so a frame identical to the previous one is not sent at
/// all, and a display gets only the part of the picture that changed.
public final class IndicatorOutput: Sendable {
    private enum Target {
        case leds(any LEDChainDevice, any ProgressStyle<LEDFrame>, ColourPipeline)
        case display(any MonochromeDisplayDevice, any ProgressStyle<Bitmap>)
        case lines(any LineLevelsDevice, any ProgressStyle<LineLevels>)
    }

    private struct State {
        var lastLevels: [RGB8]?
        var lastLines: [Bool]?
        var dither = DitherState()
        var shown: Bitmap?
        var brightness: Double?
    }

    private let target: Target
    private let state = Mutex(State())

    /// An LED chain drawn in `style` (default: the built-in strip or ring style for `layout`).
    public init(leds device: any LEDChainDevice, layout: LEDLayout = .strip, style: (any ProgressStyle<LEDFrame>)? = nil, pipeline: ColourPipeline = ColourPipeline()) {
        target = .leds(device, style ?? LEDIndicatorStyle(layout: layout), pipeline)
    }

    /// A display drawn in `style` (default: ``BarScreenStyle``).
    public init(display device: any MonochromeDisplayDevice, style: any ProgressStyle<Bitmap> = BarScreenStyle()) {
        target = .display(device, style)
    }

    /// Plain GPIO LEDs drawn in `style` (default: ``BarGraphStyle``; ``StatusLEDStyle`` for one LED).
    public init(lines device: any LineLevelsDevice, style: (any ProgressStyle<LineLevels>)? = nil) {
        target = .lines(device, style ?? (device.count == 1 ? StatusLEDStyle() : BarGraphStyle()))
    }

    /// Whether this output is an LED chain that can show several jobs side by side.
    public var canShowSegments: Bool {
        if case .leds(let device, _, _) = target { return device.count >= 16 }
        return false
    }

    /// Draws `configuration` and sends it if it differs from what the device shows.
    /// Returns whether anything was sent.
    @discardableResult
    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) -> Bool {
        try draw(segments: [configuration])
    }

    /// Draws several jobs side by side on an LED chain (each gets an equal segment, the first
    /// segment first on the wire); other outputs draw the first job only.
    @discardableResult
    public func draw(segments configurations: [ProgressStyleConfiguration]) throws(DeviceError) -> Bool {
        guard let configuration = configurations.first else { return false }
        switch target {
        case .leds(let device, let style, let pipeline):
            var frame = LEDFrame(count: device.count)
            if configurations.count == 1 {
                style.render(configuration, into: &frame)
            } else {
                let size = device.count / configurations.count
                for (index, part) in configurations.enumerated() {
                    let start = index * size
                    let length = index == configurations.count - 1 ? device.count - start : size
                    var segment = LEDFrame(count: length)
                    style.render(part, into: &segment)
                    for led in 0..<length { frame[start + led] = segment[led] }
                }
            }
            let levels = state.withLock { pipeline.levels(for: frame, dither: &$0.dither) }
            guard state.withLock({ $0.lastLevels }) != levels else { return false }
            do {
                try device.show(levels)
            } catch {
                state.withLock { $0.lastLevels = nil }
                throw error
            }
            state.withLock { $0.lastLevels = levels }
            return true
        case .lines(let device, let style):
            var levels = LineLevels(count: device.count)
            style.render(configuration, into: &levels)
            guard state.withLock({ $0.lastLines }) != levels.values else { return false }
            do {
                try device.show(levels.values)
            } catch {
                state.withLock { $0.lastLines = nil }
                throw error
            }
            state.withLock { $0.lastLines = levels.values }
            return true
        case .display(let device, let style):
            let brightness = configuration.appearance.brightness
            if state.withLock({ $0.brightness }) != brightness {
                try device.setBrightness(brightness)
                state.withLock { $0.brightness = brightness }
            }
            var fresh = Bitmap(width: device.width, height: device.height)
            style.render(configuration, into: &fresh)
            var shown = state.withLock { $0.shown } ?? Self.unknownContents(width: device.width, height: device.height)
            shown.update(to: fresh)
            guard shown.damage != nil else { return false }
            do {
                try device.show(shown)
            } catch {
                state.withLock { $0 = State() }  // the display's contents and settings are unknown now
                throw error
            }
            shown.clearDamage()
            state.withLock { $0.shown = shown }
            return true
        }
    }

    /// A bitmap whose every pixel counts as changed: what we assume a display shows before the first
    /// frame and after an error.
    private static func unknownContents(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        bitmap.fill(bitmap.bounds)
        bitmap.clear()
        return bitmap
    }
}
