import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// Pixels into the frame memory: the formats COLMOD selects, the window and its counters, writes
/// that continue across messages and after Write Memory Continue. The Mini PiTFT 1.3" under MADCTL
/// 00h shows frame memory (x, y) at glass (x, y), so the glass reads the memory back.
@Suite("Virtual TFT pixels")
struct TFTChipPixelTests {
    func bench(colmod: UInt8) throws -> TFTChipTestBench {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialise(madctl: 0x00, colmod: colmod, inversion: true)
        return bench
    }

    @Test func rgb565WidensRedAndBlueThroughTheLookUpTable() throws {
        let bench = try bench(colmod: 0x55)
        try bench.window(column: 0, row: 0, width: 4, height: 1)
        // Red, green, blue, and R = 10000b, G = 100000b, B = 10000b: 5 bits abcde become abcdea.
        try bench.data([0xF8, 0x00, 0x07, 0xE0, 0x00, 0x1F, 0x84, 0x10])
        #expect(bench.chip.framePixel(x: 3, y: 0) == (33, 32, 33))
        let glass = bench.chip.glass
        #expect(glass[0, 0] == RGB8(red: 255, green: 0, blue: 0))
        #expect(glass[1, 0] == RGB8(red: 0, green: 255, blue: 0))
        #expect(glass[2, 0] == RGB8(red: 0, green: 0, blue: 255))
        #expect(glass[3, 0] == RGB8(red: 134, green: 130, blue: 134))
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test(arguments: [UInt8(0x66), 0x06])
    func rgb666TakesThreeBytesAPixel(_ colmod: UInt8) throws {
        let bench = try bench(colmod: colmod)
        try bench.window(column: 5, row: 7, width: 2, height: 1)
        try bench.data([0xFC, 0x80, 0x04, 0x03, 0x00, 0xFF])
        #expect(bench.chip.framePixel(x: 5, y: 7) == (63, 32, 1))
        #expect(bench.chip.framePixel(x: 6, y: 7) == (0, 0, 63), "D1 and D0 are not part of the level")
        #expect(bench.chip.glass[5, 7] == RGB8(red: 255, green: 130, blue: 4))
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func rgb444PacksTwoPixelsInThreeBytes() throws {
        let bench = try bench(colmod: 0x53)
        try bench.window(column: 0, row: 0, width: 2, height: 1)
        try bench.data([0xF0, 0x0F, 0x84])
        // 4 bits abcd become abcdab: F → 63, 8 → 34, 4 → 17.
        #expect(bench.chip.framePixel(x: 0, y: 0) == (63, 0, 0))
        #expect(bench.chip.framePixel(x: 1, y: 0) == (63, 34, 17))
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func theWindowFillsRowByRowAndAPixelMaySpanMessages() throws {
        let bench = try bench(colmod: 0x55)
        try bench.window(column: 100, row: 200, width: 3, height: 2)
        // Six pixels, numbered in their blue level; the third pixel's two bytes in two messages.
        try bench.data([0x00, 0x01, 0x00, 0x02, 0x00])
        try bench.data([0x03, 0x00, 0x04, 0x00, 0x05, 0x00, 0x06])
        let expected = [(100, 200, 2), (101, 200, 4), (102, 200, 6), (100, 201, 8), (101, 201, 10), (102, 201, 12)]
        for (x, y, blue) in expected { #expect(bench.chip.framePixel(x: x, y: y).blue == UInt8(blue), "(\(x), \(y))") }
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func writeMemoryContinueGoesOnWhereRAMWRStopped() throws {
        let bench = try bench(colmod: 0x55)
        try bench.window(column: 0, row: 0, width: 2, height: 2)
        try bench.data([0x00, 0x01])
        try bench.command(0x00)  // NOP ends the write
        try bench.commands([0x3C])
        try bench.data([0x00, 0x02])
        #expect(bench.chip.framePixel(x: 1, y: 0).blue == 4, "the second pixel, not the first again")
        try bench.commands([0x2C])
        try bench.data([0x00, 0x03])
        #expect(bench.chip.framePixel(x: 0, y: 0).blue == 6, "RAMWR starts at the window's start")
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func theWholeFrameMemoryIsAddressableBeyondTheGlass() throws {
        let bench = try bench(colmod: 0x55)
        try bench.window(column: 239, row: 319, width: 1, height: 1)
        try bench.data([0xFF, 0xFF])
        #expect(bench.chip.framePixel(x: 239, y: 319) == (63, 63, 63))
        // MV = 1 lays the memory out as 320 columns of 240 rows: column address 319 is row 319.
        try bench.command(0x36, [0x20])
        try bench.window(column: 319, row: 0, width: 1, height: 1)
        try bench.data([0xF8, 0x00])
        #expect(bench.chip.framePixel(x: 0, y: 319) == (63, 0, 0))
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func theST7735And9341MemoriesHaveTheirOwnSizes() throws {
        let st7735 = try TFTChipTestBench(.st7735rGreenTab)
        try st7735.initialise(madctl: 0x00, inversion: false)
        try st7735.window(column: 131, row: 161, width: 1, height: 1)
        try st7735.data([0x00, 0x1F])
        #expect(st7735.chip.framePixel(x: 131, y: 161) == (0, 0, 63))
        #expect(st7735.chip.protocolErrors.isEmpty, "\(st7735.chip.protocolErrors)")
        let ili9341 = try TFTChipTestBench(.piTFT28)
        try ili9341.initialise(madctl: 0x00, inversion: false)
        try ili9341.window(column: 239, row: 319, width: 1, height: 1)
        try ili9341.data([0x07, 0xE0])
        #expect(ili9341.chip.framePixel(x: 239, y: 319) == (0, 63, 0))
        #expect(ili9341.chip.protocolErrors.isEmpty, "\(ili9341.chip.protocolErrors)")
    }
}
