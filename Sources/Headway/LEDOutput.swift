import Synchronization

/// An LED chain (strip, ring, stick) drawn in a style, through a colour pipeline.
///
/// It keeps the levels it last sent, so a frame identical to the previous one is not sent at all
/// (an LED chain has no memory of its own to diff against: every frame that is sent is whole).
public final class LEDOutput: IndicatorOutput, RecordsShownFrames {
    /// A stretch of the chain showing one job: `range` indexes LEDs on the wire.
    public struct Segment: Sendable {
        /// The LEDs of the stretch, as indexes on the wire.
        public var range: Range<Int>
        /// The job and look drawn in the stretch.
        public var configuration: ProgressStyleConfiguration

        /// The stretch `range` of the chain showing `configuration`.
        public init(range: Range<Int>, configuration: ProgressStyleConfiguration) {
            self.range = range
            self.configuration = configuration
        }
    }

    private struct State {
        var lastLevels: [RGB8]?
        var dither = DitherState()
    }

    /// The chain drawn on.
    public let device: any LEDChainDevice
    /// How progress runs over the chain (a ring is never split between jobs).
    public let layout: LEDLayout
    /// The style each frame is drawn in.
    public let style: any ProgressStyle<LEDFrame>
    /// Turns each frame's light into the chain's drive levels: gamma, the current budget, dithering.
    public let pipeline: ColourPipeline
    private let state = Mutex(State())
    /// The levels the chain last took.
    public let record = ShownRecord()

    /// `device` drawn in `style` (default: the built-in strip or ring style for `layout`).
    public init(_ device: any LEDChainDevice, layout: LEDLayout = .strip, style: (any ProgressStyle<LEDFrame>)? = nil, pipeline: ColourPipeline = ColourPipeline()) {
        self.device = device
        self.layout = layout
        self.style = style ?? LEDIndicatorStyle(layout: layout)
        self.pipeline = pipeline
    }

    /// The number of LEDs in the chain.
    public var count: Int { device.count }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        try draw(segments: [Segment(range: 0..<device.count, configuration: configuration)])
    }

    /// Draws each segment's job in its stretch of the chain; LEDs outside every segment are dark.
    public func draw(segments: [Segment]) throws(DeviceError) {
        let time = segments.first?.configuration.time ?? 0
        try state.withLock { (state: inout State) throws(DeviceError) in
            var frame = LEDFrame(count: device.count)
            for segment in segments {
                let range = segment.range.clamped(to: 0..<device.count)
                guard !range.isEmpty else { continue }
                if range.count == device.count {
                    style.render(segment.configuration, into: &frame)
                    continue
                }
                var part = LEDFrame(count: range.count)
                style.render(segment.configuration, into: &part)
                for (offset, led) in range.enumerated() { frame[led] = part[offset] }
            }
            let levels = pipeline.levels(for: frame, dither: &state.dither)
            guard state.lastLevels != levels else { return }
            state.lastLevels = nil  // unknown until the chain has taken the frame
            do throws(DeviceError) {
                try device.show(levels)
            } catch {
                record.failed(error.message)
                throw error
            }
            state.lastLevels = levels
            record.took(.leds(levels), bytes: levels.count * 3, at: time)
        }
    }
}
