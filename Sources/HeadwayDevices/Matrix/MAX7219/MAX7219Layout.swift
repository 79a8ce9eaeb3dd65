/// The modules a chain of MAX7219s drives, one module per device.
public enum MAX7219Layout: String, Sendable, CaseIterable {
    /// FC-16 8x8 blocks in a row (the "4-in-1" 32x8 module is a chain of four): seen with DIN on
    /// the right, DIG0 is the top row, the columns are DP, A … G (data bits 7 … 0) from the left,
    /// and the devices chain from right to left (MajicDesigns/MD_MAX72XX `src/MD_MAX72xx_lib.h`,
    /// "FC-16 Module").
    case fc16
    /// 8-digit 7-segment modules side by side: DIG0 the rightmost digit of each, the devices
    /// chained right to left (rm-hull/luma.core `virtual.py` `sevensegment` with luma.led_matrix's
    /// `max7219.display`; uLisp's "MAX7219 8-Digit Display Module" writes its leftmost digit to DIG7).
    case segments8

    /// A chain of `devices` as its makers draw it (before any rotation).
    func naturalFace(devices: Int) -> MatrixFace {
        switch self {
        case .fc16: .pixels(width: 8 * devices, height: 8, dies: .onOff)
        case .segments8: .segments(count: 8 * devices, kind: .seven, colon: false)
        }
    }

    /// The device, digit (0–7) and data bit of an FC-16 row's position (`x`, `y`), DIN on the right.
    static func fc16Bit(x: Int, y: Int, devices: Int) -> (device: Int, digit: Int, bit: Int) {
        (devices - 1 - x / 8, y, 7 - x % 8)
    }

    /// The device and digit of a 7-segment module's digit `place`, 0 the leftmost.
    static func segmentDigit(_ place: Int, devices: Int) -> (device: Int, digit: Int) {
        (devices - 1 - place / 8, 7 - place % 8)
    }

    /// The segments of data bits 7 … 0 in no-decode mode: DP, A, B, C, D, E, F, G (Table 6, p. 8).
    static let segmentBits: [SegmentSet] = [.dp, .a, .b, .c, .d, .e, .f, .g]
}

/// The MAX7219's registers (Table 2, p. 7): a 16-bit word is D11–D8 the address, D7–D0 the data
/// (Table 1, p. 6).
enum MAX7219Register: UInt8 {
    case noOp = 0x0
    case digit0 = 0x1
    case decodeMode = 0x9
    case intensity = 0xA
    case scanLimit = 0xB
    case shutdown = 0xC
    case displayTest = 0xF
}
