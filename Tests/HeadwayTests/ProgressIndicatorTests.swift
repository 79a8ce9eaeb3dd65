import Headway
import HeadwaySimulator
import Testing

/// WS2812 LEDs on their own virtual SPI bus.
func simulatedChain(_ count: Int, layout: LEDLayout, clock: any ProgressClock) -> SimulatedLEDChain {
    try! .ws2812(name: "leds", count: count, layout: layout, bus: VirtualSPIBus(clock: clock))
}

/// An SSD1306 128x64 on its own virtual bus.
func simulatedOLED(clock: any ProgressClock) -> SimulatedOLED {
    SimulatedOLED(
        name: "oled", configuration: try! OLEDConfiguration(controller: .ssd1306),
        bus: VirtualI2CBus(clock: clock))
}

@Suite("ProgressIndicator")
struct ProgressIndicatorTests {
    let policy = LifecyclePolicy(grace: 2, stallAfter: 30, linger: 3, loseAfter: 600)

    @Test func showsNothingDuringGraceThenTheJob() throws {
        let clock = ManualClock()
        let ring = simulatedChain(24, layout: .ring(), clock: clock)
        let oled = simulatedOLED(clock: clock)
        let indicator = ProgressIndicator(
            label: "Backup", outputs: [LEDOutput(ring.driver, layout: .ring()), DisplayOutput(oled.driver)],
            policy: policy, clock: clock)
        try indicator.update(value: 1, total: 4)
        clock.advance(by: 1)
        try indicator.refresh()
        #expect(ring.levels.allSatisfy { $0 == RGB8.off })
        #expect(oled.picture.litCount() == 0)
        clock.advance(by: 1.5)
        let snapshot = try indicator.refresh()
        #expect(snapshot.phase == JobPhase.active)
        #expect(ring.levels[0] != RGB8.off)
        #expect(oled.picture.litCount() > 0)
    }

    @Test func unchangedFramesAreNotSent() throws {
        let clock = ManualClock()
        let oled = simulatedOLED(clock: clock)
        let indicator = ProgressIndicator(outputs: [DisplayOutput(oled.driver)], policy: policy, clock: clock)
        try indicator.update(value: 0.5)
        clock.set(to: 3)
        try indicator.refresh()
        let transactions = oled.i2cBus!.statistics.total.transactions
        try indicator.refresh()
        #expect(oled.i2cBus!.statistics.total.transactions == transactions, "the same picture is not sent twice")
    }

    @Test func refusedReportsChangeNothing() throws {
        let clock = ManualClock()
        let indicator = ProgressIndicator(outputs: [], policy: policy, clock: clock)
        try indicator.update(value: 3, total: 10)
        #expect(throws: ProgressError.invalidValue(-.infinity)) { try indicator.update(value: -.infinity) }
        #expect(throws: ProgressError.indeterminateAfterDeterminate) { try indicator.indeterminate() }
        #expect(indicator.snapshot.kind == .determinate(value: 3, total: 10))
    }

    @Test func aFailingOutputDoesNotStopTheOthersAndRecoversWithAWholeFrame() throws {
        let clock = ManualClock()
        let oled = simulatedOLED(clock: clock)
        let strip = simulatedChain(10, layout: .strip, clock: clock)
        let indicator = ProgressIndicator(outputs: [DisplayOutput(oled.driver), LEDOutput(strip.driver)], policy: policy, clock: clock)
        try indicator.update(value: 0.2)
        clock.set(to: 3)
        try indicator.refresh()
        oled.i2cBus!.inject(.disappear(address: 0x3C, until: 4.05))
        try indicator.update(value: 0.6)
        clock.set(to: 4)
        #expect(throws: DeviceError.self) { try indicator.refresh() }
        #expect(strip.levels[5] != strip.levels[9], "the strip was drawn although the display failed")
        oled.i2cBus!.endFrame()
        clock.set(to: 4.1)
        try indicator.refresh()
        oled.i2cBus!.endFrame()
        // Plugged back in, the display has lost power: it is set up again and sent the whole picture.
        #expect(oled.i2cBus!.statistics.frames.last!.bytes > 1024, "after a failure the display is sent the whole picture")
        #expect(oled.chip.protocolErrors.isEmpty)
        var expected = Bitmap(width: 128, height: 64)
        BarScreenStyle().render(ProgressStyleConfiguration(snapshot: indicator.snapshot), into: &expected)
        #expect(oled.picture == expected)
    }

    @Test func runReturnsAfterTheSignal() async throws {
        let clock = ManualClock()
        let strip = simulatedChain(10, layout: .strip, clock: clock)
        let indicator = ProgressIndicator(outputs: [LEDOutput(strip.driver)], policy: policy, clock: clock)
        try indicator.update(value: 0.5)
        clock.set(to: 5)
        try indicator.finish(.succeeded)
        clock.set(to: 9)  // past the linger
        await indicator.run(framesPerSecond: 100)
        #expect(strip.levels.allSatisfy { $0 == RGB8.off }, "the outputs went back to idle")
    }
}
