import HeadwayCore
import Synchronization

/// An LED chain laid out as a matrix (WS2812 panels of 8x8, 16x16 or 32x8, tiled or not): each
/// picture is put on the chain in its wiring order and sent whole, as a chain takes every frame.
/// A chain cannot blink: a blinking frame is sent dark and light by the driver's clock. LEDs past
/// the matrix stay dark.
public final class LEDChainMatrix: LEDMatrixDevice {
    /// The chain drawn on.
    public let chain: any LEDChainDevice
    /// How its LEDs are laid out.
    public let layout: ChainMatrixLayout
    public let face: MatrixFace
    private let clock: any ProgressClock
    private let indexes: [Int]

    private struct State {
        var sent: [RGB8]?
        var blinkClock = BlinkClock()
    }

    private let state = Mutex(State())

    /// `chain` as the matrix `layout` says (its LEDs must be at least the layout's), blinking on `clock`.
    public init(_ chain: any LEDChainDevice, layout: ChainMatrixLayout, clock: any ProgressClock = MonotonicClock()) {
        precondition(layout.ledCount <= chain.count, "a matrix larger than its chain")
        self.chain = chain
        self.layout = layout
        self.clock = clock
        let size = layout.faceSize
        face = .pixels(width: size.width, height: size.height, dies: .rgb)
        indexes = (0..<size.height).flatMap { y in (0..<size.width).map { x in layout.index(x: x, y: y) } }
    }

    public func show(_ frame: MatrixFrame) throws(DeviceError) {
        if let mismatch = mismatch(frame) { throw mismatch }
        guard case .pixels(let picture) = frame.content else { return }
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            var levels = [RGB8](repeating: .off, count: chain.count)
            if !state.blinkClock.isOff(frame.blink, at: now) {
                for (position, index) in indexes.enumerated() { levels[index] = picture.levels[position] }
            }
            guard state.sent != levels else { return }
            state.sent = nil  // unknown until the chain has taken it
            try chain.show(levels)
            state.sent = levels
        }
    }
}
