import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// The vendors' published initialisations, replayed byte for byte with their delays: where they
/// keep to the datasheets the model is silent, and where they do not, it says so (these are the
/// disagreements docs/tft-controllers.md lists).
@Suite("Vendors' TFT initialisations")
struct TFTVendorInitialisationTests {
    /// A command, its parameters, and the delay the vendor sleeps after it.
    typealias Step = (opcode: UInt8, parameters: [UInt8], delay: Double)

    /// Sends each step as the vendor's library does: the opcode with D/C low, each parameter in a
    /// message of its own with D/C high when `bytewise` (Pimoroni's `data()` and Waveshare's
    /// `LCD_WriteData_8bit`), else the parameters in one message.
    func replay(_ steps: [Step], on bench: TFTChipTestBench, bytewise: Bool) throws {
        for step in steps {
            try bench.commands([step.opcode])
            if bytewise {
                for parameter in step.parameters { try bench.data([parameter]) }
            } else if !step.parameters.isEmpty {
                try bench.data(step.parameters)
            }
            bench.wait(step.delay)
        }
    }

    @Test func pimoronisST7789InitialisationSkipsAFixedParameterAndTheWaitAfterSleepOut() throws {
        // pimoroni/st7789-python@2e0df28:st7789/__init__.py `_init()`, for the Display HAT Mini (no RES#).
        let steps: [Step] = [
            (0x01, [], 0.150), (0x36, [0x70], 0), (0xB2, [0x0C, 0x0C, 0x00, 0x33, 0x33], 0), (0x3A, [0x05], 0),
            (0xB7, [0x14], 0), (0xBB, [0x37], 0), (0xC0, [0x2C], 0), (0xC2, [0x01], 0), (0xC3, [0x12], 0),
            (0xC4, [0x20], 0), (0xD0, [0xA4, 0xA1], 0), (0xC6, [0x0F], 0),
            (0xE0, [0xD0, 0x04, 0x0D, 0x11, 0x13, 0x2B, 0x3F, 0x54, 0x4C, 0x18, 0x0D, 0x0B, 0x1F, 0x23], 0),
            (0xE1, [0xD0, 0x04, 0x0C, 0x11, 0x13, 0x2C, 0x3F, 0x44, 0x51, 0x2F, 0x1F, 0x1F, 0x20, 0x23], 0),
            (0x21, [], 0), (0x11, [], 0), (0x29, [], 0.100),
        ]
        var bench = try TFTChipTestBench(.displayHATMini)
        bench.speedHz = 60_000_000
        try replay(steps, on: bench, bytewise: true)
        #expect(bench.chip.protocolErrors == [
            "VDVVRHEN (0xC2) got 1 of its 2 parameter byte(s) before command 0xC3; it is not executed",
            "DISPON (0x29) came 0.0 ms after SLPOUT (0x11); the ST7789V2 needs 5.0 ms first (ST7789VW V1.0 (for the ST7789V2) §9.1.12)",
        ])
        try bench.backlight?.set([true])
        #expect(bench.chip.isLit)
    }

    @Test func adafruitsDisplayioST7789InitialisationKeepsEveryWait() throws {
        // adafruit/Adafruit_CircuitPython_ST7789@24a0fee:adafruit_st7789.py `_INIT_SEQUENCE`, then
        // MADCTL C0h and INVON (`bgr=True`, `invert=True`).
        let steps: [Step] = [
            (0x01, [], 0.150), (0x11, [], 0.500), (0x3A, [0x55], 0.010), (0x36, [0x08], 0), (0x13, [], 0.010),
            (0x29, [], 0.500), (0x36, [0xC0], 0), (0x21, [], 0),
        ]
        let bench = try TFTChipTestBench(.miniPiTFT13)
        try bench.pulseReset(for: 10e-6)
        bench.wait(0.150)
        try replay(steps, on: bench, bytewise: false)
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    @Test func adafruitsILI9341InitialisationSendsAnUndocumentedCommandAndAShortDISCTRL() throws {
        // adafruit/Raspberry-Pi-Installer-Scripts@3021821:mipi/adafruit_ili9341_drm.txt (rotation 90).
        let steps: [Step] = [
            (0x01, [], 0.128), (0xEF, [0x03, 0x80, 0x02], 0), (0xCF, [0x00, 0xC1, 0x30], 0), (0xED, [0x64, 0x03, 0x12, 0x81], 0),
            (0xE8, [0x85, 0x00, 0x78], 0), (0xCB, [0x39, 0x2C, 0x00, 0x34, 0x02], 0), (0xF7, [0x20], 0), (0xEA, [0x00, 0x00], 0),
            (0xC0, [0x23], 0), (0xC1, [0x10], 0), (0xC5, [0x3E, 0x28], 0), (0xC7, [0x86], 0), (0x36, [0xE8], 0),
            (0x37, [0x00], 0), (0x3A, [0x55], 0), (0xB1, [0x00, 0x18], 0), (0xB6, [0x08, 0x82, 0x27], 0), (0xF2, [0x00], 0),
            (0x26, [0x01], 0),
            (0xE0, [0x0F, 0x31, 0x2B, 0x0C, 0x0E, 0x08, 0x4E, 0xF1, 0x37, 0x07, 0x10, 0x03, 0x0E, 0x09, 0x00], 0),
            (0xE1, [0x00, 0x0E, 0x14, 0x03, 0x11, 0x07, 0x31, 0xC1, 0x48, 0x08, 0x0F, 0x0C, 0x31, 0x36, 0x0F], 0),
            (0x11, [], 0.120), (0x29, [], 0.120),
        ]
        let bench = try TFTChipTestBench(.piTFT28)
        try bench.pulseReset(for: 10e-6)
        bench.wait(0.120)
        try replay(steps, on: bench, bytewise: false)
        #expect(bench.chip.protocolErrors == [
            "unknown command 0xEF: the ILI9341 datasheet's command list does not define it",
            "3 data byte(s) after 0xEF belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)",
            "VSCRSADD (0x37) got 1 of its 2 parameter byte(s) before command 0x3A; it is not executed",
            "DISCTRL (0xB6) got 3 of its 4 parameter byte(s) before command 0xF2; it is not executed",
        ])
        #expect(bench.chip.isLit)
    }

    @Test func waveshares144InitialisationSendsTwoCommandsTheST7735SLacks() throws {
        // hytromo/display-2fa-raspberry-pi@d2ccc71:LCD_1in44.py (Waveshare 1.44inch LCD HAT demo V2.0):
        // `LCD_Reset()`, `LCD_InitReg()`, `LCD_SetGramScanWay(U2D_R2L)`, 200 ms, SLPOUT, 120 ms, DISPON.
        let steps: [Step] = [
            (0xB1, [0x01, 0x2C, 0x2D], 0), (0xB2, [0x01, 0x2C, 0x2D], 0), (0xB3, [0x01, 0x2C, 0x2D, 0x01, 0x2C, 0x2D], 0),
            (0xB4, [0x07], 0), (0xC0, [0xA2, 0x02, 0x84], 0), (0xC1, [0xC5], 0), (0xC2, [0x0A, 0x00], 0), (0xC3, [0x8A, 0x2A], 0),
            (0xC4, [0x8A, 0xEE], 0), (0xC5, [0x0E], 0),
            (0xE0, [0x0F, 0x1A, 0x0F, 0x18, 0x2F, 0x28, 0x20, 0x22, 0x1F, 0x1B, 0x23, 0x37, 0x00, 0x07, 0x02, 0x10], 0),
            (0xE1, [0x0F, 0x1B, 0x0F, 0x17, 0x33, 0x2C, 0x29, 0x2E, 0x30, 0x30, 0x39, 0x3F, 0x00, 0x07, 0x03, 0x10], 0),
            (0xF0, [0x01], 0), (0xF6, [0x00], 0), (0x3A, [0x05], 0), (0x36, [0x68], 0.200), (0x11, [], 0.120), (0x29, [], 0),
        ]
        let bench = try TFTChipTestBench(.waveshare144)
        try bench.reset.set([true])
        bench.wait(0.100)
        try bench.pulseReset(for: 0.100)
        bench.wait(0.100)
        try replay(steps, on: bench, bytewise: true)
        #expect(bench.chip.protocolErrors == [
            "unknown command 0xF0: the ST7735S datasheet's command list does not define it",
            "1 data byte(s) after 0xF0 belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)",
            "unknown command 0xF6: the ST7735S datasheet's command list does not define it",
            "1 data byte(s) after 0xF6 belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)",
        ])
    }
}
