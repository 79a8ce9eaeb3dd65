import RealModule

/// Drawing primitives along an ``LEDLayout``, in progress positions (0 = where a fill begins).
/// Positions are continuous: position 2.5 is half-way through the third LED, which is what lets
/// every primitive move smoothly instead of jumping a whole LED at a time.
public struct LEDPainter {
    /// How progress runs over the chain.
    public let layout: LEDLayout

    /// A painter for `layout`.
    public init(layout: LEDLayout) { self.layout = layout }

    /// Fills the first `fraction` of the chain with `colour` over `track`; the LED the fill ends in
    /// gets the blend (in linear light) of the two by how much of it is covered. The last lit LED's
    /// light is multiplied by `edgeGain` (the liveness pulse).
    public func fill(_ frame: inout LEDFrame, fraction: Double, colour: LinearColour, track: LinearColour, edgeGain: Float = 1) {
        let count = frame.count
        guard count > 0 else { return }
        let lit = min(Double(count), max(0, fraction * Double(count)))
        let full = Int(lit.rounded(.down))
        let partial = Float(lit - Double(full))
        for position in 0..<count {
            let led = layout.index(ofPosition: position, count: count)
            if position < full {
                frame[led] = colour
            } else if position == full, partial > 0 {
                frame[led] = track.mixed(with: colour, amount: partial)
            } else {
                frame[led] = track
            }
        }
        let edge = partial > 0 ? full : full - 1
        if edgeGain != 1, edge >= 0, edge < count {
            let led = layout.index(ofPosition: edge, count: count)
            frame[led] = track.mixed(with: frame[led], amount: edgeGain)
        }
    }

    /// A comet: a bright head at `head` (in positions, wrapping round the chain) and a tail that fades
    /// over `tail` LEDs behind it, over `track`.
    public func comet(_ frame: inout LEDFrame, head: Double, tail: Double, colour: LinearColour, track: LinearColour) {
        let count = frame.count
        guard count > 0 else { return }
        let n = Double(count)
        let wrappedHead = (head.truncatingRemainder(dividingBy: n) + n).truncatingRemainder(dividingBy: n)
        for position in 0..<count {
            var behind = wrappedHead - Double(position)
            if behind < -1 { behind += n }
            let intensity: Double
            if behind < 0 {
                intensity = 1 + behind  // the LED the head is entering: anti-aliased leading edge
            } else {
                intensity = behind > tail ? 0 : Double.exp(-3 * behind / max(tail, 0.5))
            }
            let led = layout.index(ofPosition: position, count: count)
            frame[led] = track.mixed(with: colour, amount: Float(intensity))
        }
    }

    /// A lit segment covering positions `start..<start+width`, each LED lit by how much of it is covered.
    public func segment(_ frame: inout LEDFrame, start: Double, width: Double, colour: LinearColour, track: LinearColour) {
        let count = frame.count
        for position in 0..<count {
            let low = max(Double(position), start)
            let high = min(Double(position + 1), start + width)
            let coverage = max(0, high - low)
            let led = layout.index(ofPosition: position, count: count)
            frame[led] = track.mixed(with: colour, amount: Float(coverage))
        }
    }

    /// Dims every `every`-th LED of the first `fraction` of the chain (starting `offset` positions
    /// in) to `factor` of its light: a dashed fill.
    public func dim(_ frame: inout LEDFrame, upTo fraction: Double, every: Int, offset: Int, by factor: Float) {
        let count = frame.count
        let lit = Int((min(1, max(0, fraction)) * Double(count)).rounded(.up))
        for position in stride(from: offset % every, to: min(lit, count), by: every) {
            let led = layout.index(ofPosition: position, count: count)
            frame[led] = frame[led].scaled(by: factor)
        }
    }
}
