extension TFTModuleModel {
    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821: mipi/adafruit_ili9341_drm.txt (MADCTL 88h,
    /// E8h, 48h, 28h for rotations 0…270; no INVON), old_scripts/adafruit-pitft-mipi.py viewports
    /// (240 x 320 at 0° and 180°, 320 x 240 at 90° and 270°, no offsets; D/C GPIO 25);
    /// overlays/pitft22-overlay.dts and pitft28-*-overlay.dts (ili9340, `bgr`, D/C GPIO 25; the 2.8"
    /// resistive's backlight is the STMPE610's GPIO 2, not a Pi line); adafruit-pitft.py (64 MHz).
    /// adafruit/Adafruit_CircuitPython_RGB_Display@b089f40: ili9341.py (MADCTL 48h) and
    /// examples/rgb_display_pillow_demo.py (`rotation=90` for the 2.2", 2.4", 2.8", 3.2").
    public static let piTFT28 = TFTModuleModel(
        "Adafruit PiTFT 2.2\"/2.8\"", .ili9341, width: 320, height: 240,
        reference: TFTModuleRotation(90, madctl: 0xE8, window: (320, 240), source: ili9341Installer),
        rotations: [
            TFTModuleRotation(0, madctl: 0x88, window: (240, 320), source: ili9341Installer),
            TFTModuleRotation(90, madctl: 0xE8, window: (320, 240), source: ili9341Installer),
            TFTModuleRotation(180, madctl: 0x48, window: (240, 320), source: ili9341Installer),
            TFTModuleRotation(270, madctl: 0x28, window: (320, 240), source: ili9341Installer),
            TFTModuleRotation(90, madctl: 0x48, window: (240, 320), pictureTurn: .quarter,
                              source: "adafruit/Adafruit_CircuitPython_RGB_Display@b089f40:adafruit_rgb_display/ili9341.py"),
        ],
        bgrPanel: true, needsInversion: false, backlight: nil,
        wiring: TFTModuleWiring(chipSelect: 0, dataCommand: 25, reset: nil, vendorSPIHz: 64_000_000),
        source: "adafruit/Raspberry-Pi-Installer-Scripts@3021821; adafruit/Adafruit_CircuitPython_RGB_Display@b089f40")

    private static let ili9341Installer = "adafruit/Raspberry-Pi-Installer-Scripts@3021821:mipi/adafruit_ili9341_drm.txt, old_scripts/adafruit-pitft-mipi.py"
}
