/// The WS2812B's bit timing (Worldsemi WS2812B datasheet): a 0 is 0.4 µs high then 0.85 µs low, a
/// 1 is 0.8 µs high then 0.45 µs low, each ±150 ns, a bit 1.25 µs ± 600 ns; newer parts latch after
/// more than 280 µs of low, so Headway sends at least 300 µs of low before and after each frame.
/// SK6812 parts are driven with the same timing.
public enum WS2812Timing {
    /// How long a 0 bit is high, in seconds.
    public static let zeroHigh = 0.25e-6...0.55e-6
    /// How long a 0 bit is low.
    public static let zeroLow = 0.70e-6...1.00e-6
    /// How long a 1 bit is high.
    public static let oneHigh = 0.65e-6...0.95e-6
    /// How long a 1 bit is low.
    public static let oneLow = 0.30e-6...0.60e-6
    /// How long a whole bit may take.
    public static let bitPeriod = 0.65e-6...1.85e-6
    /// The low time sent before and after each frame.
    public static let resetSeconds = 300e-6
}

/// How LED bits become SPI bits: each LED bit is `bitsPerLEDBit` SPI bits, the first
/// `zeroHighBits` (for a 0) or `oneHighBits` (for a 1) of them high.
public enum WS2812Encoding: String, Sendable, Equatable, CaseIterable {
    /// 3 SPI bits a bit (`100`, `110`) at 2.4 MHz: 9 bytes per RGB LED, the most LEDs per buffer.
    case threeBit
    /// 4 SPI bits a bit (`1000`, `1110`) at 3.2 MHz: 12 bytes per RGB LED.
    case fourBit
    /// 8 SPI bits a bit (`11000000`, `11111000`) at 6.4 MHz: 24 bytes per RGB LED.
    case eightBit

    /// SPI bits per LED bit.
    public var bitsPerLEDBit: Int {
        switch self {
        case .threeBit: 3
        case .fourBit: 4
        case .eightBit: 8
        }
    }

    var zeroHighBits: Int {
        switch self {
        case .threeBit, .fourBit: 1
        case .eightBit: 2
        }
    }

    var oneHighBits: Int {
        switch self {
        case .threeBit: 2
        case .fourBit: 3
        case .eightBit: 5
        }
    }

    /// The speed each encoding is designed for.
    public var nominalSpeedHz: UInt32 {
        switch self {
        case .threeBit: 2_400_000
        case .fourBit: 3_200_000
        case .eightBit: 6_400_000
        }
    }

    /// Where the pulses at `hz` fall outside the WS2812 windows; empty when the clock works.
    public func violations(atHz hz: UInt32) -> [String] {
        let bit = 1 / Double(hz)
        let n = Double(bitsPerLEDBit)
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("a 0 bit is high for", Double(zeroHighBits) * bit, WS2812Timing.zeroHigh),
            ("a 0 bit is low for", (n - Double(zeroHighBits)) * bit, WS2812Timing.zeroLow),
            ("a 1 bit is high for", Double(oneHighBits) * bit, WS2812Timing.oneHigh),
            ("a 1 bit is low for", (n - Double(oneHighBits)) * bit, WS2812Timing.oneLow),
            ("a bit lasts", n * bit, WS2812Timing.bitPeriod),
        ]
        return checks.compactMap { name, seconds, window in
            window.contains(seconds) ? nil : "\(name) \(microseconds(seconds)) µs, outside \(microseconds(window.lowerBound))…\(microseconds(window.upperBound)) µs"
        }
    }

    /// The range of clocks at which this encoding meets every window.
    public var validSpeeds: ClosedRange<Double> {
        let n = Double(bitsPerLEDBit), z = Double(zeroHighBits), o = Double(oneHighBits)
        let bounds: [(Double, ClosedRange<Double>)] = [
            (z, WS2812Timing.zeroHigh), (n - z, WS2812Timing.zeroLow), (o, WS2812Timing.oneHigh),
            (n - o, WS2812Timing.oneLow), (n, WS2812Timing.bitPeriod),
        ]
        let low = bounds.map { $0.0 / $0.1.upperBound }.max()!
        let high = bounds.map { $0.0 / $0.1.lowerBound }.min()!
        return low...max(low, high)
    }

    /// The SPI bytes for one colour byte, most significant LED bit first.
    func encode(_ byte: UInt8) -> [UInt8] {
        var bits: [Bool] = []
        for index in (0..<8).reversed() {
            let high = byte & (1 << UInt8(index)) != 0 ? oneHighBits : zeroHighBits
            for position in 0..<bitsPerLEDBit { bits.append(position < high) }
        }
        var bytes: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            var value: UInt8 = 0
            for (offset, bit) in bits[start..<start + 8].enumerated() where bit { value |= 0x80 >> UInt8(offset) }
            bytes.append(value)
        }
        return bytes
    }
}

func microseconds(_ seconds: Double) -> String {
    let hundredths = Int((seconds * 1e8).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
