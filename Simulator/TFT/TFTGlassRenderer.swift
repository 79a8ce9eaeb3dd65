import HeadwayRender

extension TFTChipState {
    /// What the glass of `module` shows: the frame memory at `map`'s positions through the panel.
    ///
    /// Dark unless the panel runs (sleep out, display on: "SLPIN … Display whole blank screen",
    /// ST7789V V1.3 §9.1.11; DISPOFF "the output from Frame Memory is disabled and blank page
    /// inserted", §9.1.18) and the backlight shines. Idle mode shows "the MSB of each R, G and B in
    /// the Frame Memory" (§9.1.31); partial mode shows only the PTLAR rows (§9.1.24; ILI9341 V1.11
    /// §8.2.25), the rest dark. The outputs invert under INVON and swap red and blue under MADCTL's
    /// BGR bit; the module's panel decides which setting looks right (``TFTModuleModel``).
    /// `brightness` (0…1) scales the light the backlight gives, in linear light.
    func glass(of module: TFTModuleModel, map: [Int?], brightness: Double) -> TFTGlass {
        guard !registers.sleeping, registers.displayOn, brightness > 0 else {
            return .dark(width: module.width, height: module.height, protocolErrors: protocolErrors)
        }
        let levels = Self.driveLevels(brightness: brightness)
        let invert = registers.invertsOutputs(family) != module.needsInversion
        let swapsRedAndBlue = registers.memoryAccess(family).bgr != module.bgrPanel
        var pixels: [RGB8] = []
        pixels.reserveCapacity(map.count)
        for position in map {
            guard let position, !registers.partial || registers.inPartialArea(position / memorySize.width) else {
                pixels.append(.off)
                continue
            }
            let value = memory[position]
            var red = Int(value >> 12 & 0x3F), green = Int(value >> 6 & 0x3F), blue = Int(value & 0x3F)
            if registers.idle {
                red = red & 0x20 != 0 ? 0x3F : 0
                green = green & 0x20 != 0 ? 0x3F : 0
                blue = blue & 0x20 != 0 ? 0x3F : 0
            }
            if invert {
                red ^= 0x3F
                green ^= 0x3F
                blue ^= 0x3F
            }
            if swapsRedAndBlue { (red, blue) = (blue, red) }
            pixels.append(RGB8(red: levels[red], green: levels[green], blue: levels[blue]))
        }
        return TFTGlass(width: module.width, height: module.height, pixels: pixels, isLit: true, protocolErrors: protocolErrors)
    }

    /// The sRGB drive level each 6-bit level shows at `brightness`: the six bits widened to eight
    /// (`abcdef` → `abcdefab`), then their light scaled.
    static func driveLevels(brightness: Double) -> [UInt8] {
        (0..<64).map { level -> UInt8 in
            let full = UInt8(level << 2 | level >> 4)
            guard brightness < 1 else { return full }
            return LinearColour(Colour(red: full, green: full, blue: full)).scaled(by: Float(brightness)).sRGB.red
        }
    }
}
