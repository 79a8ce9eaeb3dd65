extension TFTModuleModel {
    /// Waveshare's 1.44inch LCD HAT demo (LCD_1IN44.py V2.0, 2018-07-16) as vendored in
    /// hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py: `SCAN_DIR_DFT = U2D_R2L` gives MADCTL
    /// 60h | 08h ("0x08 set RGB", i.e. BGR); `LCD_SetGramScanWay` swaps the adjustments (its test
    /// `(MemoryAccessReg_Data & 0x10) != 1` is always true), so CASET starts at LCD_Y = 1 and RASET
    /// at LCD_X = 2; no INVON; backlight driven high. whlook/lcd1in44_on_pi@61734af:LCD_Config.py:
    /// RES# GPIO 27, D/C GPIO 25, CE0, backlight GPIO 24, 9 MHz.
    public static let waveshare144 = TFTModuleModel(
        "Waveshare 1.44\" LCD HAT", .st7735s, width: 128, height: 128,
        reference: TFTModuleRotation(0, madctl: 0x68, columnOffset: 1, rowOffset: 2, window: (128, 128),
                                     source: "hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py (Waveshare demo V2.0)"),
        bgrPanel: true, needsInversion: false,
        backlight: TFTBacklightWiring(line: 24, activeHigh: true, pwm: false),
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: 27, vendorSPIHz: 9_000_000),
        source: "Waveshare 1.44inch LCD HAT demo: hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py; whlook/lcd1in44_on_pi@61734af:LCD_Config.py")

    /// adafruit/Adafruit-ST7735-Library@62112b9:Adafruit_ST7735.cpp: `initR()` sets each "tab" variant's
    /// colstart and rowstart; `setRotation()` sends MADCTL MX|MY, MY|MV, 0, MX|MV for rotations 0…3,
    /// plus BGR except on the black tab and the 160 x 80 mini, and swaps the offsets for 1 and 3.
    /// Which GM setting (frame memory size) each variant is bonded for is not published: it is the
    /// one under which all four rotations reach the same glass (docs/tft-controllers.md).
    private static func adafruitTab(_ name: String, width: Int, height: Int, memory: TFTRAMSize, colstart: Int,
                                    rowstart: (Int, Int), bgr: Bool, inversion: Bool = false) -> TFTModuleModel {
        let bgrBit: UInt8 = bgr ? 0x08 : 0
        let source = "adafruit/Adafruit-ST7735-Library@62112b9:Adafruit_ST7735.cpp initR(), setRotation()"
        let rotations = [
            TFTModuleRotation(0, madctl: 0xC0 | bgrBit, columnOffset: colstart, rowOffset: rowstart.0, window: (width, height), source: source),
            TFTModuleRotation(90, madctl: 0xA0 | bgrBit, columnOffset: rowstart.0, rowOffset: colstart, window: (height, width), source: source),
            TFTModuleRotation(180, madctl: 0x00 | bgrBit, columnOffset: colstart, rowOffset: rowstart.1, window: (width, height), source: source),
            TFTModuleRotation(270, madctl: 0x60 | bgrBit, columnOffset: rowstart.1, rowOffset: colstart, window: (height, width), source: source),
        ]
        return TFTModuleModel(name, .st7735r, width: width, height: height, memory: memory, reference: rotations[0], rotations: rotations,
                              bgrPanel: bgr, needsInversion: inversion, backlight: nil, wiring: nil, source: source)
    }

    /// INITR_GREENTAB: 128 x 160, colstart 2, rowstart 1; the offsets place it in the 132 x 162 memory.
    public static let st7735rGreenTab = adafruitTab("ST7735R 128x160 (green tab)", width: 128, height: 160,
                                                    memory: TFTRAMSize(width: 132, height: 162), colstart: 2, rowstart: (1, 1), bgr: true)
    /// INITR_REDTAB: 128 x 160 with no offsets, which only the 128 x 160 memory (GM = 11) makes agree.
    public static let st7735rRedTab = adafruitTab("ST7735R 128x160 (red tab)", width: 128, height: 160,
                                                  memory: TFTRAMSize(width: 128, height: 160), colstart: 0, rowstart: (0, 0), bgr: true)
    /// INITR_BLACKTAB: as the red tab, with an RGB colour filter (MADCTL C0h).
    public static let st7735rBlackTab = adafruitTab("ST7735R 128x160 (black tab)", width: 128, height: 160,
                                                    memory: TFTRAMSize(width: 128, height: 160), colstart: 0, rowstart: (0, 0), bgr: false)
    /// INITR_MINI160x80: 80 x 160 glass (160 x 80 turned), colstart 24, rowstart 0, RGB; the 128 x 160
    /// memory makes the rotations agree.
    public static let st7735rMini160x80 = adafruitTab("ST7735R 160x80 (mini)", width: 80, height: 160,
                                                      memory: TFTRAMSize(width: 128, height: 160), colstart: 24, rowstart: (0, 0), bgr: false)
    /// INITR_MINI160x80_PLUGIN: colstart 26, rowstart 1, BGR and INVON (Rcmd2green160x80plugin), in the
    /// 132 x 162 memory; RGB_Display's "0.96" MiniTFT Rev B" row (x_offset 26, y_offset 1,
    /// `invert=True`, MADCTL C8h, `rotation=90`) is the same glass
    /// (adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_pillow_demo.py).
    public static let st7735rMini160x80Plugin: TFTModuleModel = {
        let tab = adafruitTab("ST7735R 160x80 (mini, plugin FPC)", width: 80, height: 160,
                              memory: TFTRAMSize(width: 132, height: 162), colstart: 26, rowstart: (1, 1), bgr: true, inversion: true)
        let revB = TFTModuleRotation(90, madctl: 0xC8, columnOffset: 26, rowOffset: 1, window: (80, 160), pictureTurn: .quarter,
                                     source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_pillow_demo.py (Rev B)")
        return TFTModuleModel(tab.name, .st7735r, width: tab.width, height: tab.height, memory: tab.memory, reference: tab.reference,
                              rotations: tab.rotations + [revB], bgrPanel: true, needsInversion: true, backlight: nil, wiring: nil,
                              source: tab.source + "; adafruit/Adafruit_CircuitPython_RGB_Display@b089f40")
    }()
    /// INITR_144GREENTAB: 128 x 128, colstart 2, rowstart 3 for rotations 0 and 90 and 1 for 180 and
    /// 270; the 132 x 132 memory (GM = 01) makes them agree.
    public static let st7735rGreenTab144 = adafruitTab("ST7735R 128x128 (1.44\" green tab)", width: 128, height: 128,
                                                       memory: TFTRAMSize(width: 132, height: 132), colstart: 2, rowstart: (3, 1), bgr: true)
}
