import HeadwayDevices
import HeadwayRender
import Synchronization

/// A chain of WS2812B (or SK6812) LEDs on a simulated MOSI line, modelled from the datasheet.
///
/// The SPI bytes are turned back into the waveform the LEDs would see at the bus's real clock; every
/// high and low time is measured and checked against the datasheet windows (T0H 0.4 µs, T1H 0.8 µs,
/// T0L 0.85 µs, T1L 0.45 µs, each ±150 ns; a bit 1.25 µs ± 600 ns; a latch after more than 280 µs of
/// low). Pulses outside the windows are recorded in ``violations``; bits are decoded by which window
/// their high time falls in, shifted into the chain LED by LED in the chip's own channel order, and
/// shown when the line has been low long enough to latch.
public final class VirtualWS2812Chain: SPITarget {
    /// The chips' own channel order: GRB for WS2812B, GRBW for SK6812 RGBW.
    public let order: ColourOrder
    /// How many LEDs.
    public let count: Int

    private static let zeroHigh = 0.25e-6...0.55e-6
    private static let zeroLow = 0.70e-6...1.00e-6
    private static let oneHigh = 0.65e-6...0.95e-6
    private static let oneLow = 0.30e-6...0.60e-6
    private static let period = 0.65e-6...1.85e-6
    private static let latch = 280e-6

    private struct State {
        var channels: [[UInt8]]
        var violations: [String] = []
        var frames = 0
    }

    private let state: Mutex<State>

    /// A chain of `count` WS2812s taking channels in `order`.
    public init(count: Int, order: ColourOrder = .grb) {
        self.count = count
        self.order = order
        state = Mutex(State(channels: Array(repeating: Array(repeating: 0, count: order.channels), count: count)))
    }

    /// Every pulse outside the datasheet's windows, and every frame out of place.
    public var violations: [String] { state.withLock { $0.violations } }
    /// How many frames the chain latched.
    public var framesLatched: Int { state.withLock { $0.frames } }

    /// Each LED's channels as the chip received them (in its own order: G, R, B[, W]).
    public var channels: [[UInt8]] { state.withLock { $0.channels } }

    /// The light each LED gives, as drive levels (white added to each colour for RGBW chips).
    public var levels: [RGB8] {
        channels.map { c in
            let white = order.hasWhite ? Int(c[3]) : 0
            let (r, g, b): (UInt8, UInt8, UInt8)
            switch order {
            case .rgb, .rgbw: (r, g, b) = (c[0], c[1], c[2])
            case .rbg: (r, g, b) = (c[0], c[2], c[1])
            case .grb, .grbw: (r, g, b) = (c[1], c[0], c[2])
            case .gbr: (r, g, b) = (c[2], c[0], c[1])
            case .brg: (r, g, b) = (c[1], c[2], c[0])
            case .bgr: (r, g, b) = (c[2], c[1], c[0])
            }
            return RGB8(red: UInt8(min(255, Int(r) + white)), green: UInt8(min(255, Int(g) + white)), blue: UInt8(min(255, Int(b) + white)))
        }
    }

    public func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8) {
        let runs = Self.runs(of: bytes)
        let bitTime = 1 / Double(hz)
        state.withLock { state in
            var problems: [String] = []
            if mode != 0 { problems.append("SPI mode \(mode): MOSI must idle low between bits (mode 0)") }
            guard let first = runs.first, !first.high, Double(first.length) * bitTime > Self.latch else {
                problems.append("the frame does not start with more than 280 µs of low (MOSI may rest high before it)")
                state.violations += problems
                return
            }
            var bits: [Bool] = []
            var index = 1
            var latched = false
            while index < runs.count {
                let high = Double(runs[index].length) * bitTime
                let low = index + 1 < runs.count ? Double(runs[index + 1].length) * bitTime : 0
                let bit: Bool
                if Self.zeroHigh.contains(high) {
                    bit = false
                } else if Self.oneHigh.contains(high) {
                    bit = true
                } else {
                    problems.append("bit \(bits.count): high for \(Self.micro(high)) µs, neither a 0 (0.25…0.55) nor a 1 (0.65…0.95)")
                    bit = high > 0.6e-6
                }
                bits.append(bit)
                if low > Self.latch {
                    latched = true
                    break
                }
                let lowWindow = bit ? Self.oneLow : Self.zeroLow
                if !lowWindow.contains(low) {
                    problems.append("bit \(bits.count - 1): low for \(Self.micro(low)) µs, outside \(Self.micro(lowWindow.lowerBound))…\(Self.micro(lowWindow.upperBound))")
                }
                if !Self.period.contains(high + low) {
                    problems.append("bit \(bits.count - 1) lasts \(Self.micro(high + low)) µs, outside 0.65…1.85")
                }
                index += 2
            }
            if !latched { problems.append("the frame does not end with more than 280 µs of low, so it never latches") }
            state.violations += problems
            guard latched else { return }
            let bitsPerLED = 8 * order.channels
            for led in 0..<min(count, bits.count / bitsPerLED) {
                state.channels[led] = (0..<order.channels).map { channel in
                    var value: UInt8 = 0
                    for bit in 0..<8 where bits[led * bitsPerLED + channel * 8 + bit] { value |= 0x80 >> UInt8(bit) }
                    return value
                }
            }
            if bits.count % bitsPerLED != 0 { state.violations.append("\(bits.count) bits is not a whole number of LEDs (\(bitsPerLED) bits each)") }
            state.frames += 1
        }
    }

    /// The line's level changes: runs of equal bits, MSB first.
    static func runs(of bytes: [UInt8]) -> [(high: Bool, length: Int)] {
        var runs: [(high: Bool, length: Int)] = []
        for byte in bytes {
            if byte == 0 || byte == 0xFF {  // fast path for reset bytes and solid runs
                let high = byte == 0xFF
                if let last = runs.last, last.high == high { runs[runs.count - 1].length += 8 } else { runs.append((high, 8)) }
                continue
            }
            for bit in 0..<8 {
                let high = byte & (0x80 >> UInt8(bit)) != 0
                if let last = runs.last, last.high == high { runs[runs.count - 1].length += 1 } else { runs.append((high, 1)) }
            }
        }
        return runs
    }

    private static func micro(_ seconds: Double) -> String {
        let thousandths = Int((seconds * 1e9).rounded())
        let fraction = thousandths % 1000
        return "\(thousandths / 1000).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
    }
}
