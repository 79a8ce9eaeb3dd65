import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// Each fault a driver can make is a protocol error with the datasheet's reason, and the chip goes
/// on as the datasheet says it does.
@Suite("Virtual TFT protocol errors")
struct TFTChipErrorTests {
    func initialised(_ module: TFTModuleModel = .miniPiTFT13) throws -> TFTChipTestBench {
        let bench = try TFTChipTestBench(module)
        try bench.initialiseAsVendor()
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
        return bench
    }

    @Test func aCommandTheDatasheetDoesNotDefine() throws {
        // Adafruit's ILI9341 initialisation starts with EFh 03h 80h 02h, which the ILI9341 V1.11
        // command list does not have: its parameters then belong to no command.
        let bench = try initialised(.piTFT28)
        try bench.command(0xEF, [0x03, 0x80, 0x02])
        #expect(bench.chip.protocolErrors == [
            "unknown command 0xEF: the ILI9341 datasheet's command list does not define it",
            "3 data byte(s) after 0xEF belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)",
        ])
    }

    @Test func tooFewParametersAreCutOffAndTooManyBelongToNoCommand() throws {
        let bench = try initialised()
        try bench.command(0x2A, [0x00, 0x10])
        try bench.command(0x2B, TFTChipTestBench.pair(0, 9))
        try bench.command(0x36, [0x00, 0x00])
        #expect(bench.chip.protocolErrors == [
            "CASET (0x2A) got 2 of its 4 parameter byte(s) before command 0x2B; it is not executed",
            "1 data byte(s) after MADCTL (0x36) belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)",
        ])
    }

    @Test func theVendorsOmittedFixedParameterIsAWrongCount() throws {
        // VDVVRHEN (C2h) takes CMDEN and a fixed FFh (ST7789V V1.3 §9.2.12); a lone 01h is one short.
        let bench = try initialised(.waveshare13)
        try bench.command(0xC2, [0x01])
        try bench.command(0xC3, [0x12])
        #expect(bench.chip.protocolErrors == ["VDVVRHEN (0xC2) got 1 of its 2 parameter byte(s) before command 0xC3; it is not executed"])
    }

    @Test func pixelsWithoutRAMWRBelongToNoCommand() throws {
        let bench = try initialised()
        try bench.command(0x13)
        try bench.data([0xF8, 0x00, 0xF8, 0x00])
        #expect(bench.chip.protocolErrors == ["4 data byte(s) after NORON (0x13) belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)"])
        #expect(bench.chip.glass.protocolErrors == bench.chip.protocolErrors, "the glass carries the errors with its picture")
    }

    @Test func pixelsPastTheWindowsEndWrapToItsStart() throws {
        let bench = try initialised()
        try bench.window(column: 0, row: 0, width: 2, height: 1)
        try bench.data(TFTChipTestBench.bytes565([0x0001, 0x0002]))
        #expect(bench.chip.protocolErrors.isEmpty, "exactly the window is fine")
        try bench.data(TFTChipTestBench.bytes565([0x0003]))
        #expect(bench.chip.protocolErrors == ["RAMWR (0x2C) got more pixels than its 2 x 1 window holds (pixel 3 is past its end): the counters wrap to the window's start and overwrite it"])
        #expect(bench.chip.framePixel(x: 0, y: 0).blue == 6)
    }

    @Test func theILI9341DropsPixelsPastTheWindowUnderWEMODE0() throws {
        let bench = try initialised(.piTFT28)
        try bench.command(0xF6, [0x00, 0x00, 0x00])
        try bench.command(0x36, [0x08])
        try bench.window(column: 0, row: 0, width: 1, height: 1)
        try bench.data(TFTChipTestBench.bytes565([0x0001, 0x0002]))
        #expect(bench.chip.protocolErrors == ["RAMWR (0x2C) got more pixels than its 1 x 1 window holds (pixel 2 is past its end): they are ignored (WEMODE 0)"])
        #expect(bench.chip.framePixel(x: 0, y: 0).blue == 2)
    }

    @Test func aWindowOutsideTheMemory() throws {
        let bench = try initialised()
        try bench.command(0x36, [0x00])
        try bench.window(column: 200, row: 0, width: 41, height: 1)
        #expect(bench.chip.protocolErrors == [
            "RAMWR (0x2C) window columns 200…240, rows 0…0 reaches outside the 240x320 frame memory (columns 0…239, rows 0…319 with MADCTL 0x00); pixels outside it are ignored",
        ])
        try bench.command(0x2A, TFTChipTestBench.pair(20, 10))
        #expect(bench.chip.protocolErrors.last == "CASET (0x2A) start 20 is past its end 10 (XS must not exceed XE)")
    }

    @Test func aPixelGroupCutShortByACommand() throws {
        let bench = try initialised()
        try bench.window(column: 0, row: 0, width: 4, height: 1)
        try bench.data([0xF8])
        try bench.command(0x00)
        #expect(bench.chip.protocolErrors == ["RAMWR (0x2C) ended 1 byte(s) into a 16-bit (RGB 5-6-5) pixel group, before command 0x00"])
    }

    @Test func aPixelFormatTheSerialInterfaceLacks() throws {
        let bench = try initialised(.piTFT28)
        try bench.command(0x3A, [0x53])
        #expect(bench.chip.protocolErrors == ["PIXSET (0x3A) 0x53 selects no 4-line serial pixel format of the ILI9341; the format stays 16-bit (RGB 5-6-5)"])
    }

    @Test(arguments: [
        (TFTModuleModel.miniPiTFT13, UInt32(15_000_000), UInt32(16_000_000), "ST7789V", 15_151_515),
        (TFTModuleModel.waveshare13, 62_500_000, 64_000_000, "ST7789VW", 62_500_000),
        (TFTModuleModel.waveshare144, 15_000_000, 16_000_000, "ST7735S", 15_151_515),
        (TFTModuleModel.piTFT28, 10_000_000, 12_000_000, "ILI9341", 10_000_000),
    ])
    func theClockMayNotBeFasterThanTheSerialWriteCycle(_ module: TFTModuleModel, _ fine: UInt32, _ fast: UInt32, _ name: String, _ limit: Int) throws {
        var bench = try initialised(module)
        bench.speedHz = fine
        try bench.command(0x00)
        #expect(bench.chip.protocolErrors.isEmpty)
        bench.speedHz = fast
        try bench.command(0x00)
        #expect(bench.chip.protocolErrors == ["SPI clock \(fast) Hz is above the \(name)'s \(limit) Hz (serial clock cycle time, write)"])
    }

    @Test func modesThatSampleOnFallingEdgesAreRefused() throws {
        var bench = try initialised()
        bench.mode = 1
        try bench.command(0x00)
        bench.mode = 3
        try bench.command(0x00)
        #expect(bench.chip.protocolErrors == ["SPI mode 1 samples on falling clock edges; the ST7789V latches SDA on rising edges (modes 0, 3)"])
    }

    @Test func resetPulsesShorterThanTRWAreErrorsAndSpikesAreRejected() throws {
        let bench = try initialised()
        try bench.pulseReset(for: 3e-6)
        #expect(bench.chip.isLit, "a 3 µs spike is rejected: the display stays on")
        try bench.pulseReset(for: 8e-6)
        #expect(!bench.chip.isLit, "8 µs resets")
        #expect(bench.chip.protocolErrors == [
            "RES# low pulse of 3.0 µs is shorter than the ST7789V's 10.0 µs (t_RW)",
            "RES# low pulse of 8.0 µs is shorter than the ST7789V's 10.0 µs (t_RW)",
        ])
    }

    @Test func bytesDuringAndJustAfterResetAreLost() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.reset.set([false])
        try bench.command(0x29)
        bench.wait(10e-6)
        try bench.reset.set([true])
        bench.wait(1e-3)
        try bench.command(0x29)
        bench.wait(4e-3)
        try bench.command(0x01)
        #expect(bench.chip.protocolErrors == [
            "1 byte(s) arrived while RES# is low and are lost",
            "1 byte(s) arrived 1.0 ms after RES# rose; the ST7789V loads its defaults for 5.0 ms (t_RT) and loses them",
        ])
    }

    @Test func sleepOutTooSoonAfterResetAndCommandsTooSoonAfterSleepOut() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.pulseReset(for: 10e-6)
        bench.wait(0.010)
        try bench.command(0x11)
        try bench.command(0x29)
        #expect(bench.chip.protocolErrors == [
            "SLPOUT (0x11) came 10.0 ms after RES# rose; the ST7789V needs 120.0 ms first (ST7789V V1.3 §7.4.5 note 7)",
            "DISPON (0x29) came 0.0 ms after SLPOUT (0x11); the ST7789V needs 5.0 ms first (ST7789V V1.3 §9.1.12)",
        ])
    }

    @Test func theST7735NeedsTheFull120MillisecondsAfterSleepOut() throws {
        let bench = try TFTChipTestBench(.waveshare144)
        try bench.pulseReset(for: 10e-6)
        bench.wait(0.120)
        try bench.command(0x11)
        bench.wait(0.050)
        try bench.command(0x29)
        #expect(bench.chip.protocolErrors == ["DISPON (0x29) came 50.0 ms after SLPOUT (0x11); the ST7735S needs 120.0 ms first (ST7735S V1.4 SLPOUT restriction)"])
    }

    @Test func theILI9341WantsTimeBetweenSleepInAndSleepOut() throws {
        let bench = try initialised(.piTFT28)
        bench.wait(0.120)
        try bench.command(0x10)
        bench.wait(0.010)
        try bench.command(0x11)
        #expect(bench.chip.protocolErrors == ["SLPOUT (0x11) came 10.0 ms after SLPIN (0x10); the ILI9341 needs 120.0 ms first (ILI9341 V1.11 §8.2.12)"])
    }

    @Test func theErrorListHasABound() throws {
        let bench = try initialised()
        try bench.commands(Array(repeating: 0xFF, count: 600))
        #expect(bench.chip.protocolErrors.count == 501)
        #expect(bench.chip.protocolErrors.last == "more protocol errors followed and were not recorded (the first 500 are above)")
    }

    @Test func aControllerOfAnotherFamilyThanTheModulesLeavesTheGlassDark() throws {
        let bench = try TFTChipTestBench(.miniPiTFT13, controller: .ili9341)
        try bench.initialise(madctl: 0x00, inversion: true)
        #expect(bench.chip.glass.isDark)
        #expect(bench.chip.protocolErrors == ["the Adafruit Mini PiTFT 1.3\" carries a ST7789V, not a ILI9341; its glass stays dark"])
    }

    @Test func messagesBeforeWiringAreReported() {
        let chip = VirtualTFT(module: .miniPiTFT13)
        chip.receive([0x29], hz: 1_000_000, mode: 0)
        #expect(chip.protocolErrors == ["an SPI message reached a chip not wired for SPI (wireSPI was not called)"])
    }
}
