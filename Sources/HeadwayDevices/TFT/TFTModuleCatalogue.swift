extension TFTModule {
    /// The modules Headway knows, by the name a configuration gives (`module:`).
    public static let catalogue: [TFTModule] = [
        displayHATMini, miniPiTFT114, miniPiTFT13, tftBonnet13, waveshare13, waveshare144,
        st7735rGreenTab, st7735rRedTab, st7735rBlackTab, st7735rMini160x80, st7735rMini160x80Plugin, st7735rGreenTab144,
        piTFT28,
    ]

    /// The module called `name`.
    public static func named(_ name: String) -> TFTModule? { catalogue.first { $0.name == name } }

    /// The module a bare `driver:` and `size:` mean (sizes either way round): the HAT or breakout
    /// most sold in that size.
    public static func standard(for family: TFTFamily, width: Int, height: Int) -> TFTModule? {
        let preferred: [TFTModule] = switch family {
        case .st7789: [displayHATMini, miniPiTFT114, miniPiTFT13]
        case .st7735: [waveshare144, st7735rGreenTab, st7735rMini160x80]
        case .ili9341: [piTFT28]
        }
        return preferred.first { ($0.width == width && $0.height == height) || ($0.width == height && $0.height == width) }
    }

    /// The sizes `family`'s known modules come in.
    public static func sizes(of family: TFTFamily) -> [String] {
        var sizes: [String] = []
        for module in catalogue where module.controller.family == family && !sizes.contains(module.size) { sizes.append(module.size) }
        return sizes
    }

    /// pimoroni/st7789-python@2e0df28:st7789/__init__.py: `_init()` sends MADCTL 70h, COLMOD 05h
    /// and INVON (`invert=True`); `set_window()` writes from (0, 0) with no offsets;
    /// `image_to_data()` turns the picture by `rotation` with numpy's rot90.
    /// pimoroni/displayhatmini-python@1cceebb:library/displayhatmini/__init__.py: 320 x 240,
    /// `rotation=180`, CE1, D/C GPIO 9, backlight GPIO 13, 60 MHz.
    public static let displayHATMini = TFTModule(
        "display-hat-mini", "Pimoroni Display HAT Mini", .st7789v2, width: 320, height: 240,
        reference: VendorWrite(madctl: 0x70, window: (320, 240), turn: 180), inverted: true, vendorSPIHz: 60_000_000,
        source: "pimoroni/st7789-python@2e0df28:st7789/__init__.py; pimoroni/displayhatmini-python@1cceebb")

    /// adafruit/Adafruit_CircuitPython_RGB_Display@b089f40: examples/rgb_display_minipitftstats.py
    /// (135 x 240 at x_offset 53, y_offset 40, shown with rotation 90), adafruit_rgb_display/
    /// st7789.py (`init()` ends with INVON and MADCTL C0h), rgb.py (`image()` turns the picture with
    /// PIL's `rotate`).
    public static let miniPiTFT114 = TFTModule(
        "mini-pitft-114", "Adafruit Mini PiTFT 1.14\"", .st7789v, width: 240, height: 135,
        reference: VendorWrite(madctl: 0xC0, columnOffset: 53, rowOffset: 40, window: (135, 240), turn: 90), inverted: true, vendorSPIHz: 64_000_000,
        source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_minipitftstats.py, adafruit_rgb_display/st7789.py")

    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821: adafruit-pitft.py "st7789_240x240" (rotation
    /// 0: no offsets) and mipi/adafruit_st7789_drm.txt (MADCTL 00h at rotation 0, INVON).
    public static let miniPiTFT13 = TFTModule(
        "mini-pitft-13", "Adafruit Mini PiTFT 1.3\"", .st7789v, width: 240, height: 240,
        reference: VendorWrite(madctl: 0x00, window: (240, 240)), inverted: true, vendorSPIHz: 40_000_000,
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py, mipi/adafruit_st7789_drm.txt")

    /// As the Mini PiTFT 1.3" (adafruit-pitft.py "st7789v_bonnet_240x240"); RES# GPIO 24, backlight
    /// GPIO 26, 24 MHz (adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:
    /// examples/rgb_display_pillow_bonnet_buttons.py).
    public static let tftBonnet13 = TFTModule(
        "tft-bonnet-13", "Adafruit 1.3\" TFT Bonnet", .st7789v, width: 240, height: 240,
        reference: VendorWrite(madctl: 0x00, window: (240, 240)), inverted: true, vendorSPIHz: 24_000_000,
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py; adafruit/Adafruit_CircuitPython_RGB_Display@b089f40")

    /// Waveshare's 1.3inch LCD HAT demo (frogCaller/1.3inch@d73a755:ST7789.py `Init()`: MADCTL 70h,
    /// COLMOD 05h, INVON; `SetWindows(0, 0, 240, 240)`; config.py@7935fb2: 40 MHz).
    public static let waveshare13 = TFTModule(
        "waveshare-lcd-13", "Waveshare 1.3\" LCD HAT", .st7789vw, width: 240, height: 240,
        reference: VendorWrite(madctl: 0x70, window: (240, 240)), inverted: true, vendorSPIHz: 40_000_000,
        source: "frogCaller/1.3inch@d73a755:ST7789.py, @7935fb2:config.py (Waveshare demo)")

    /// Waveshare's 1.44inch LCD HAT demo V2.0 (hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py):
    /// MADCTL 68h (the BGR bit set), the window from column 1, row 2 (`LCD_SetGramScanWay` swaps its
    /// adjustments), no INVON; whlook/lcd1in44_on_pi@61734af:LCD_Config.py: 9 MHz.
    public static let waveshare144 = TFTModule(
        "waveshare-lcd-144", "Waveshare 1.44\" LCD HAT", .st7735s, width: 128, height: 128,
        reference: VendorWrite(madctl: 0x68, columnOffset: 1, rowOffset: 2, window: (128, 128)), inverted: false, vendorSPIHz: 9_000_000,
        source: "hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py; whlook/lcd1in44_on_pi@61734af:LCD_Config.py")

    /// adafruit/Adafruit-ST7735-Library@62112b9:Adafruit_ST7735.cpp: `initR()` and `setRotation(0)`
    /// for each tab (MADCTL C0h, with the BGR bit but on the black tab and the 160 x 80 mini;
    /// colstart and rowstart). Which frame memory (GM pins, ST7735S V1.4 §6.3) a tab's glass is
    /// bonded for is published nowhere: each row takes the one under which Adafruit's four
    /// rotations reach the same glass (docs/tft-controllers.md, "Doubtful").
    private static func adafruitTab(_ name: String, _ title: String, width: Int, height: Int, memory: TFTMemorySize, column: Int, row: Int,
                                    bgr: Bool, inverted: Bool = false) -> TFTModule {
        TFTModule(name, title, .st7735r, width: width, height: height, memory: memory,
                  reference: VendorWrite(madctl: 0xC0 | (bgr ? 0x08 : 0), columnOffset: column, rowOffset: row, window: (width, height)),
                  inverted: inverted, source: "adafruit/Adafruit-ST7735-Library@62112b9:Adafruit_ST7735.cpp initR(), setRotation()")
    }

    /// INITR_GREENTAB: colstart 2, rowstart 1, in the 132 x 162 memory.
    public static let st7735rGreenTab = adafruitTab("st7735r-green-tab", "ST7735R 1.8\" 128x160 (green tab)", width: 128, height: 160,
                                                    memory: TFTMemorySize(columns: 132, rows: 162), column: 2, row: 1, bgr: true)
    /// INITR_REDTAB: no offsets, in the 128 x 160 memory.
    public static let st7735rRedTab = adafruitTab("st7735r-red-tab", "ST7735R 1.8\" 128x160 (red tab)", width: 128, height: 160,
                                                  memory: TFTMemorySize(columns: 128, rows: 160), column: 0, row: 0, bgr: true)
    /// INITR_BLACKTAB: as the red tab, RGB.
    public static let st7735rBlackTab = adafruitTab("st7735r-black-tab", "ST7735R 1.8\" 128x160 (black tab)", width: 128, height: 160,
                                                    memory: TFTMemorySize(columns: 128, rows: 160), column: 0, row: 0, bgr: false)
    /// INITR_MINI160x80: colstart 24, RGB, in the 128 x 160 memory.
    public static let st7735rMini160x80 = adafruitTab("st7735r-mini-160x80", "ST7735R 0.96\" 160x80", width: 80, height: 160,
                                                      memory: TFTMemorySize(columns: 128, rows: 160), column: 24, row: 0, bgr: false)
    /// INITR_MINI160x80_PLUGIN: colstart 26, rowstart 1, BGR and INVON, in the 132 x 162 memory.
    public static let st7735rMini160x80Plugin = adafruitTab("st7735r-mini-160x80-plugin", "ST7735R 0.96\" 160x80 (plug-in FPC)", width: 80, height: 160,
                                                            memory: TFTMemorySize(columns: 132, rows: 162), column: 26, row: 1, bgr: true, inverted: true)
    /// INITR_144GREENTAB: colstart 2, rowstart 3, in the 132 x 132 memory.
    public static let st7735rGreenTab144 = adafruitTab("st7735r-green-tab-144", "ST7735R 1.44\" 128x128 (green tab)", width: 128, height: 128,
                                                       memory: TFTMemorySize(columns: 132, rows: 132), column: 2, row: 3, bgr: true)

    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821: mipi/adafruit_ili9341_drm.txt (MADCTL E8h
    /// at rotation 90, the landscape the PiTFT is shown in; no INVON), old_scripts/
    /// adafruit-pitft-mipi.py (320 x 240, no offsets, D/C GPIO 25), adafruit-pitft.py (64 MHz).
    public static let piTFT28 = TFTModule(
        "pitft-28", "Adafruit PiTFT 2.2\"/2.8\"", .ili9341, width: 320, height: 240,
        reference: VendorWrite(madctl: 0xE8, window: (320, 240)), inverted: false, vendorSPIHz: 64_000_000,
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821:mipi/adafruit_ili9341_drm.txt, old_scripts/adafruit-pitft-mipi.py")
}
