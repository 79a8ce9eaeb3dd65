/// The commands this driver sends a TFT controller, with their parameters. Opcodes and parameter
/// layouts are the same on the ST7789 (V1.3 §9.1), ST7735 (S V1.4 §10.1) and ILI9341 (V1.11 §8.2);
/// each goes as its opcode with D/C low, then its parameters with D/C high.
package enum TFTCommand: Sendable, Equatable {
    /// SWRESET (01h): registers to their reset values, the controller to sleep.
    case softwareReset
    /// SLPOUT (11h): leave sleep; the booster and oscillator start.
    case sleepOut
    /// NORON (13h): normal (not partial) display mode.
    case normalMode
    /// INVOFF (20h) or INVON (21h): the panel's outputs inverted (an IPS panel needs INVON).
    case inversion(Bool)
    /// DISPOFF (28h) or DISPON (29h): the frame memory shown or a blank page.
    case displayOn(Bool)
    /// CASET (2Ah): the window's first and last column address, 16 bits each, high byte first.
    case columns(Int, Int)
    /// RASET (2Bh; PASET on the ILI9341): the window's first and last row address.
    case rows(Int, Int)
    /// RAMWR (2Ch): the address counters to the window's start; pixel data follows.
    case writeMemory
    /// MADCTL (36h): the memory access order (MY, MX, MV) and the colour order (BGR).
    case memoryAccess(UInt8)
    /// COLMOD (3Ah): the interface's pixel format.
    case colourMode(UInt8)

    /// The opcode.
    package var opcode: UInt8 {
        switch self {
        case .softwareReset: 0x01
        case .sleepOut: 0x11
        case .normalMode: 0x13
        case .inversion(let on): on ? 0x21 : 0x20
        case .displayOn(let on): on ? 0x29 : 0x28
        case .columns: 0x2A
        case .rows: 0x2B
        case .writeMemory: 0x2C
        case .memoryAccess: 0x36
        case .colourMode: 0x3A
        }
    }

    /// The parameters sent after the opcode.
    package var parameters: [UInt8] {
        switch self {
        case .columns(let first, let last), .rows(let first, let last):
            [UInt8(first >> 8 & 0xFF), UInt8(first & 0xFF), UInt8(last >> 8 & 0xFF), UInt8(last & 0xFF)]
        case .memoryAccess(let value), .colourMode(let value): [value]
        default: []
        }
    }

    /// The command as ``DataCommandSPI`` sends it.
    var parts: [DataCommandSPI.Part] {
        let parameters = parameters
        return parameters.isEmpty ? [.command([opcode][...])] : [.command([opcode][...]), .data(parameters[...])]
    }
}
