import HeadwaySurfaces

/// A chain of addressable LEDs (a strip, a ring, a stick) that a driver lights.
///
/// The driver gets drive levels already through the colour pipeline and puts them on the wire in
/// its chip's format (colour order, encoding, latch); a simulator decodes what would arrive. The
/// whole contract is this one call, as smart-leds' `SmartLedsWrite`.
public protocol LEDChainDevice: AnyObject, Sendable {
    /// How many LEDs the chain has.
    var count: Int { get }
    /// Shows `levels` (one per LED, index 0 first on the wire).
    func show(_ levels: [RGB8]) throws(DeviceError)
}
