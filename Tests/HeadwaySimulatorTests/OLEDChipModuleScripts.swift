import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// For every module modelled, an initialisation and a way of writing a picture, written by hand
/// from the datasheets' command tables (not from any driver), with the layout the module's vendor
/// uses.
struct OLEDModuleScript: Sendable, CustomTestStringConvertible {
    let controller: OLEDController
    let width: Int
    let height: Int
    let initialisation: [UInt8]
    let write: @Sendable (Bitmap, OLEDChipTestBench) throws -> Void

    var testDescription: String { "\(controller.rawValue) \(width)x\(height)" }

    /// Solomon horizontal addressing: 20h 00h, the column window 21h from `firstColumn`, the page
    /// window 22h, then every page's bytes in one stream (SSD1306 §10.1.3–§10.1.5).
    static func solomonWindow(firstColumn: Int = 0) -> @Sendable (Bitmap, OLEDChipTestBench) throws -> Void {
        { picture, bench in
            try bench.commands([0x20, 0x00, 0x21, UInt8(firstColumn), UInt8(firstColumn + picture.width - 1), 0x22, 0x00, UInt8(picture.pages - 1)])
            try bench.data(picture.bytes)
        }
    }

    /// Page addressing, page by page: B0h+page, column low nibble 0xh, high nibble 1xh (SH1106 §1, §2,
    /// §12; SH1107 §1, §2, §12).
    static func pages(firstColumn: Int = 0) -> @Sendable (Bitmap, OLEDChipTestBench) throws -> Void {
        { picture, bench in
            for page in 0..<picture.pages {
                try bench.commands([0xB0 + UInt8(page), UInt8(firstColumn & 0x0F), 0x10 | UInt8(firstColumn >> 4)])
                try bench.data(OLEDTestPicture.page(picture, page))
            }
        }
    }

    /// SSD1327 windows: 15h column addresses (pairs) from `firstColumn`, 75h rows, then the rows of
    /// two-pixel bytes (Rev 1.8 §9.1.1, §9.1.2).
    static func greyWindow(firstColumn: Int = 0, evenHigh: Bool) -> @Sendable (Bitmap, OLEDChipTestBench) throws -> Void {
        { picture, bench in
            let grey = Greymap(picture)
            try bench.commands([0x15, UInt8(firstColumn), UInt8(firstColumn + grey.width / 2 - 1), 0x75, 0x00, UInt8(grey.height - 1)])
            try bench.data((0..<grey.height).flatMap { OLEDTestPicture.greyRow(grey, $0, evenHigh: evenHigh) })
        }
    }

    static let all: [OLEDModuleScript] = [
        // SSD1306 Table 9-1: display off, clock, multiplex 64, offset 0, start line 0, charge pump on
        // (application note 8Dh 14h), segment re-map, COM scan reversed, alternative COM pins,
        // contrast, pre-charge, VCOMH 0.77 x VCC, resume RAM, normal, display on.
        OLEDModuleScript(controller: .ssd1306, width: 128, height: 64,
                         initialisation: [0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0xCF,
                                          0xD9, 0xF1, 0xDB, 0x20, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow()),
        // 32 lines, sequential COM pins (Table 10-3 configuration 3).
        OLEDModuleScript(controller: .ssd1306, width: 128, height: 32,
                         initialisation: [0xAE, 0xA8, 0x1F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xA1, 0xC8, 0xDA, 0x02, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow()),
        // 48 lines on alternative pins; the glass sits on columns 32 … 95.
        OLEDModuleScript(controller: .ssd1306, width: 64, height: 48,
                         initialisation: [0xAE, 0xA8, 0x2F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xA1, 0xC8, 0xDA, 0x12, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow(firstColumn: 32)),
        // SH1106 §9 multiplex, §14 offset, §4 start line, §10 DC-DC on (ADh 8Bh, display off), §6
        // ADC reverse, §13 scan COM[N-1] → COM0, §17 alternative pads, §5 contrast, §16, §18, §11.
        OLEDModuleScript(controller: .sh1106, width: 128, height: 64,
                         initialisation: [0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0x80,
                                          0xD9, 0x22, 0xDB, 0x35, 0xA4, 0xA6, 0xAF],
                         write: pages(firstColumn: 2)),
        // SSD1309 Tables 9-1 … 9-5: no charge pump; the Waveshare glass wants the reset re-map and scan.
        OLEDModuleScript(controller: .ssd1309, width: 128, height: 64,
                         initialisation: [0xFD, 0x12, 0xAE, 0xD5, 0x70, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xA0, 0xC0, 0xDA, 0x12, 0x81, 0x7F,
                                          0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow()),
        // SSD1305 Table 9-1: external VCC (ADh 8Eh), 32 lines on alternative pins, glass on columns 4 … 131.
        OLEDModuleScript(controller: .ssd1305, width: 128, height: 32,
                         initialisation: [0xAE, 0xD5, 0x70, 0xA8, 0x1F, 0xD3, 0x00, 0x40, 0xAD, 0x8E, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0x80,
                                          0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow(firstColumn: 4)),
        OLEDModuleScript(controller: .ssd1305, width: 128, height: 64,
                         initialisation: [0xAE, 0xD5, 0x70, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8E, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0x80,
                                          0xD9, 0x22, 0xDB, 0x34, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow()),
        // SSD1315 App. IV Table 1-1: charge pump 7.5 V (8Dh 14h), VCOMH 20h.
        OLEDModuleScript(controller: .ssd1315, width: 128, height: 64,
                         initialisation: [0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0xA1, 0xC8, 0xDA, 0x12, 0x81, 0x7F,
                                          0xD9, 0x22, 0xDB, 0x20, 0xA4, 0xA6, 0xAF],
                         write: solomonWindow()),
        // SH1107 §3 page addressing (20h), §10 DC-DC off (external VPP), §17 start line DCh 00h,
        // §9 offset 0, §6 multiplex 128.
        OLEDModuleScript(controller: .sh1107, width: 128, height: 128,
                         initialisation: [0xAE, 0xD5, 0x50, 0x20, 0x81, 0x80, 0xAD, 0x8A, 0xA0, 0xC0, 0xDC, 0x00, 0xD3, 0x00, 0xD9, 0x22,
                                          0xDB, 0x35, 0xA8, 0x7F, 0xA4, 0xA6, 0xAF],
                         write: pages()),
        // The 64-column glass: 64 lines from COM96 (offset 60h).
        OLEDModuleScript(controller: .sh1107, width: 64, height: 128,
                         initialisation: [0xAE, 0xD5, 0x51, 0x20, 0x81, 0x4F, 0xAD, 0x8A, 0xA0, 0xC0, 0xDC, 0x00, 0xD3, 0x60, 0xD9, 0x22,
                                          0xDB, 0x35, 0xA8, 0x3F, 0xA4, 0xA6, 0xAF],
                         write: pages()),
        // SSD1327 Table 8-1: re-map 51h (column re-map, COM re-map, COM split), start 0, offset 0,
        // 128 MUX, phase length, clock, internal VDD, second pre-charge, VCOMH, pre-charge voltage,
        // function B, unlock, normal, on.
        OLEDModuleScript(controller: .ssd1327, width: 128, height: 128,
                         initialisation: [0xFD, 0x12, 0xAE, 0x81, 0x80, 0xA0, 0x51, 0xA1, 0x00, 0xA2, 0x00, 0xA8, 0x7F, 0xB1, 0x11, 0xB3, 0x00,
                                          0xAB, 0x01, 0xB6, 0x04, 0xBE, 0x07, 0xBC, 0x08, 0xD5, 0x62, 0xB9, 0xA4, 0xAF],
                         write: greyWindow(evenHigh: true)),
        // 96 lines from COM32 (offset 60h), nibble re-map and COM split (42h), columns 8 … 55.
        OLEDModuleScript(controller: .ssd1327, width: 96, height: 96,
                         initialisation: [0xFD, 0x12, 0xAE, 0xA8, 0x5F, 0xA1, 0x00, 0xA2, 0x60, 0xA0, 0x42, 0xAB, 0x01, 0x81, 0x53, 0xB1, 0x51,
                                          0xB3, 0x01, 0xB9, 0xBC, 0x08, 0xBE, 0x07, 0xB6, 0x01, 0xD5, 0x62, 0xA4, 0xAF],
                         write: greyWindow(firstColumn: 8, evenHigh: true)),
    ]

    /// The script for a module.
    static func script(_ controller: OLEDController, _ width: Int, _ height: Int) -> OLEDModuleScript {
        all.first { $0.controller == controller && $0.width == width && $0.height == height }!
    }

    /// A bench on `bus` with this module initialised.
    func bench(on bus: OLEDChipTestBench.Bus) throws -> OLEDChipTestBench {
        let bench = try OLEDChipTestBench(controller, width, height, on: bus)
        try bench.commands(initialisation)
        return bench
    }
}
