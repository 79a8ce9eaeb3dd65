import HeadwaySurfaces

/// The MAX7219 modules the simulator models; a chain of N devices makes a row of N blocks or
/// N 8-digit modules.
public enum MAX7219Module: Sendable, Hashable {
    /// FC-16 8x8 blocks in a row, one per device: the common "4-in-1" 32x8 module is a chain of 4.
    case fc16Matrix(orientation: FC16Orientation = .dinOnRight, colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))
    /// 8-digit 7-segment modules, one per device, side by side.
    case segments8(colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))

    /// The module's name in messages.
    public var name: String {
        switch self {
        case .fc16Matrix: "FC-16 8x8 matrix"
        case .segments8: "8-digit 7-segment display"
        }
    }

    /// The chip output behind a die: device × 64 + digit × 8 + data bit.
    static func output(device: Int, digit: Int, bit: Int) -> Int { device * 64 + digit * 8 + bit }

    func wiring(devices: Int) -> LEDWiring {
        switch self {
        case .fc16Matrix(let orientation, let colour):
            // MajicDesigns/MD_MAX72XX@b852c70 `src/MD_MAX72xx_lib.h`, "FC-16 Module": seen with DIN
            // on the right, DIG0 is the top row and DIG7 the bottom, the columns are DP, A … G (data
            // bits 7 … 0) from the left, and blocks chain from right to left. Turned round (DIN on
            // the left) it is the block layout luma.led_matrix draws with `block_orientation=-90`
            // (rm-hull/luma.led_matrix@22373ae `luma/led_matrix/device.py`, `doc/python-usage.rst`
            // "Trouble-shooting"): device 0 at the left, data bit n in column n, DIG0 at the bottom.
            var wires: [LEDWiring.Wire] = []
            for device in 0..<devices {
                for digit in 0..<8 {
                    for bit in 0..<8 {
                        let (x, y): (Int, Int)
                        switch orientation {
                        case .dinOnRight: (x, y) = ((devices - 1 - device) * 8 + 7 - bit, digit)
                        case .dinOnLeft: (x, y) = (device * 8 + bit, 7 - digit)
                        }
                        wires.append(.init(output: Self.output(device: device, digit: digit, bit: bit), x: x, y: y, colour: colour))
                    }
                }
            }
            return LEDWiring(width: 8 * devices, height: 8, wires: wires)
        case .segments8(let colour):
            // Segment lines per Table 6 (D7 = DP, D6 = A … D0 = G); DIG0 is the rightmost digit and
            // devices chain from right to left: luma.core@89bd48f `luma/core/virtual.py`
            // (`sevensegment._flush` draws the text reversed from x = 0) with luma.led_matrix's
            // `max7219.display` (column x to device x / 8, digit x mod 8); uLisp's "MAX7219 8-Digit
            // Display Module" page writes its leftmost digit to DIG7.
            let bits: [Segment] = [.g, .f, .e, .d, .c, .b, .a, .dp]
            var wires: [LEDWiring.Wire] = []
            for device in 0..<devices {
                for digit in 0..<8 {
                    let place = (devices - 1 - device) * 8 + 7 - digit
                    for (bit, segment) in bits.enumerated() {
                        wires.append(.init(output: Self.output(device: device, digit: digit, bit: bit), x: place, y: 0, colour: colour, segment: segment))
                    }
                }
            }
            return LEDWiring(width: 8 * devices, height: 1, wires: wires, digits: 8 * devices)
        }
    }
}

/// Which way round an FC-16 row is held.
public enum FC16Orientation: Sendable, Hashable {
    /// DIN (the host's connector) on the right, as MD_MAX72XX documents the FC-16.
    case dinOnRight
    /// Turned round: DIN on the left, as luma.led_matrix's `block_orientation=-90` draws it.
    case dinOnLeft
}
