extension TFTModuleModel {
    /// pimoroni/st7789-python@2e0df28:st7789/__init__.py: `_init()` sends MADCTL 70h, COLMOD 05h and
    /// INVON (`invert=True`); `set_window()` writes columns 0…width−1, rows 0…height−1 with no
    /// offsets; `image_to_data()` turns the picture with `numpy.rot90(image, rotation // 90)`;
    /// the backlight pin is set low, then high. pimoroni/displayhatmini-python@f72246f:
    /// library/displayhatmini/__init__.py: 320 x 240, `rotation=180`, CE1, D/C GPIO 9, backlight
    /// GPIO 13 (PWM at 500 Hz when `backlight_pwm`), no reset line, 60 MHz.
    public static let displayHATMini = TFTModuleModel(
        "Pimoroni Display HAT Mini", .st7789v2, width: 320, height: 240,
        reference: TFTModuleRotation(180, madctl: 0x70, window: (320, 240), pictureTurn: .half,
                                     source: "pimoroni/st7789-python@2e0df28:st7789/__init__.py; pimoroni/displayhatmini-python@f72246f"),
        bgrPanel: false, needsInversion: true,
        backlight: TFTBacklightWiring(line: 13, activeHigh: true, pwm: true),
        wiring: TFTModuleWiring(chipSelect: 1, dataCommand: 9, reset: nil, vendorSPIHz: 60_000_000),
        source: "pimoroni/st7789-python@2e0df28:st7789/__init__.py; pimoroni/displayhatmini-python@f72246f:library/displayhatmini/__init__.py")

    /// adafruit/Adafruit_CircuitPython_RGB_Display@b089f40: examples/rgb_display_minipitftstats.py
    /// (ST7789 135 x 240, x_offset 53, y_offset 40, CE0, D/C GPIO 25, backlight GPIO 22, 64 MHz, a
    /// 240 x 135 picture shown with `rotation = 90`), adafruit_rgb_display/st7789.py (`init()` ends
    /// with INVON and MADCTL C0h), rgb.py (`image()` turns with PIL's `rotate(rotation, expand=True)`).
    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821: adafruit-pitft.py "st7789_240x135" viewports
    /// and mipi/adafruit_st7789_drm.txt's MADCTL per rotation; the kernel module it builds is
    /// fb_st7789v.
    public static let miniPiTFT114 = TFTModuleModel(
        "Adafruit Mini PiTFT 1.14\"", .st7789v, width: 240, height: 135,
        reference: TFTModuleRotation(90, madctl: 0xC0, columnOffset: 53, rowOffset: 40, window: (135, 240), pictureTurn: .quarter,
                                     source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_minipitftstats.py"),
        rotations: [
            TFTModuleRotation(90, madctl: 0xC0, columnOffset: 53, rowOffset: 40, window: (135, 240), pictureTurn: .quarter,
                              source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_minipitftstats.py"),
            TFTModuleRotation(0, madctl: 0x00, columnOffset: 52, rowOffset: 40, window: (136, 240), source: installer),
            TFTModuleRotation(90, madctl: 0xA0, columnOffset: 40, rowOffset: 52, window: (240, 136), source: installer),
            TFTModuleRotation(180, madctl: 0xC0, columnOffset: 52, rowOffset: 40, window: (136, 240), source: installer),
            TFTModuleRotation(270, madctl: 0x60, columnOffset: 40, rowOffset: 52, window: (240, 136), source: installer),
        ],
        bgrPanel: false, needsInversion: true,
        backlight: TFTBacklightWiring(line: 22, activeHigh: true, pwm: false),
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: nil, vendorSPIHz: 64_000_000),
        source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40; adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py")

    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821: adafruit-pitft.py "st7789_240x240" (viewports:
    /// 90° x-offset 80, 180° y-offset 80; D/C GPIO 25, backlight GPIO 22; 40 MHz) and
    /// mipi/adafruit_st7789_drm.txt (MADCTL 00h, A0h, C0h, 60h; INVON). adafruit/Adafruit_CircuitPython_
    /// RGB_Display@b089f40 examples/rgb_display_pillow_demo.py: "1.3", 1.54" ST7789: height=240,
    /// y_offset=80, rotation=180" with st7789.py's MADCTL C0h.
    public static let miniPiTFT13 = TFTModuleModel(
        "Adafruit Mini PiTFT 1.3\"", .st7789v, width: 240, height: 240,
        reference: TFTModuleRotation(0, madctl: 0x00, window: (240, 240), source: installer),
        rotations: square240Rotations,
        bgrPanel: false, needsInversion: true,
        backlight: TFTBacklightWiring(line: 22, activeHigh: true, pwm: false),
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: nil, vendorSPIHz: 40_000_000),
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py, mipi/adafruit_st7789_drm.txt; adafruit/Adafruit_CircuitPython_RGB_Display@b089f40")

    /// As the Mini PiTFT 1.3" (adafruit-pitft.py "st7789v_bonnet_240x240"), with the backlight on
    /// GPIO 26 and RES# on GPIO 24 (adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:
    /// examples/rgb_display_pillow_bonnet_buttons.py, 24 MHz).
    public static let tftBonnet13 = TFTModuleModel(
        "Adafruit 1.3\" TFT Bonnet", .st7789v, width: 240, height: 240,
        reference: TFTModuleRotation(0, madctl: 0x00, window: (240, 240), source: installer),
        rotations: square240Rotations,
        bgrPanel: false, needsInversion: true,
        backlight: TFTBacklightWiring(line: 26, activeHigh: true, pwm: false),
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: 24, vendorSPIHz: 24_000_000),
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py; adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_pillow_bonnet_buttons.py")

    /// Waveshare's 1.3inch LCD HAT demo as vendored in frogCaller/1.3inch@d73a755:ST7789.py
    /// (`Init()`: MADCTL 70h, COLMOD 05h, INVON; `SetWindows(0, 0, 240, 240)` with no offsets) and
    /// config.py@7935fb2 (CE0, D/C GPIO 25, RES# GPIO 27, backlight GPIO 24 by PWM at 1 kHz, 40 MHz).
    public static let waveshare13 = TFTModuleModel(
        "Waveshare 1.3\" LCD HAT", .st7789vw, width: 240, height: 240,
        reference: TFTModuleRotation(0, madctl: 0x70, window: (240, 240), source: "frogCaller/1.3inch@d73a755:ST7789.py (Waveshare demo)"),
        bgrPanel: false, needsInversion: true,
        backlight: TFTBacklightWiring(line: 24, activeHigh: true, pwm: true),
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: 27, vendorSPIHz: 40_000_000),
        source: "Waveshare 1.3inch LCD HAT demo: frogCaller/1.3inch@d73a755:ST7789.py, config.py")

    /// The installer's four hardware rotations of the 240 x 240 ST7789 modules and RGB_Display's.
    private static let square240Rotations = [
        TFTModuleRotation(0, madctl: 0x00, window: (240, 240), source: installer),
        TFTModuleRotation(90, madctl: 0xA0, columnOffset: 80, window: (240, 240), source: installer),
        TFTModuleRotation(180, madctl: 0xC0, rowOffset: 80, window: (240, 240), source: installer),
        TFTModuleRotation(270, madctl: 0x60, window: (240, 240), source: installer),
        TFTModuleRotation(180, madctl: 0xC0, rowOffset: 80, window: (240, 240), pictureTurn: .half,
                          source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:examples/rgb_display_pillow_demo.py"),
    ]

    private static let installer = "adafruit/Raspberry-Pi-Installer-Scripts@3021821:adafruit-pitft.py viewport, mipi/adafruit_st7789_drm.txt"
}
