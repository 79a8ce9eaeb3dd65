/// The IS31FL3731's pages and registers the driver writes (ISSI IS31FL3731, Rev. D).
enum IS31FL3731Register {
    /// The command register: its data selects the page later writes go to (Table 2, p. 9).
    static let command: UInt8 = 0xFD
    /// Its data for the function registers ("Page Nine").
    static let functionPage: UInt8 = 0x0B

    // Frame registers (Table 3, p. 9): LED control 00h–11h, blink control 12h–23h, PWM 24h–B3h.
    static let ledControl: UInt8 = 0x00
    static let pwm: UInt8 = 0x24

    // Function registers (Table 3, p. 9; Tables 8–17, p. 12–14).
    /// Configuration: MODE D4:D3 = 00 picture mode, FS = 0 (Table 8).
    static let configuration: UInt8 = 0x00
    /// Picture display: the frame shown, 0–7 for frames 1–8 (Table 9).
    static let pictureFrame: UInt8 = 0x01
    /// Display option: IC D5, BE D3 (blink on), BPT D2:D0, the blink period 0.27 s × A (Table 12).
    static let displayOption: UInt8 = 0x05
    /// Audio synchronisation: AE D0 (Table 13).
    static let audioSync: UInt8 = 0x06
    /// Shutdown: SSD = 0 blanks the matrix, registers kept (Table 17; Software Shutdown, p. 18).
    static let shutdown: UInt8 = 0x0A

    /// The display option for `blink`: BE with the blink period A nearest the rate's (0.27 s × A:
    /// A = 2, 4 and 7 give 0.54, 1.08 and 1.89 s for 2, 1 and 0.5 Hz).
    static func displayOption(_ blink: MatrixBlink) -> UInt8 {
        switch blink {
        case .steady: 0x00
        case .twoHertz: 0x08 | 2
        case .oneHertz: 0x08 | 4
        case .halfHertz: 0x08 | 7
        }
    }
}
