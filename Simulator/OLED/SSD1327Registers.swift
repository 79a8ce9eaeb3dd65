import HeadwayDevices

/// The state of an SSD1327 (Solomon Systech SSD1327 Rev 1.8): 128 x 128 x 4-bit display RAM and
/// every register Table 8-1 writes, starting at their reset values. Bytes come in through
/// `take(_:isData:)`; the glass is worked out in `SSD1327Glass.swift`.
public struct SSD1327Registers: Sendable, OLEDCommandInput {
    /// What the glass shows (commands 0xA4…0xA7).
    public enum DisplayMode: Sendable, Equatable {
        /// The RAM.
        case normal
        /// Every pixel at full grey.
        case allOn
        /// Every pixel off.
        case allOff
        /// The RAM, each level inverted.
        case inverse
    }

    /// GDDRAM as it drives the outputs: `row * 128 + segment`, one 4-bit level per byte. The column
    /// and nibble re-maps (A0h A[0], A[1]) act on RAM access (§9.1.5: "the two nibbles of the data
    /// bus for RAM access are re-mapped"), so a byte lands here already re-mapped.
    public internal(set) var pixels = [UInt8](repeating: 0, count: 128 * 128)
    /// The column window (15h), in column addresses of two pixels each, and the row window (75h).
    public internal(set) var columnRange = 0...63
    /// The row window (0x75).
    public internal(set) var rowRange = 0...127
    /// The RAM pointer's column (of pixel pairs).
    public internal(set) var column = 0
    /// The RAM pointer's row.
    public internal(set) var row = 0
    /// The re-map byte (A0h): A[0] column, A[1] nibble, A[2] vertical increment, A[4] COM re-map,
    /// A[6] COM split odd/even.
    public internal(set) var remap: UInt8 = 0x00
    /// The RAM row shown on the first line (0xA1).
    public internal(set) var startLine = 0
    /// The display offset (0xA2).
    public internal(set) var displayOffset = 0
    /// The multiplex ratio register: lines − 1 (RESET 127, 128 MUX).
    public internal(set) var multiplex = 127
    /// What the glass shows.
    public internal(set) var displayMode = DisplayMode.normal
    /// Whether the display is on (0xAF) or asleep (0xAE).
    public internal(set) var displayOn = false
    /// Function selection A (ABh) A[0]: the internal VDD regulator (RESET on).
    public internal(set) var internalVDD = true
    /// The contrast (0x81).
    public internal(set) var contrast: UInt8 = 0x7F
    /// B1h: phase 1 in A[3:0] (RESET 4), phase 2 in A[7:4] (RESET 7).
    public internal(set) var phaseLength: UInt8 = 0x74
    /// The front clock divider and oscillator frequency (0xB3).
    public internal(set) var frontClock: UInt8 = 0x00
    /// The GPIO pins' setting (0xB5).
    public internal(set) var gpio: UInt8 = 0x02
    /// The second pre-charge period (0xB6).
    public internal(set) var secondPrecharge: UInt8 = 0x04
    /// The pre-charge voltage (0xBC).
    public internal(set) var prechargeVoltage: UInt8 = 0x05
    /// The VCOMH level (0xBE).
    public internal(set) var vcomh: UInt8 = 0x05
    /// Function selection B (0xD5).
    public internal(set) var functionB: UInt8 = 0x60
    /// Pulse widths of GS0 … GS15 in DCLKs: the linear table of B9h (GS0 = GS1 = 0, then 2, 4 … 28)
    /// until B8h sets one.
    public internal(set) var greyTable: [UInt8] = SSD1327Registers.linearGreyTable
    /// Whether scrolling is on (0x2F).
    public internal(set) var scrolling = false
    /// Whether commands are locked (0xFD 0x16).
    public internal(set) var commandLocked = false
    /// Every byte out of place the model found, in words.
    public internal(set) var protocolErrors: [String]

    var assembler = OLEDCommandAssembler()

    /// B9h "Linear LUT": GS0 = 0, GS1 = 0, GS2 = 2, GS3 = 4 … GS14 = 26, GS15 = 28.
    public static let linearGreyTable: [UInt8] = (0..<16).map { $0 < 2 ? 0 : UInt8(2 * ($0 - 1)) }

    /// Re-map bit 0: columns mirrored.
    public var columnRemap: Bool { remap & 0x01 != 0 }
    /// Re-map bit 1: the nibbles of each byte swapped.
    public var nibbleRemap: Bool { remap & 0x02 != 0 }
    /// Re-map bit 2: the pointer moves down before across.
    public var verticalIncrement: Bool { remap & 0x04 != 0 }
    /// Re-map bit 4: rows scanned from the last COM up.
    public var comRemap: Bool { remap & 0x10 != 0 }
    /// Re-map bit 6: odd and even COM lines split.
    public var comSplit: Bool { remap & 0x40 != 0 }

    init(protocolErrors: [String] = []) { self.protocolErrors = protocolErrors }

    /// RES# low: registers back to the reset values of §7.5 and Table 8-1; the RAM is not in the
    /// reset list and keeps its contents.
    mutating func reset() {
        let kept = pixels
        self = SSD1327Registers(protocolErrors: protocolErrors)
        pixels = kept
    }

    var controllerName: String { "ssd1327" }
    func argumentCount(_ opcode: UInt8) -> Int? { SSD1327CommandTable.argumentCount(opcode) }
    mutating func execute(_ opcode: UInt8, _ arguments: [UInt8]) { SSD1327CommandTable.execute(opcode, arguments, on: &self) }

    /// The output (SEG) a nibble written at column address `column` lands on: the column re-map
    /// turns the column pairs around, the nibble re-map swaps the pair (Table 7-8: both together
    /// put D0[3:0] on SEG127).
    func segment(forColumn column: Int, highNibble: Bool) -> Int {
        let pair = columnRemap ? 63 - column : column
        return 2 * pair + (highNibble != nibbleRemap ? 1 : 0)
    }

    /// A data byte: two pixels at the column and row pointers, then the pointers move within the
    /// windows (§9.1.1, §9.1.2, Figure 9-1; vertical increment Figure 9-3).
    mutating func writeData(_ byte: UInt8) {
        guard internalVDD else {
            // §7.10, under Figure 7-20: "No RAM access through MCU interface when there is no external /
            // internal VDD." The modules modelled run VDD from the internal regulator.
            return error("display data \(hexByte(byte)) while the internal VDD regulator is off (ABh 00h): no RAM access")
        }
        pixels[row * 128 + segment(forColumn: column, highNibble: false)] = byte & 0x0F
        pixels[row * 128 + segment(forColumn: column, highNibble: true)] = byte >> 4
        if verticalIncrement {
            row += 1
            if row > rowRange.upperBound {
                row = rowRange.lowerBound
                column = column >= columnRange.upperBound ? columnRange.lowerBound : column + 1
            }
        } else {
            column += 1
            if column > columnRange.upperBound {
                column = columnRange.lowerBound
                row = row >= rowRange.upperBound ? rowRange.lowerBound : row + 1
            }
        }
    }
}
