import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// The SSD1327's 4-bit RAM: nibble order under the re-maps, windows, grey levels and table.
@Suite("Virtual SSD1327")
struct OLEDChipSSD1327Tests {
    /// A bare 128x128 module, display on, with re-map `remap`; `commands` and `data` follow.
    func chip(remap: UInt8 = 0x51, _ commands: [UInt8] = [], data: [UInt8] = []) throws -> VirtualOLED {
        let bench = try OLEDChipTestBench(.ssd1327, 128, 128, on: .i2c)
        try bench.commands([0xA0, remap, 0xAF] + commands)
        if !data.isEmpty { try bench.data(data) }
        return bench.chip
    }

    struct Remap: Sendable, CustomTestStringConvertible {
        let value: UInt8
        let low: Int, high: Int
        let table: String
        var testDescription: String { "A0h \(hexByte(value)): \(table)" }
    }

    @Test(arguments: [
        Remap(value: 0x00, low: 0, high: 1, table: "Table 7-6: SEG0 = D0[3:0], SEG1 = D0[7:4]"),
        Remap(value: 0x02, low: 1, high: 0, table: "nibble re-map: the nibbles swap places"),
        Remap(value: 0x01, low: 126, high: 127, table: "column re-map: column 0 on SEG126/127, nibbles in order"),
        Remap(value: 0x03, low: 127, high: 126, table: "Table 7-8: SEG127 = D0[3:0], SEG126 = D0[7:4]"),
    ])
    func nibbleOrderUnderTheRemaps(_ remap: Remap) throws {
        let chip = try chip(remap: remap.value, data: [0x21])
        let pixels = try #require(chip.greyscaleRegisters).pixels
        #expect(pixels[remap.low] == 1 && pixels[remap.high] == 2)
        #expect(pixels.filter { $0 != 0 }.count == 2)
    }

    @Test func theGlassShowsEachPixelsGreyIndex() throws {
        // Adafruit's layout (51h) with x = 0 in the high nibble.
        let chip = try chip(data: [0x5A, 0xF0])
        let glass = chip.glass
        #expect(glass[0, 0] == 5 && glass[1, 0] == 10 && glass[2, 0] == 15 && glass[3, 0] == 0)
        #expect(chip.picture[1, 0] && !chip.picture[0, 0], "the picture lights levels 8 and up")
    }

    @Test func aWindowAwayFromTheCornerHasAnAbsoluteEnd() throws {
        // Pixels 20 … 25 (column addresses 10 … 12) of rows 40 … 43: ends are start + count − 1.
        let chip = try chip([0x15, 10, 12, 0x75, 40, 43], data: Array(repeating: 0xFF, count: 3 * 4))
        var expected = Greymap(width: 128, height: 128)
        expected.fill(PixelRect(x: 20, y: 40, width: 6, height: 4), level: 15)
        #expect(chip.protocolErrors.isEmpty)
        #expect(chip.glass == expected)
    }

    @Test func anEndSentAsACountMinusOneMisplacesTheData() throws {
        // The kernel's first version sent `columns − 1` as the end: for 3 columns from 10, end 2 is
        // before the start — refused — and for 3 columns from 1, end 2 leaves one column short, so
        // the rows run into each other.
        #expect(try chip([0x15, 10, 2]).protocolErrors == ["column window 10…2 is invalid (0…63 column addresses of two pixels, start ≤ end)"])
        let short = try chip([0x15, 1, 2, 0x75, 0, 1], data: [0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00])
        var intended = Greymap(width: 128, height: 128)
        intended.fill(PixelRect(x: 2, y: 0, width: 6, height: 1), level: 15)
        #expect(short.glass != intended)
    }

    @Test func verticalIncrementFillsColumnsFirst() throws {
        // A[2] = 1 (Figure 9-3): row pointer first, then the next column.
        let chip = try chip(remap: 0x55, [0x15, 0, 1, 0x75, 0, 1], data: [0x11, 0x22, 0x33, 0x44])
        let glass = chip.glass
        #expect(glass[0, 0] == 1 && glass[0, 1] == 2 && glass[2, 0] == 3 && glass[2, 1] == 4)
    }

    @Test func displayModes() throws {
        let chip = try chip(data: [0x5A])
        chip.receive([0x00, 0xA7])
        #expect(chip.glass[0, 0] == 10 && chip.glass[1, 0] == 5 && chip.glass[5, 5] == 15)
        chip.receive([0x00, 0xA5])
        #expect(chip.glass[0, 0] == 15 && chip.glass[100, 100] == 15)
        chip.receive([0x00, 0xA6])
        #expect(chip.glass.isBlank)
        chip.receive([0x00, 0xA4, 0xAE])
        #expect(chip.glass.isBlank)
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func theGreyTableIsRecordedAndMustRise() throws {
        let rising: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48, 56, 63]
        let chip = try chip([0xB8] + rising)
        #expect(chip.greyTable == [0] + rising)
        #expect(chip.protocolErrors.isEmpty)
        chip.receive([0x00, 0xB8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 14, 15])
        #expect(chip.protocolErrors == [
            "grey scale table [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 14, 15] is not monotonic (0 < GS1 < GS2 < … < GS15)",
        ])
        chip.receive([0x00, 0xB9])
        #expect(chip.greyTable == [0, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28])
    }

    @Test func withoutVDDNothingShowsAndRAMIsOutOfReach() throws {
        let chip = try chip([0xAB, 0x00], data: [0xFF])
        #expect(chip.glass.isBlank)
        #expect(chip.protocolErrors == ["display data 0xFF while the internal VDD regulator is off (ABh 00h): no RAM access"])
    }

    @Test func theSeeedGlassUsesColumns8To55AndCOMsFrom32() throws {
        // Writing at column address 0 misses the 96x96 glass entirely (it starts at column 8).
        let bench = try OLEDModuleScript.script(.ssd1327, 96, 96).bench(on: .i2c)
        try bench.commands([0x15, 0, 3, 0x75, 0, 0])
        try bench.data([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(bench.chip.glass.isBlank)
        try bench.commands([0x15, 8, 8, 0x75, 0, 0])
        try bench.data([0xF0])
        #expect(bench.chip.glass[0, 0] == 15 && bench.chip.glass[1, 0] == 0)
    }
}
