extension OLEDModuleModel {
    /// The modules modelled, each with the vendor initialisation it is bonded for.
    public static let catalogue: [OLEDModuleModel] = [
        // Adafruit_SSD1306 begin() (and luma.oled's ssd1306, u8g2's ssd1306_128x64_noname): A8h 3Fh,
        // D3h 00h, 40h, 8Dh 14h, A1h, C8h, DAh 12h. Cheap 0.96" modules run the panel from the
        // SSD1306's charge pump.
        OLEDModuleModel(.ssd1306, 128, 64, name: "0.96\" SSD1306 128x64", layout: [0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x12],
                   externalSupply: false, source: "Adafruit_SSD1306 begin(); luma.oled ssd1306; u8g2 u8x8_d_ssd1306_128x64_noname_init_seq"),
        // Adafruit_SSD1306 / luma.oled per-size table for 128x32: multiplex 1Fh, COM pins 02h.
        OLEDModuleModel(.ssd1306, 128, 32, name: "SSD1306 128x32 (Adafruit PiOLED)", layout: [0xA8, 0x1F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x02],
                   externalSupply: false, source: "Adafruit_SSD1306 begin() for 128x32; luma.oled ssd1306 (128x32: 0x1F, 0x02)"),
        // WeMos D1 mini OLED shield: luma.oled 64x48 (multiplex 2Fh, COM pins 12h) writing columns
        // 32 … 95; MicroPython's ssd1306 driver shifts 64-wide displays by 32 columns.
        OLEDModuleModel(.ssd1306, 64, 48, name: "SSD1306 64x48 (WeMos D1 mini shield)", layout: [0xA8, 0x2F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x12],
                   firstColumn: 32, externalSupply: false,
                   source: "luma.oled ssd1306 (64x48: 0x2F, 0x12, column offset (128 − 64) / 2); MicroPython drivers/display/ssd1306.py"),
        // Adafruit_SH1106G begin(): A8h 3Fh, D3h 00h, 40h, ADh 8Bh, A1h, C8h, DAh 12h; display()
        // writes from column 2 (_page_start_offset = 2, "the SH1106 display we have found requires a
        // small offset into memory"); luma.oled sh1106 likewise. The built-in DC-DC runs the panel.
        OLEDModuleModel(.sh1106, 128, 64, name: "1.3\" SH1106 128x64", layout: [0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x12],
                   firstColumn: 2, externalSupply: false, source: "Adafruit_SH110X Adafruit_SH1106G::begin(), display(); luma.oled sh1106"),
        // Waveshare 2.42" OLED (SSD1309): OLED_2in42.py Init() sends A8h 3Fh, D3h 00h, DAh 12h and
        // neither A1h nor C8h, so the glass is upright with the reset re-map and scan; the panel
        // voltage comes from the board (the SSD1309 has no charge pump).
        OLEDModuleModel(.ssd1309, 128, 64, name: "Waveshare 2.42\" SSD1309 128x64", layout: [0xA8, 0x3F, 0xD3, 0x00, 0xDA, 0x12],
                   externalSupply: true, source: "Waveshare OLED_2in42.py Init() and ShowImage() (V1.0, 2022-07-14)"),
        // Adafruit_CircuitPython_SSD1305 init_display(): A1h, A8h height−1, D3h 00h, ADh 8Eh (external
        // VCC), 40h, C8h, DAh 12h; show() writes from column 4 on 32-pixel-high glass.
        OLEDModuleModel(.ssd1305, 128, 32, name: "Adafruit 2.23\" SSD1305 128x32 bonnet",
                   layout: [0xA1, 0xA8, 0x1F, 0xD3, 0x00, 0xAD, 0x8E, 0x40, 0xC8, 0xDA, 0x12], firstColumn: 4, externalSupply: true,
                   source: "Adafruit_CircuitPython_SSD1305 adafruit_ssd1305.py init_display(), show() (_column_offset = 4 for height 32)"),
        OLEDModuleModel(.ssd1305, 128, 64, name: "SSD1305 128x64 (as Adafruit's SSD1305 library drives it)",
                   layout: [0xA1, 0xA8, 0x3F, 0xD3, 0x00, 0xAD, 0x8E, 0x40, 0xC8, 0xDA, 0x12],
                   externalSupply: true,
                   source: "Adafruit_CircuitPython_SSD1305 adafruit_ssd1305.py init_display(), show() (no column offset for height 64)"),
        // Seeed Grove OLED Display 0.96" (SSD1315): the wiki drives it with u8g2's
        // ssd1306_128x64_noname (A8h 3Fh, D3h 00h, 40h, 8Dh 14h, A1h, C8h, DAh 12h); "we removed the
        // expensive DC-DC boost circuit": the charge pump runs the panel.
        OLEDModuleModel(.ssd1315, 128, 64, name: "Seeed Grove 0.96\" SSD1315 128x64", layout: [0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x12],
                   externalSupply: false, source: "Seeed wiki Grove-OLED-Display-0.96-SSD1315 (U8G2_SSD1306_128X64_NONAME); u8g2 init sequence"),
        // Adafruit_SH1107::begin(): ADh 8Ah (DC-DC off: the board supplies VPP), A0h, C0h, DCh 00h,
        // then for 128x128 D3h 00h, A8h 7Fh; display() writes page p from column 0.
        OLEDModuleModel(.sh1107, 128, 128, name: "Adafruit 1.12\" SH1107 128x128", layout: [0xA0, 0xC0, 0xDC, 0x00, 0xD3, 0x00, 0xA8, 0x7F],
                   externalSupply: true, source: "Adafruit_SH110X Adafruit_SH1107::begin() (init, init_128x128), display()"),
        // The 128x64 FeatherWing is 64 columns by 128 rows of RAM (Adafruit_SH1107(64, 128), shown
        // turned with setRotation(1)): D3h 60h, A8h 3Fh.
        OLEDModuleModel(.sh1107, 64, 128, name: "Adafruit 128x64 OLED FeatherWing (SH1107, 64x128 glass)",
                   layout: [0xA0, 0xC0, 0xDC, 0x00, 0xD3, 0x60, 0xA8, 0x3F], externalSupply: true,
                   source: "Adafruit_SH110X Adafruit_SH1107::begin() (64x128: D3h 60h, A8h 3Fh), display()"),
        // Adafruit_SSD1327 begin(): A0h 51h, A1h 00h, A2h 00h, A8h 7Fh; Adafruit_GrayOLED puts even x
        // in the high nibble. (The kernel's ssd130x sends A0h 53h with even x in the low nibble, which
        // lands on the same segments.) VCC comes from the board.
        OLEDModuleModel(.ssd1327, 128, 128, name: "1.5\" SSD1327 128x128 (Adafruit, Waveshare)", layout: [0xA0, 0x51, 0xA1, 0x00, 0xA2, 0x00, 0xA8, 0x7F],
                   evenPixelInHighNibble: true, externalSupply: true,
                   source: "Adafruit_SSD1327 begin(), display(); Adafruit_GrayOLED::drawPixel (4 bpp)"),
        // Seeed Grove OLED Display 1.12" V1: SeeedGrayOLED::init() A8h 5Fh, A1h 00h, A2h 60h, A0h 46h;
        // columns 08h … 37h ("Start from 8th Column of driver IC. This is 0th Column for OLED"), rows
        // 0 … 95; the left pixel of each pair in the high nibble (grayH).
        OLEDModuleModel(.ssd1327, 96, 96, name: "Seeed Grove OLED 1.12\" V1 (SSD1327 96x96)", layout: [0xA8, 0x5F, 0xA1, 0x00, 0xA2, 0x60, 0xA0, 0x46],
                   firstColumn: 8, evenPixelInHighNibble: true, externalSupply: true,
                   source: "Seeed-Studio OLED_Display_96X96 SeeedGrayOLED.cpp init(), putChar()"),
    ]
}
