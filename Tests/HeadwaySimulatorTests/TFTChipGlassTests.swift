import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// What the glass shows: dark until the panel runs and the backlight shines, the module's colour
/// order and inversion, idle and partial modes, brightness.
@Suite("Virtual TFT glass")
struct TFTChipGlassTests {
    /// Fills the whole glass of the bench's module with one 5-6-5 colour, written as the vendor's
    /// reference rotation writes.
    func fill(_ bench: TFTChipTestBench, _ colour: UInt16) throws {
        let reference = bench.module.reference
        try bench.window(column: reference.columnOffset, row: reference.rowOffset, width: reference.windowWidth, height: reference.windowHeight)
        try bench.data(TFTChipTestBench.bytes565(Array(repeating: colour, count: reference.windowWidth * reference.windowHeight)))
    }

    @Test(arguments: TFTModuleModel.catalogue.map(\.name))
    func theVendorsInitialisationLightsTheGlassInTheRightColours(_ name: String) throws {
        let module = try #require(TFTModuleModel.named(name))
        let bench = try TFTChipTestBench(module)
        #expect(bench.chip.glass.isDark, "dark before initialisation: sleep in, display off")
        try bench.initialiseAsVendor()
        try fill(bench, 0xF800)
        let glass = bench.chip.glass
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
        #expect(glass.isLit)
        #expect(glass.width == module.width && glass.height == module.height)
        #expect(glass.pixels.allSatisfy { $0 == RGB8(red: 255, green: 0, blue: 0) }, "\(module.name): every pixel red")
    }

    @Test func theGlassIsDarkInSleepWithTheDisplayOffOrTheBacklightOff() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialiseAsVendor()
        try fill(bench, 0xFFFF)
        #expect(bench.chip.isLit)
        try bench.command(0x28)
        #expect(bench.chip.glass.isDark, "DISPOFF")
        try bench.command(0x29)
        #expect(bench.chip.isLit)
        try bench.backlight?.set([false])
        #expect(bench.chip.glass.isDark, "backlight off")
        try bench.backlight?.set([true])
        try bench.command(0x10)
        #expect(bench.chip.glass.isDark, "SLPIN")
        bench.wait(0.120)
        try bench.command(0x11)
        #expect(bench.chip.isLit, "SLPOUT: the frame memory kept its picture")
        #expect(bench.chip.glass[0, 0] == RGB8(red: 255, green: 255, blue: 255))
        try bench.reset.set([false])
        #expect(bench.chip.glass.isDark, "blank while RES# is low")
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func theBacklightLineMustBeDrivenToLight() throws {
        let bench = try TFTChipTestBench(.displayHATMini)
        try bench.initialiseAsVendor()
        try bench.backlight?.set([false])
        #expect(!bench.chip.isLit)
        try bench.backlight?.set([true])
        #expect(bench.chip.isLit)
    }

    @Test func brightnessScalesTheLightNotTheNumbers() throws {
        let bench = try TFTChipTestBench(.waveshare13)
        try bench.initialiseAsVendor()
        try fill(bench, 0xFFFF)
        bench.chip.backlightBrightness = 0.5
        // Half the light of sRGB 255 is sRGB 188 (the sRGB curve at 0.5: 1.055·0.5^(1/2.4) − 0.055 = 0.7354).
        #expect(bench.chip.glass[10, 10] == RGB8(red: 188, green: 188, blue: 188))
        bench.chip.backlightBrightness = 0
        #expect(bench.chip.glass.isDark && !bench.chip.isLit)
        bench.chip.backlightBrightness = 7
        #expect(bench.chip.backlightBrightness == 1, "clamped")
        bench.chip.backlightBrightness = .nan
        #expect(bench.chip.backlightBrightness == 0)
    }

    @Test func aPanelThatNeedsINVONShowsTheComplementWithout() throws {
        let bench = try TFTChipTestBench(.waveshare13)
        try bench.initialise(madctl: 0x70, inversion: false)
        try fill(bench, 0xF800)
        #expect(bench.chip.glass[5, 5] == RGB8(red: 0, green: 255, blue: 255), "red shows cyan on a normally-black IPS panel without INVON")
        try bench.command(0x21)
        #expect(bench.chip.glass[5, 5] == RGB8(red: 255, green: 0, blue: 0))
    }

    @Test func theBGRBitMustMatchTheColourFilter() throws {
        let bench = try TFTChipTestBench(.piTFT28)
        try bench.initialise(madctl: 0xE0, inversion: false)
        try fill(bench, 0xF800)
        #expect(bench.chip.glass[0, 0] == RGB8(red: 0, green: 0, blue: 255), "RGB order on a BGR panel shows red as blue")
        try bench.command(0x36, [0xE8])
        #expect(bench.chip.glass[0, 0] == RGB8(red: 255, green: 0, blue: 0), "BGR takes effect without rewriting the memory")
    }

    @Test func lcmctrlFlipsTheST7789sColourOrderAndInversion() throws {
        let bench = try TFTChipTestBench(.waveshare13)
        try bench.initialiseAsVendor()
        try fill(bench, 0xF800)
        try bench.command(0xC0, [UInt8(0x2C ^ 0x20)])  // XBGR changed from its reset value
        #expect(bench.chip.glass[0, 0] == RGB8(red: 0, green: 0, blue: 255))
        try bench.command(0xC0, [UInt8(0x2C ^ 0x10)])  // XINV
        #expect(bench.chip.glass[0, 0] == RGB8(red: 0, green: 255, blue: 255))
        try bench.command(0xC0, [0x2C])
        #expect(bench.chip.glass[0, 0] == RGB8(red: 255, green: 0, blue: 0))
    }

    @Test func idleModeShowsEachLevelsTopBitOnly() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialiseAsVendor(colmod: 0x66)
        try bench.window(column: 0, row: 0, width: 2, height: 1)
        try bench.data(TFTChipTestBench.bytes666([(40, 31, 63), (20, 33, 0)]))
        try bench.command(0x39)
        #expect(bench.chip.glass[0, 0] == RGB8(red: 255, green: 0, blue: 255))
        #expect(bench.chip.glass[1, 0] == RGB8(red: 0, green: 255, blue: 0))
        try bench.command(0x38)
        #expect(bench.chip.glass[0, 0] == RGB8(red: 162, green: 125, blue: 255), "levels widened: 40 → 162, 31 → 125")
    }

    @Test func partialModeShowsOnlyThePartialRows() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialiseAsVendor()
        try fill(bench, 0x07E0)
        try bench.command(0x30, TFTChipTestBench.pair(10, 19))
        try bench.command(0x12)
        let glass = bench.chip.glass
        #expect(glass[0, 9] == .off && glass[0, 10] == RGB8(red: 0, green: 255, blue: 0) && glass[0, 19] != .off && glass[0, 20] == .off)
        try bench.command(0x13)
        #expect(bench.chip.glass[0, 0] == RGB8(red: 0, green: 255, blue: 0))
    }

    @Test func theFrameMemoryHoldsNoiseUntilWritten() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialiseAsVendor()
        let glass = bench.chip.glass
        #expect(glass.isLit)
        #expect(Set(glass.pixels.prefix(100)).count > 50, "\"Contents of memory is set randomly\" at power-up")
    }

    @Test func powerCyclingForgetsTheRegistersAndThePicture() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.initialiseAsVendor()
        try fill(bench, 0x001F)
        bench.chip.powerOn()
        #expect(bench.chip.glass.isDark)
        try bench.initialiseAsVendor()
        #expect(bench.chip.glass[0, 0] != RGB8(red: 0, green: 0, blue: 255))
    }
}
