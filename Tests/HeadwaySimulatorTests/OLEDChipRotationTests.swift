import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// Turning the picture by 180° through the re-map and scan commands, as a driver for a module
/// mounted upside down would, and what that takes on each glass.
@Suite("Virtual OLED rotation")
struct OLEDChipRotationTests {
    /// Sends the module's initialisation with `replacements` applied (opcode → new bytes), then the
    /// picture through `write`, and returns the chip.
    func run(_ script: OLEDModuleScript, replacing replacements: [[UInt8]: [UInt8]],
             write: (@Sendable (Bitmap, OLEDChipTestBench) throws -> Void)? = nil) throws -> VirtualOLED {
        var initialisation = script.initialisation
        for (old, new) in replacements {
            let start = try #require(initialisation.firstRange(of: old), "\(old) not in the initialisation")
            initialisation.replaceSubrange(start, with: new)
        }
        let bench = try OLEDChipTestBench(script.controller, script.width, script.height, on: .i2c)
        try bench.commands(initialisation)
        try (write ?? script.write)(OLEDTestPicture.marks(width: script.width, height: script.height), bench)
        return bench.chip
    }

    @Test(arguments: [(OLEDController.ssd1306, 128, 64), (.ssd1306, 128, 32), (.ssd1306, 64, 48), (.sh1106, 128, 64), (.ssd1315, 128, 64)])
    func a0AndC0TurnTheAdafruitStyleModules(_ controller: OLEDController, _ width: Int, _ height: Int) throws {
        // These glasses sit symmetrically in the RAM (SH1106: columns 2 … 129 of 0 … 131; 64x48:
        // 32 … 95 of 0 … 127), so the same column window shows the turned picture.
        let chip = try run(.script(controller, width, height), replacing: [[0xA1, 0xC8]: [0xA0, 0xC0]])
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect(chip.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: width, height: height)))
    }

    @Test func theWaveshareSSD1309TurnsTheOtherWay() throws {
        let chip = try run(.script(.ssd1309, 128, 64), replacing: [[0xA0, 0xC0]: [0xA1, 0xC8]])
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect(chip.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 64)))
    }

    @Test func turningTheSSD1305BonnetMovesItsColumnsFrom4To0() throws {
        // 128 glass columns on SEG0 … SEG127 of 132: written at 4 … 131 with A1h, they show
        // columns 0 … 127 once A0h maps column c to SEG c.
        let script = OLEDModuleScript.script(.ssd1305, 128, 32)
        let shifted = try run(script, replacing: [[0xA1, 0xC8]: [0xA0, 0xC0]])
        #expect(shifted.picture != OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 32)))
        let turned = try run(script, replacing: [[0xA1, 0xC8]: [0xA0, 0xC0]], write: OLEDModuleScript.solomonWindow(firstColumn: 0))
        #expect(turned.protocolErrors.isEmpty, "\(turned.protocolErrors)")
        #expect(turned.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 32)))
    }

    @Test func sh1107SquareGlassTurnsWithA1AndC8() throws {
        let chip = try run(.script(.sh1107, 128, 128), replacing: [[0xA0, 0xC0]: [0xA1, 0xC8]])
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect(chip.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 128)))
    }

    @Test func sh1107TallGlassTurnsOnlyWithTheOffsetMovedToo() throws {
        let script = OLEDModuleScript.script(.sh1107, 64, 128)
        // Reversing the scan of 64 lines that start at COM96 sends them to COMs the glass is not
        // bonded to: the glass goes dark.
        let dark = try run(script, replacing: [[0xA0, 0xC0]: [0xA1, 0xC8]])
        #expect(dark.picture.isBlank)
        // With the offset at 20h the reversed lines land back on the glass, turned.
        let turned = try run(script, replacing: [[0xA0, 0xC0]: [0xA1, 0xC8], [0xD3, 0x60]: [0xD3, 0x20]])
        #expect(turned.protocolErrors.isEmpty, "\(turned.protocolErrors)")
        #expect(turned.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: 64, height: 128)))
    }

    @Test func ssd1327TurnsWithColumnRemapOffAndNibbleRemapOn() throws {
        let script = OLEDModuleScript.script(.ssd1327, 128, 128)
        // Column re-map off alone mirrors the pairs but not the pixels within them (Table 7-6 vs
        // 7-8): every pixel lands one beside its place.
        let pairs = try run(script, replacing: [[0xA0, 0x51]: [0xA0, 0x40]])
        #expect(pairs.picture != OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 128)))
        // With the nibble re-map on (A[1]) the high nibble goes to the even segment: a true mirror.
        let turned = try run(script, replacing: [[0xA0, 0x51]: [0xA0, 0x42]])
        #expect(turned.protocolErrors.isEmpty, "\(turned.protocolErrors)")
        #expect(turned.picture == OLEDTestPicture.turned(OLEDTestPicture.marks(width: 128, height: 128)))
    }

    @Test func ssd1327KernelStylePackingShowsUprightToo() throws {
        // The kernel's ssd130x sends A0h 53h and puts even x in the low nibble: with the nibble
        // re-map on, that is the same segments as Adafruit's 51h with even x high.
        let script = OLEDModuleScript.script(.ssd1327, 128, 128)
        let chip = try run(script, replacing: [[0xA0, 0x51]: [0xA0, 0x53]], write: OLEDModuleScript.greyWindow(evenHigh: false))
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect(chip.picture == OLEDTestPicture.marks(width: 128, height: 128))
    }
}
