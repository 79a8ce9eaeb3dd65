import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import HeadwaySurfaces
import Testing

/// The HT16K33 model driven with byte sequences written from the Holtek datasheet (Rev 1.10).
@Suite("Virtual HT16K33")
struct MatrixHT16K33Tests {
    let clock = ManualClock()

    func chip(_ module: HT16K33Module = .matrix16x8()) -> VirtualHT16K33 {
        VirtualHT16K33(address: 0x70, module: module, clock: clock)
    }

    /// Each message as its own transaction (START, address, bytes, STOP).
    func send(_ chip: VirtualHT16K33, _ messages: [UInt8]...) {
        for message in messages {
            chip.receive(message)
            chip.stop()
        }
    }

    /// Oscillator on (0x21), RAM cleared from address 0 (17 bytes), display on without blink
    /// (0x81), full duty (0xEF): the Initialisation flow chart (p. 32) in the datasheet's commands.
    func start(_ chip: VirtualHT16K33) {
        send(chip, [0x21], [0x00] + [UInt8](repeating: 0, count: 16), [0x81], [0xEF])
    }

    func lit(_ glass: LEDGlass) -> Set<[Int]> { Set(glass.lit.map { [$0.x, $0.y] }) }

    @Test func theInitialisationShowsTheRAM() throws {
        let chip = chip()
        let bus = VirtualI2CBus(clock: clock)
        bus.attach(chip)
        try bus.write([0x21], to: 0x70)
        try bus.write([0x00] + [UInt8](repeating: 0, count: 16), to: 0x70)
        try bus.write([0x81], to: 0x70)
        try bus.write([0xEF], to: 0x70)
        #expect(chip.isOscillatorOn && chip.isDisplayOn && chip.dimmingSixteenths == 16 && chip.blinkHz == 0)
        #expect(chip.glass.lit.isEmpty)
        try bus.write([0x02, 0x01], to: 0x70)  // COM1, ROW0: (0, 1) on the 16x8 matrix.
        #expect(lit(chip.glass) == [[0, 1]])
        #expect(chip.glass.lit.allSatisfy { $0.brightness == 1 })
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
    }

    @Test func thePointerAutoIncrementsAndWrapsFrom0FhTo00h() {
        let chip = chip()
        start(chip)
        send(chip, [0x0E, 0xA1, 0xA2, 0xA3, 0xA4])
        #expect(chip.ram[14] == 0xA1 && chip.ram[15] == 0xA2 && chip.ram[0] == 0xA3 && chip.ram[1] == 0xA4)
        #expect(chip.ram[2...13].allSatisfy { $0 == 0 })
        // 17 data bytes from 00h: the 17th lands on 00h again.
        send(chip, [0x00] + (1...17).map { UInt8($0) })
        #expect(chip.ram[0] == 17 && chip.ram[1] == 2 && chip.ram[15] == 16)
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func dimmingSetsTheDutyInSixteenths() {
        let chip = chip()
        start(chip)
        send(chip, [0x00, 0xFF])
        send(chip, [0xE7])
        #expect(chip.dimmingSixteenths == 8)
        #expect(chip.glass.lit.allSatisfy { $0.brightness == 0.5 })
        send(chip, [0xE0])
        #expect(chip.glass.lit.allSatisfy { $0.brightness == 1.0 / 16 })
    }

    @Test(arguments: [(UInt8(0x83), 2.0), (0x85, 1.0), (0x87, 0.5)])
    func blinkIsOnForTheFirstHalfOfEachPeriod(command: UInt8, hz: Double) {
        let chip = chip()
        start(chip)
        send(chip, [0x00, 0x01])
        clock.advance(by: 10)
        send(chip, [command])
        #expect(chip.blinkHz == hz)
        let period = 1 / hz
        for (offset, shown) in [(0.1, true), (0.4, true), (0.6, false), (0.9, false), (1.1, true), (1.6, false)] {
            #expect(chip.glass(at: 10 + offset * period).lit.isEmpty == !shown, "at \(offset) of a period")
        }
        send(chip, [0x81])
        #expect(chip.glass(at: 10 + 0.6 * period).lit.count == 1, "blink off: steady")
    }

    @Test func displayOffAndStandbyAreDark() {
        let chip = chip()
        start(chip)
        send(chip, [0x00, 0xFF, 0xFF])
        #expect(chip.glass.lit.count == 16)
        send(chip, [0x80])
        #expect(chip.glass.lit.isEmpty)
        send(chip, [0x81], [0x20])
        #expect(chip.glass.lit.isEmpty, "standby stops the oscillator")
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func standbyTakesOnlyTheSystemSetupCommand() {
        let chip = chip()
        send(chip, [0x00, 0xFF], [0x81])
        #expect(chip.ram[0] == 0, "RAM written in standby is lost")
        #expect(!chip.isDisplayOn)
        #expect(chip.protocolErrors == [
            "command 0x00 and 1 data byte(s) sent in standby (oscillator off): the HT16K33 accepts only the system setup command (0x21 turns the oscillator on) and loses it",
            "command 0x81 sent in standby (oscillator off): the HT16K33 accepts only the system setup command (0x21 turns the oscillator on) and loses it",
        ])
    }

    @Test func theIntPinTakesRow15OffTheLEDs() {
        let chip = chip(.matrix16x8())
        start(chip)
        send(chip, [0x00, 0x00, 0x80])  // COM0 ROW15: (15, 0).
        #expect(lit(chip.glass) == [[15, 0]])
        send(chip, [0xA1])
        #expect(chip.isRowPinInterrupt)
        #expect(chip.glass.lit.isEmpty)
        send(chip, [0xA0])
        #expect(lit(chip.glass) == [[15, 0]])
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func keyScanPointersAreAccepted() {
        let chip = chip()
        start(chip)
        send(chip, [0x40], [0x45], [0x60])
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func protocolErrors() {
        func errors(_ message: [UInt8]) -> [String] {
            let chip = chip()
            start(chip)
            send(chip, message)
            return chip.protocolErrors
        }
        #expect(errors([0x30]) == ["unknown command 0x30 (the HT16K33 defines 0x00–0x0F, 0x20–0x2F, 0x40–0x45, 0x60, 0x80–0x8F, 0xA0–0xAF, 0xE0–0xEF)"])
        #expect(errors([0x61]).first?.hasPrefix("unknown command 0x61") == true)
        #expect(errors([0x48]).first?.hasPrefix("unknown command 0x48") == true)
        #expect(errors([0xD9]) == ["test mode command 0xD9 is for Holtek's use only (Command Summary)"])
        #expect(errors([0x21, 0x00]) == ["command 0x21 takes no data: 1 byte(s) after it are ignored"])
        #expect(errors([0x40, 0x12, 0x34]) == ["the key data RAM is read-only: 2 byte(s) written after 0x40 are ignored (Key Data Memory)"])
        #expect(errors([0x46]) == ["key data address 0x46 is past the key data RAM (0x40–0x45)"])
        #expect(errors([0x60, 0x01]) == ["the INT flag register (0x60) is read-only: 1 byte(s) written after it are ignored"])
        let stranger = VirtualHT16K33(address: 0x3C, module: .matrix8x8(), clock: clock)
        #expect(stranger.protocolErrors == ["an HT16K33 cannot answer at 0x3C (0x70–0x77: 1110 A2 A1 A0)"])
    }

    @Test func showingRAMNeverWrittenIsReportedOnce() {
        let chip = chip(.segments4())
        send(chip, [0x21], [0x00, 0x3F, 0x00, 0x06], [0x81], [0x81])
        #expect(chip.protocolErrors == [
            "the display is on while RAM 0x04, 0x06, 0x08 behind the module's LEDs was never written since power-on: the power-on reset does not clear RAM, so they show what it held"
        ])
    }

    @Test func powerOnResetsTheRegisters() {
        let chip = chip()
        start(chip)
        send(chip, [0x00, 0xFF], [0xE3], [0x83])
        chip.powerOn()
        #expect(!chip.isOscillatorOn && !chip.isDisplayOn && chip.dimmingSixteenths == 16 && chip.blinkHz == 0)
        #expect(chip.glass.lit.isEmpty)
    }

    @Test func theErrorListIsBounded() {
        let chip = chip()
        for _ in 0..<200 { send(chip, [0x30]) }
        let errors = chip.protocolErrors
        #expect(errors.count == 65)
        #expect(errors.last == "136 more protocol error(s) not kept (only the first 64 are)")
    }
}
