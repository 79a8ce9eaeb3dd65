import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// The 4-wire SPI front end: D/C# per message, RES# pulses and recovery, clock and mode limits,
/// all on a manual clock.
@Suite("Virtual OLED over SPI")
struct OLEDChipSPITests {
    /// A bench on SPI with RES# requested high.
    func bench(_ controller: OLEDController) throws -> (OLEDChipTestBench, any GPIOOutputLines) {
        let size = VirtualOLED.sizes(of: controller)[0]
        let bench = try OLEDChipTestBench(controller, size.width, size.height, on: .spi)
        let reset = try bench.gpio.requestOutputs([OLEDChipTestBench.resetLine], activeLow: false, initial: [true])
        return (bench, reset)
    }

    /// RES# low for `seconds`, then high.
    func pulse(_ reset: any GPIOOutputLines, for seconds: Double, on clock: ManualClock) throws {
        try reset.set([false])
        clock.advance(by: seconds)
        try reset.set([true])
    }

    @Test func aShortResetPulseIsCaught() throws {
        let (bench, reset) = try bench(.ssd1306)
        try pulse(reset, for: 1e-6, on: bench.clock)
        #expect(bench.chip.protocolErrors == ["RES# low pulse of 1.0 µs is shorter than the ssd1306's 3.0 µs"])
    }

    @Test(arguments: OLEDController.allCases)
    func aLongEnoughPulseResetsTheRegistersAndKeepsTheRAM(_ controller: OLEDController) throws {
        let (bench, reset) = try bench(controller)
        let script = OLEDModuleScript.script(controller, bench.chip.panel.width, bench.chip.panel.height)
        let picture = OLEDTestPicture.marks(width: script.width, height: script.height)
        try bench.commands(script.initialisation)
        try script.write(picture, bench)
        try pulse(reset, for: OLEDControllerFacts.of(controller).minimumResetPulse, on: bench.clock)
        bench.clock.advance(by: 10e-6)
        #expect(bench.chip.picture.isBlank, "display off after reset")
        try bench.commands(script.initialisation)
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
        #expect(bench.chip.picture == picture, "the RAM kept its picture")
    }

    @Test func bytesWhileResetIsLowAreLost() throws {
        let (bench, reset) = try bench(.ssd1309)
        try reset.set([false])
        try bench.commands([0xAF])
        #expect(bench.chip.protocolErrors == ["1 byte(s) arrived while RES# is low and are lost"])
        #expect(!bench.chip.registers.displayOn)
    }

    @Test func sinoWealthChipsNeedTimeAfterReset() throws {
        let (bench, reset) = try bench(.sh1107)
        try pulse(reset, for: 10e-6, on: bench.clock)
        bench.clock.advance(by: 1e-6)
        try bench.commands([0xAF])
        #expect(bench.chip.protocolErrors == ["first byte 1.0 µs after RES# rose; the sh1107 is still resetting for 2.0 µs and loses 1 byte(s)"])
        #expect(!bench.chip.registers.displayOn)
        try pulse(reset, for: 10e-6, on: bench.clock)
        bench.clock.advance(by: 2e-6)
        try bench.commands([0xAF])
        #expect(bench.chip.registers.displayOn)
        #expect(bench.chip.protocolErrors.count == 1)
    }

    @Test func solomonChipsTakeBytesRightAfterReset() throws {
        let (bench, reset) = try bench(.ssd1315)
        try pulse(reset, for: 3e-6, on: bench.clock)
        try bench.commands([0xAF])
        #expect(bench.chip.protocolErrors.isEmpty)
        #expect(bench.chip.registers.displayOn)
    }

    @Test func theClockMayNotBeFasterThanTheSerialCycleTime() throws {
        var (fast, _) = try bench(.sh1106)
        fast.speedHz = 8_000_000
        try fast.commands([0xE3])
        #expect(fast.chip.protocolErrors == ["SPI clock 8000000 Hz is above the sh1106's 4000000 Hz (serial clock cycle time)"])
        var (ssd1306, _) = try bench(.ssd1306)
        ssd1306.speedHz = 8_000_000
        try ssd1306.commands([0xE3])
        #expect(ssd1306.chip.protocolErrors.isEmpty)
    }

    @Test func modesThatSampleOnFallingEdgesAreRefused() throws {
        var (bench, _) = try bench(.ssd1327)
        bench.mode = 1
        try bench.commands([0xAF])
        #expect(bench.chip.protocolErrors == ["SPI mode 1 samples on falling clock edges; the ssd1327 shifts data in on rising edges (modes 0, 3)"])
        bench.mode = 3
        try bench.commands([0xAE])
        #expect(bench.chip.protocolErrors.count == 1)
    }

    @Test func theDCLineDecidesForTheWholeMessage() throws {
        let (bench, _) = try bench(.ssd1306)
        try bench.commands([0x8D, 0x14, 0xAF, 0xA4])
        try bench.dc.set([true])
        // Sent with D/C# high, these are display data, not commands: the display stays normal.
        try bench.spi.write([0xA5, 0xA5], settings: SPISettings(speedHz: 1_000_000))
        #expect(!bench.chip.registers.entireDisplayOn)
        #expect(bench.chip.registers.ram[0] == 0xA5 && bench.chip.registers.ram[1] == 0xA5)
    }

    @Test func capturedLevelsReplayWithoutRequestingLines() throws {
        let clock = ManualClock()
        let gpio = VirtualGPIOChip(label: "pinctrl-bcm2835", clock: clock)
        let spi = VirtualSPIBus(clockModel: .exact, clock: clock)
        let chip = VirtualOLED(controller: .sh1106, width: 128, height: 64)
        spi.attach(chip)
        chip.wireSPI(dc: 25, reset: 24, on: gpio, clock: clock)
        gpio.setLevels([24], physical: [false])
        clock.advance(by: 5e-6)
        gpio.setLevels([24, 25], physical: [true, false])
        clock.advance(by: 1e-6)
        try spi.write([0xAF, 0xB0, 0x02, 0x10], settings: SPISettings(speedHz: 4_000_000))
        gpio.setLevels([25], physical: [true])
        try spi.write([0xFF], settings: SPISettings(speedHz: 4_000_000))
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect(chip.picture.litCount() == 8)
    }

    @Test func aChipNotWiredForSPISaysSo() {
        let chip = VirtualOLED(controller: .ssd1305, width: 128, height: 32)
        chip.receive([0xAF], hz: 1_000_000, mode: 0)
        #expect(chip.protocolErrors == ["an SPI message reached a chip not wired for SPI (wireSPI was not called)"])
    }
}
