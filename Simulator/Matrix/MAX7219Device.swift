import HeadwayDevices

/// One MAX7219's registers, and what it does with the 16-bit word it latches on LOAD.
///
/// Facts from the Maxim MAX7219/MAX7221 datasheet, 19-4452 Rev 4 (7/03), cited by table and page;
/// docs/led-matrix-chips.md lists them with the source.
struct MAX7219Device: Sendable, Hashable {
    /// The 8x8 digit RAM; retained in shutdown (p. 6). Its power-up content is not given: the model
    /// starts it at 0 and remembers which digits were written since.
    var digits = [UInt8](repeating: 0, count: 8)
    var written = [Bool](repeating: false, count: 8)
    // Initial Power-Up (p. 7): control registers reset, display blanked, shutdown mode, scanning
    // one digit, no decode, minimum intensity.
    var decodeMode: UInt8 = 0
    var intensity: UInt8 = 0
    var scanLimit: UInt8 = 0
    var isShutDown = true
    var isDisplayTest = false
    var reportedUnwritten = false

    /// Code B font (Table 5, p. 8) for the low nibble, as segment bits in the no-decode layout of
    /// Table 6 (D6 = A … D0 = G): 0–9, −, E, H, L, P, blank.
    static let codeB: [UInt8] = [0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, 0x7F, 0x7B, 0x01, 0x4F, 0x37, 0x0E, 0x67, 0x00]

    /// Latches `word` (D15 first; D11–D8 the register address, D7–D0 its data: Table 1, p. 6).
    /// Returns what was wrong with it, if anything.
    mutating func latch(_ word: UInt16) -> String? {
        let register = UInt8((word >> 8) & 0x0F), data = UInt8(word & 0xFF)
        // Register address map (Table 2, p. 7).
        switch register {
        case 0x0:
            break  // No-op: for the other devices of a cascade (No-Op Register, p. 10).
        case 0x1...0x8:
            digits[Int(register) - 1] = data
            written[Int(register) - 1] = true
        case 0x9:
            decodeMode = data
        case 0xA:
            intensity = data & 0x0F  // Table 7: D3–D0.
        case 0xB:
            scanLimit = data & 0x07  // Table 8: D2–D0.
        case 0xC:
            isShutDown = data & 0x01 == 0  // Table 3.
        case 0xF:
            isDisplayTest = data & 0x01 != 0  // Table 10.
        default:
            return "register 0x\(String(register, radix: 16, uppercase: true)) (word \(hexWord(word))) is not a MAX7219 register (Table 2 defines 0x0–0xC and 0xF)"
        }
        return nil
    }

    /// Whether any LED can light: in display test, or out of shutdown (Display-Test Register,
    /// p. 10: the test overrides shutdown).
    var isVisible: Bool { isDisplayTest || !isShutDown }

    /// The segment bits digit `digit` drives now (D7 = DP, D6 = A … D0 = G, Table 6), 0 when the
    /// digit is not scanned or the display is blank.
    func segments(ofDigit digit: Int) -> UInt8 {
        if isDisplayTest { return 0xFF }  // "turns all LEDs on", 8 digits scanned.
        guard !isShutDown, digit <= Int(scanLimit) else { return 0 }
        let data = digits[digit]
        // Decode-Mode Register (p. 7): code B looks at D3–D0 only; D7 is the decimal point.
        guard decodeMode & (1 << UInt8(digit)) != 0 else { return data }
        return Self.codeB[Int(data & 0x0F)] | (data & 0x80)
    }

    /// The duty of a lit segment: (2·intensity + 1)/32 on the MAX7219 (Table 7, p. 9); 31/32 in
    /// display test (p. 10).
    var brightness: Double {
        isDisplayTest ? 31.0 / 32 : Double(2 * Int(intensity) + 1) / 32
    }

    /// Digits that are scanned but were never written since power-on, among `wired`.
    func unwrittenScannedDigits(wired: Set<Int>) -> [Int] {
        guard isVisible else { return [] }
        let scanned = isDisplayTest ? 7 : Int(scanLimit)
        return (0...scanned).filter { wired.contains($0) && !written[$0] }
    }
}

/// A 16-bit word as four hex digits.
func hexWord(_ word: UInt16) -> String {
    let digits = String(word, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
}
