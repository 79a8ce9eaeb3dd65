/// The HT16K33 commands the driver sends, each one byte (Holtek HT16K33, Rev 1.10, Command
/// Summary, p. 30–31); only the display data address is followed by data.
enum HT16K33Command: Equatable {
    /// System setup `0010 XXX S`: S = 1 starts the oscillator, 0 is standby, where the chip takes
    /// no other command (System Setup Register, p. 10; Standby Mode, p. 8).
    case oscillator(on: Bool)
    /// ROW/INT set `1010 X X act row/int` with row/int = 0: ROW15/INT drives a row (the 16x8
    /// backpack's sixteenth column), whatever another program left there (ROW/INT Set Register, p. 10).
    case rowOutput
    /// Dimming set `1110 P3–P0`: lit LEDs at a duty of (P + 1)/16 (Digital Dimming Data Input, p. 15).
    case dimming(sixteenths: Int)
    /// Display setup `1000 X B1 B0 D`: D turns the display on; B1 B0 blink it at 2, 1 or 0.5 Hz
    /// (Display Setup Register, p. 11).
    case display(on: Bool, blink: MatrixBlink)
    /// The display data address pointer `0000 A3–A0`, then RAM data from that address, the
    /// pointer incrementing (Write Operation and Page write, p. 28).
    case ram(start: Int, data: ArraySlice<UInt8>)

    /// The command as one I2C message.
    var message: [UInt8] {
        switch self {
        case .oscillator(let on): return [0x20 | (on ? 0x01 : 0x00)]
        case .rowOutput: return [0xA0]
        case .dimming(let sixteenths): return [0xE0 | UInt8(min(16, max(1, sixteenths)) - 1)]
        case .display(let on, let blink):
            let rate: UInt8 = switch blink {
            case .steady: 0
            case .twoHertz: 1
            case .oneHertz: 2
            case .halfHertz: 3
            }
            return [0x80 | rate << 1 | (on ? 0x01 : 0x00)]
        case .ram(let start, let data): return [UInt8(start & 0x0F)] + data
        }
    }
}
