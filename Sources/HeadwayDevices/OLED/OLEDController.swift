/// The OLED controllers Headway drives.
public enum OLEDController: String, Sendable, Equatable, CaseIterable {
    /// Solomon SSD1306: 128x64 RAM, horizontal/vertical/page addressing, internal charge pump.
    case ssd1306
    /// Sino Wealth SH1106: 132x64 RAM shown on 128-column glass, page addressing only, DC-DC via 0xAD.
    case sh1106
    /// Solomon SSD1309: SSD1306's command set for 128x64 glass driven from an external panel supply
    /// (no charge pump).
    case ssd1309
    /// Solomon SSD1305: 132x64 RAM with a column offset, as on 128x32 and 128x64 modules.
    case ssd1305
    /// Solomon SSD1315: the SSD1306's successor on newer 0.96" modules.
    case ssd1315
    /// Sino Wealth SH1107: 128x128 RAM in 16 pages, page addressing, for square and tall glass.
    case sh1107
    /// Solomon SSD1327: 128x128 RAM of 4-bit grey levels, addressed by row and column windows.
    case ssd1327
}
