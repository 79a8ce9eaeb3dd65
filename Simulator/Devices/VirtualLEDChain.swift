import HeadwayDevices
import HeadwayRender
import Synchronization

/// A simulated LED chain: holds the drive levels its LEDs were last given and what light that is.
public final class VirtualLEDChain: LEDChainDevice {
    public let name: String
    public let count: Int
    public let layout: LEDLayout
    /// Maps drive levels back to emitted light, for showing the chain on a screen.
    public let pipeline: ColourPipeline
    private let state: Mutex<(levels: [RGB8], frames: Int)>

    public init(name: String, count: Int, layout: LEDLayout, pipeline: ColourPipeline = ColourPipeline()) {
        precondition(count > 0, "an LED chain needs at least one LED")
        self.name = name
        self.count = count
        self.layout = layout
        self.pipeline = pipeline
        state = Mutex((Array(repeating: .off, count: count), 0))
    }

    public func show(_ levels: [RGB8]) throws(DeviceError) {
        guard levels.count == count else {
            throw DeviceError(.unsupported, "\(name) has \(count) LEDs but was sent \(levels.count)")
        }
        state.withLock { $0 = (levels, $0.frames + 1) }
    }

    /// The levels the LEDs were last driven at.
    public var levels: [RGB8] { state.withLock { $0.levels } }
    /// How many frames the chain has received.
    public var framesReceived: Int { state.withLock { $0.frames } }
    /// The light each LED gives now.
    public var light: [LinearColour] { levels.map(pipeline.light(for:)) }
}
