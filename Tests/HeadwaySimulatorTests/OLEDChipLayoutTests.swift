import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// What a driver that gets the layout commands wrong sees on a real module: shifted, garbled or
/// mirrored pictures, with the expectation worked out from the datasheets' tables.
@Suite("Virtual OLED layout")
struct OLEDChipLayoutTests {
    /// `picture` moved by (`dx`, `dy`): glass (x, y) shows picture (x + dx, y + dy), wrapping
    /// around when `wrap` (a RAM that scans round), dark outside otherwise.
    func moved(_ picture: Bitmap, dx: Int = 0, dy: Int = 0, wrap: Bool) -> Bitmap {
        var result = Bitmap(width: picture.width, height: picture.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                var (sx, sy) = (x + dx, y + dy)
                if wrap { (sx, sy) = ((sx + picture.width) % picture.width, (sy + picture.height) % picture.height) }
                result[x, y] = picture[sx, sy]
            }
        }
        return result
    }

    func draw(_ controller: OLEDController, _ width: Int, _ height: Int, then extra: [UInt8] = [], before: [UInt8] = []) throws -> VirtualOLED {
        let script = OLEDModuleScript.script(controller, width, height)
        let bench = try script.bench(on: .i2c)
        if !before.isEmpty { try bench.commands(before) }
        try script.write(OLEDTestPicture.marks(width: width, height: height), bench)
        if !extra.isEmpty { try bench.commands(extra) }
        return bench.chip
    }

    @Test func displayOffsetMovesThePictureUpWithWrapAround() throws {
        // SSD1306 Table 10-2 (b): with the scan reversed and offset 8, the COM that showed Row55
        // shows Row63: every glass row shows the RAM row 8 below it.
        let chip = try draw(.ssd1306, 128, 64, then: [0xD3, 0x08])
        #expect(chip.picture == moved(OLEDTestPicture.marks(width: 128, height: 64), dy: 8, wrap: true))
    }

    @Test func startLineMovesThePictureUpWithWrapAround() throws {
        // Table 10-1 (c): start line 8 shows RAM8 where RAM0 was.
        let chip = try draw(.ssd1306, 128, 64, then: [0x48])
        #expect(chip.picture == moved(OLEDTestPicture.marks(width: 128, height: 64), dy: 8, wrap: true))
    }

    @Test func wrongCOMPinsGarbleTheRowsButKeepEveryPixel() throws {
        // A 64-line glass bonded for the alternative configuration, driven sequentially: the rows
        // are shuffled (Table 10-3 configurations 1 and 5 put the same signal on different rows).
        let chip = try draw(.ssd1306, 128, 64, then: [0xDA, 0x02])
        let picture = OLEDTestPicture.marks(width: 128, height: 64)
        #expect(chip.protocolErrors.isEmpty)
        #expect(chip.picture != picture)
        #expect(chip.picture.litCount() == picture.litCount())
    }

    @Test func tooFewLinesLeaveTheBottomOfTheGlassDark() throws {
        // Multiplex 32 on the 64-line glass: only 32 lines are scanned.
        let chip = try draw(.ssd1306, 128, 64, then: [0xA8, 0x1F])
        #expect(chip.picture.litCount() < OLEDTestPicture.marks(width: 128, height: 64).litCount())
    }

    @Test func solomonSegmentRemapOnlyAffectsLaterData() throws {
        // SSD1306 §10.1.8: "This command only affects subsequent data input."
        let chip = try draw(.ssd1306, 128, 64, then: [0xA0])
        #expect(chip.picture == OLEDTestPicture.marks(width: 128, height: 64))
    }

    @Test func sinoWealthSegmentRemapTurnsWhatIsShown() throws {
        // SH1106 §6 reverses the output pads: the picture already there mirrors at once.
        let chip = try draw(.sh1106, 128, 64, then: [0xA0])
        let picture = OLEDTestPicture.marks(width: 128, height: 64)
        #expect(chip.picture == picture.mirrored())
    }

    @Test func comScanDirectionFlipsWhatIsShownAtOnce() throws {
        // SSD1306 §10.1.14 / SSD1315 §1.2.15: "the graphic display will be vertically flipped immediately".
        let chip = try draw(.ssd1306, 128, 64, then: [0xC0])
        #expect(chip.picture == OLEDTestPicture.marks(width: 128, height: 64).flippedVertically())
    }

    @Test func sh1106WithoutTheColumnOffsetIsShiftedByTwo() throws {
        let script = OLEDModuleScript.script(.sh1106, 128, 64)
        let bench = try script.bench(on: .i2c)
        try OLEDModuleScript.pages(firstColumn: 0)(OLEDTestPicture.marks(width: 128, height: 64), bench)
        // Column x of the picture lands in RAM column x, which the glass shows at x − 2.
        #expect(bench.chip.picture == moved(OLEDTestPicture.marks(width: 128, height: 64), dx: 2, wrap: false))
    }

    @Test func sh1107TallGlassMovesSidewaysWithTheStartLine() throws {
        // The SH1107's columns run along the COM lines: DCh start line 1 shows column x + 1 at x.
        let chip = try draw(.sh1107, 64, 128, then: [0xDC, 0x01])
        #expect(chip.picture == moved(OLEDTestPicture.marks(width: 64, height: 128), dx: 1, wrap: false))
    }

    @Test func sh1107TallGlassMovesSidewaysWithTheOffset() throws {
        let chip = try draw(.sh1107, 64, 128, then: [0xD3, 0x61])
        let picture = OLEDTestPicture.marks(width: 64, height: 128)
        #expect(chip.picture == moved(picture, dx: -1, wrap: false) || chip.picture == moved(picture, dx: 1, wrap: false))
    }

    @Test func sh1107TallGlassFacts() throws {
        // Page 0 column 0 bit 0 is the top left; column 63 the top right; page 15 bit 7 the bottom left.
        let bench = try OLEDModuleScript.script(.sh1107, 64, 128).bench(on: .i2c)
        try bench.commands([0xB0, 0x00, 0x10])
        try bench.data([0x01])
        try bench.commands([0xB0, 0x0F, 0x13])
        try bench.data([0x01])
        try bench.commands([0xBF, 0x00, 0x10])
        try bench.data([0x80])
        let picture = bench.chip.picture
        #expect(picture.width == 64 && picture.height == 128)
        #expect(picture[0, 0] && picture[63, 0] && picture[0, 127])
        #expect(picture.litCount() == 3)
    }

    @Test func thePanelLightsOnlyWithItsSupply() throws {
        // Charge pump modules stay dark without 8Dh 14h; boards that supply VCC light without it.
        let pumped = try OLEDChipTestBench(.ssd1306, 128, 64, on: .i2c)
        try pumped.commands([0xA5, 0xAF])
        #expect(pumped.chip.picture.isBlank)
        let external = try OLEDChipTestBench(.ssd1309, 128, 64, on: .i2c)
        try external.commands([0xA5, 0xAF])
        #expect(external.chip.picture.litCount() == 128 * 64)
        // SSD1315 8.5 V charge pump (94h); SSD1305 display on in dim mode (ACh).
        let ssd1315 = try OLEDChipTestBench(.ssd1315, 128, 64, on: .i2c)
        try ssd1315.commands([0x8D, 0x94, 0xA5, 0xAF])
        #expect(ssd1315.chip.picture.litCount() == 128 * 64)
        let dim = try OLEDChipTestBench(.ssd1305, 128, 32, on: .i2c)
        try dim.commands([0xA5, 0xAC])
        #expect(dim.chip.picture.litCount() == 128 * 32)
        // SH1106 modules run on the DC-DC converter: off (ADh 8Ah) means dark.
        let sh1106 = try OLEDChipTestBench(.sh1106, 128, 64, on: .i2c)
        try sh1106.commands([0xAD, 0x8A, 0xA5, 0xAF])
        #expect(sh1106.chip.picture.isBlank)
        #expect(pumped.chip.protocolErrors + external.chip.protocolErrors + ssd1315.chip.protocolErrors + dim.chip.protocolErrors
            + sh1106.chip.protocolErrors == [])
    }
}

extension Bitmap {
    /// Left and right swapped.
    func mirrored() -> Bitmap { OLEDTestPicture.turned(self).flippedVertically() }

    /// Top and bottom swapped.
    func flippedVertically() -> Bitmap {
        var result = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where self[x, y] { result[x, height - 1 - y] = true }
        }
        return result
    }
}
