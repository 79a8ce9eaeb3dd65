import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import HeadwaySurfaces
import Testing

/// Every module's wiring: a known pattern in the chip's RAM or registers lights the LEDs the
/// vendors' tables (docs/led-matrix-chips.md) put there, and nothing else.
@Suite("LED matrix and segment modules")
struct MatrixModuleTests {
    let clock = ManualClock()
    static let red = RGB8(red: 255, green: 0, blue: 0)
    static let green = RGB8(red: 0, green: 255, blue: 0)
    static let blue = RGB8(red: 0, green: 0, blue: 255)
    static let yellow = RGB8(red: 255, green: 255, blue: 0)
    static let white = RGB8(red: 255, green: 255, blue: 255)

    /// An HT16K33 on `module`, started, with `ram` written from address 00h.
    func ht16k33(_ module: HT16K33Module, _ ram: [UInt8]) -> LEDGlass {
        let chip = VirtualHT16K33(module: module, clock: clock)
        for message in [[0x21], [0x00] + ram + [UInt8](repeating: 0, count: 16 - ram.count), [0x81]] as [[UInt8]] {
            chip.receive(message)
            chip.stop()
        }
        return chip.glass
    }

    /// An IS31FL3731 on `module`, frame 1 all on, with PWM 255 for `leds`.
    func is31fl3731(_ module: IS31FL3731Module, _ leds: [Int]) -> LEDGlass {
        let chip = VirtualIS31FL3731(module: module, clock: clock)
        var pwm = [UInt8](repeating: 0, count: 144)
        for led in leds { pwm[led] = 255 }
        for message in [[0xFD, 0x00], [0x00] + [UInt8](repeating: 0xFF, count: 18), [0x24] + pwm, [0xFD, 0x0B], [0x0A, 0x01]] as [[UInt8]] {
            chip.receive(message)
            chip.stop()
        }
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        return chip.glass
    }

    /// A MAX7219 chain on `module`, every digit scanned and cleared, then `words` in one message.
    func max7219(_ devices: Int, _ module: MAX7219Module, _ words: [(UInt8, UInt8)]) -> LEDGlass {
        let chain = VirtualMAX7219Chain(devices: devices, module: module)
        let setup: [(UInt8, UInt8)] = [(0x0B, 0x07), (0x0A, 0x0F)] + (1...8).map { (UInt8($0), 0) } + [(0x0C, 0x01)]
        for (register, data) in setup {
            chain.receive([UInt8]((0..<devices).flatMap { _ in [register, data] }), hz: 1_000_000, mode: 0)
        }
        chain.receive(words.flatMap { [$0.0, $0.1] }, hz: 1_000_000, mode: 0)
        #expect(chain.protocolErrors.isEmpty, "\(chain.protocolErrors)")
        return chain.glass
    }

    /// The positions that give light, and the colours of their lit dies together (a lit red and a
    /// lit green die: yellow), whatever their drive.
    func shown(_ glass: LEDGlass) -> [[Int]: RGB8] {
        Dictionary(glass.lit.map { ([$0.x, $0.y], $0.colour) }) { a, b in
            RGB8(red: max(a.red, b.red), green: max(a.green, b.green), blue: max(a.blue, b.blue))
        }
    }

    // MARK: HT16K33

    @Test func bargraph24() {
        // Bar 0 red: COM0 ROW0. Bar 13 green: COM0 ROW13 (RAM 01h bit 5). Bar 23 red and green:
        // COM2 ROW7 and ROW15 (RAM 04h and 05h bit 7).
        let glass = ht16k33(.bargraph24, [0x01, 0x20, 0x00, 0x00, 0x80, 0x80])
        #expect(shown(glass) == [[0, 0]: Self.red, [13, 0]: Self.green, [23, 0]: Self.yellow])
        #expect(glass.leds.count == 48 && glass.width == 24)
    }

    @Test func matrix8x8() {
        // ROW7 is column 0, ROW0 column 1, ROW6 column 7; COMn is row n.
        let glass = ht16k33(.matrix8x8(colour: Self.green), [0x81, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40])
        #expect(shown(glass) == [[0, 0]: Self.green, [1, 0]: Self.green, [7, 7]: Self.green])
    }

    @Test func matrix8x8Bicolour() {
        // ROWx is the green die of column x, ROWx+8 its red die.
        let glass = ht16k33(.matrix8x8Bicolour, [0x01, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x80])
        #expect(shown(glass) == [[0, 0]: Self.green, [1, 0]: Self.red, [7, 7]: Self.yellow])
    }

    @Test func matrix16x8() {
        // ROWx is column x, COMy row y.
        let glass = ht16k33(.matrix16x8(), [0x01, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01])
        #expect(shown(glass) == [[0, 0]: Self.red, [15, 0]: Self.red, [0, 7]: Self.red])
    }

    @Test func segments4ShowsTwelveColonThirtyFour() {
        // Digits at RAM 00h, 02h, 06h, 08h (A = bit 0 … G = bit 6, DP = bit 7), colon RAM 04h bit 1.
        let glass = ht16k33(.segments4(), [0x06, 0, 0x5B, 0, 0x02, 0, 0x4F, 0, 0xE6])
        #expect(glass.digits.map(\.lit) == [
            [.b, .c],
            [.a, .b, .d, .e, .g, .colon],
            [.a, .b, .c, .d, .g],
            [.b, .c, .f, .g, .dp],
        ])
        #expect(glass.digits.allSatisfy { $0.brightness == 1 })
    }

    @Test func alnum4() {
        // Character n is COMn's 16 bits: A … F, G1, G2, H, J, K, L, M, N, DP from bit 0.
        let glass = ht16k33(.alnum4(), [0xF7, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x6D])
        #expect(glass.digits.map(\.lit) == [
            [.a, .b, .c, .e, .f, .g1, .g2],
            [.j, .m],
            [],
            [.h, .k, .l, .n, .dp],
        ])
    }

    // MARK: IS31FL3731

    @Test func scrollPHATHD() {
        // Column 0 is CA9 (LEDs 128–134, C9-1 … C9-7 from the bottom row up), column 8 CA1 (LEDs
        // 0–6), column 9 CB1 (LEDs 8–14, top row first), column 16 CB8 (LEDs 120–126).
        let glass = is31fl3731(.scrollPHATHD(), [134, 0, 8, 126])
        #expect(shown(glass) == [[0, 0]: Self.white, [8, 6]: Self.white, [9, 0]: Self.white, [16, 6]: Self.white])
        let all = is31fl3731(.scrollPHATHD(), Array(0..<144))
        #expect(all.lit.count == 17 * 7 && Set(all.lit.map { [$0.x, $0.y] }).count == 17 * 7)
    }

    @Test func ledSHIM() {
        // Pixel 0: red LED 118, green 69, blue 85; pixel 14: green 47; pixel 27: blue 93. PWM 255
        // drives a die at 255/256.
        let glass = is31fl3731(.ledSHIM, [118, 47, 93, 69])
        #expect(shown(glass) == [[0, 0]: Self.yellow, [14, 0]: Self.green, [27, 0]: Self.blue])
        let all = is31fl3731(.ledSHIM, Array(0..<144))
        #expect(all.lit.count == 84 && (0..<28).allSatisfy { all.colour(x: $0, y: 0) == RGB8(red: 254, green: 254, blue: 254) })
    }

    @Test func charlieplex16x9() {
        let glass = is31fl3731(.charlieplex16x9(colour: Self.blue), [17, 143])
        #expect(shown(glass) == [[1, 1]: Self.blue, [15, 8]: Self.blue])
    }

    // MARK: MAX7219

    @Test func fc16MatrixWithDINOnTheRight() {
        // Device 0 (first on DIN) is the rightmost block: its DIG0 is the top row, data bit 7 (DP)
        // its leftmost column. Device 3's DIG7 bit 0 is the bottom-right LED of the leftmost block.
        let glass = max7219(4, .fc16Matrix(orientation: .dinOnRight), [(0x08, 0x01), (0x00, 0x00), (0x00, 0x00), (0x01, 0x80)])
        #expect(shown(glass) == [[24, 0]: Self.red, [7, 7]: Self.red])
        #expect(glass.width == 32 && glass.height == 8)
    }

    @Test func fc16MatrixTurnedRound() {
        // DIN on the left: device 0 is the leftmost block, DIG0 its bottom row, bit n column n.
        let glass = max7219(4, .fc16Matrix(orientation: .dinOnLeft), [(0x08, 0x01), (0x00, 0x00), (0x00, 0x00), (0x01, 0x80)])
        #expect(shown(glass) == [[7, 7]: Self.red, [24, 0]: Self.red])
        let corner = max7219(4, .fc16Matrix(orientation: .dinOnLeft), [(0x00, 0x00), (0x00, 0x00), (0x00, 0x00), (0x08, 0x01)])
        #expect(shown(corner) == [[0, 0]: Self.red])
    }

    @Test func segments8() {
        // DIG0 is the rightmost digit; device 0 is the rightmost module. No decode: D6 … D0 = A … G.
        let glass = max7219(2, .segments8(), [(0x08, 0x7E), (0x01, 0x30)])
        #expect(glass.digits.count == 16)
        #expect(glass.digits[0].lit == [.a, .b, .c, .d, .e, .f])
        #expect(glass.digits[15].lit == [.b, .c])
        #expect(glass.digits[1...14].allSatisfy { $0.lit.isEmpty })
    }

    // MARK: Every module

    @Test func everyDieHasItsOwnPlaceOnTheGlass() {
        let glasses: [LEDGlass] = [
            VirtualHT16K33(module: .bargraph24, clock: clock).glass,
            VirtualHT16K33(module: .matrix8x8(), clock: clock).glass,
            VirtualHT16K33(module: .matrix8x8Bicolour, clock: clock).glass,
            VirtualHT16K33(module: .matrix16x8(), clock: clock).glass,
            VirtualHT16K33(module: .segments4(), clock: clock).glass,
            VirtualHT16K33(module: .alnum4(), clock: clock).glass,
            VirtualIS31FL3731(module: .scrollPHATHD(), clock: clock).glass,
            VirtualIS31FL3731(module: .ledSHIM, clock: clock).glass,
            VirtualIS31FL3731(module: .charlieplex16x9(), clock: clock).glass,
            VirtualMAX7219Chain(devices: 4, module: .fc16Matrix()).glass,
            VirtualMAX7219Chain(devices: 4, module: .fc16Matrix(orientation: .dinOnLeft)).glass,
            VirtualMAX7219Chain(devices: 1, module: .segments8()).glass,
        ]
        for glass in glasses {
            let places = glass.leds.map { "\($0.x),\($0.y),\($0.colour),\($0.segment?.rawValue ?? "")" }
            #expect(Set(places).count == places.count, "two dies in one place")
            #expect(glass.leds.allSatisfy { (0..<glass.width).contains($0.x) && (0..<glass.height).contains($0.y) })
        }
    }
}
