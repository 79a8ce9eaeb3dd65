/// The pixel formats of the 4-line serial interface, as COLMOD (3Ah) selects them, and how their
/// bytes become the frame memory's 18-bit pixels.
enum TFTPixelFormat: Sendable, Equatable, CustomStringConvertible {
    /// 12 bits a pixel: two pixels in three bytes, R G / B R / G B nibbles (ST7789V V1.3 §8.8.41).
    case rgb444
    /// 16 bits a pixel: R5 G6 B5, most significant byte first (ST7789V V1.3 §8.8.42; ILI9341
    /// V1.11 §7.6.2).
    case rgb565
    /// 18 bits a pixel: one byte a colour, its six bits in D7…D2 (ST7789V V1.3 §8.8.43; ILI9341
    /// V1.11 §7.6.2 "R1 5 … R1 0" in D7…D2).
    case rgb666

    /// The bytes that make whole pixels, and how many pixels they make.
    var group: (bytes: Int, pixels: Int) {
        switch self {
        case .rgb444: (3, 2)
        case .rgb565: (2, 1)
        case .rgb666: (3, 1)
        }
    }

    var description: String {
        switch self {
        case .rgb444: "12-bit (RGB 4-4-4)"
        case .rgb565: "16-bit (RGB 5-6-5)"
        case .rgb666: "18-bit (RGB 6-6-6)"
        }
    }

    /// The format COLMOD's parameter selects on `family`'s serial interface, `nil` for a value the
    /// datasheet does not define there. ST7789V V1.3 §9.1.32: D2…D0 "011 = 12bit/pixel, 101 =
    /// 16bit/pixel, 110 = 18bit/pixel" (111, "16M truncated", is not a 4-line serial format,
    /// §8.8.40). ST7735S V1.4 §10.1.33: IFPF 011, 101, 110. ILI9341 V1.11 §8.2.33: DBI 101 and 110
    /// only (4-line serial: "65k colors … 262k colors", §7.6.2).
    static func selected(by parameter: UInt8, on family: TFTControllerFamily) -> TFTPixelFormat? {
        switch (parameter & 0x07, family) {
        case (0x03, .st7789), (0x03, .st7735): .rgb444
        case (0x05, _): .rgb565
        case (0x06, _): .rgb666
        default: nil
        }
    }

    /// The pixels in one group of bytes, as 6-bit levels packed `red << 12 | green << 6 | blue`.
    ///
    /// 4- and 5-bit levels go through the look-up table's reset values (ST7735 V1.2 §9.17.1 and
    /// §9.17.2, "Default value after H/W Reset": 5 bits `abcde` become `abcdea`, 4 bits `abcd`
    /// become `abcdab`); the ST7789 and ILI9341 sheets draw the same "look-up table for 65k color
    /// data mapping (16 bits to 18 bits)" without tabulating it.
    func pixels(from bytes: [UInt8]) -> [UInt32] {
        switch self {
        case .rgb444:
            let red1 = bytes[0] >> 4, green1 = bytes[0] & 0x0F, blue1 = bytes[1] >> 4
            let red2 = bytes[1] & 0x0F, green2 = bytes[2] >> 4, blue2 = bytes[2] & 0x0F
            return [Self.pack(Self.four(red1), Self.four(green1), Self.four(blue1)),
                    Self.pack(Self.four(red2), Self.four(green2), Self.four(blue2))]
        case .rgb565:
            let red = bytes[0] >> 3
            let green = (bytes[0] & 0x07) << 3 | bytes[1] >> 5
            let blue = bytes[1] & 0x1F
            return [Self.pack(Self.five(red), green, Self.five(blue))]
        case .rgb666:
            return [Self.pack(bytes[0] >> 2, bytes[1] >> 2, bytes[2] >> 2)]
        }
    }

    static func pack(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt32 {
        UInt32(red) << 12 | UInt32(green) << 6 | UInt32(blue)
    }

    private static func five(_ level: UInt8) -> UInt8 { level << 1 | level >> 4 }
    private static func four(_ level: UInt8) -> UInt8 { level << 2 | level >> 2 }
}
