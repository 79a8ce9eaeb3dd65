import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// The controller models on their own: byte streams written by hand from the datasheets.
@Suite("Virtual OLED controllers")
struct OLEDModelTests {
    /// The canonical SSD1306 128x64 set-up, one command byte per control byte (Co = 1).
    static let ssd1306Setup: [UInt8] = [0xAE, 0xA8, 0x3F, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8, 0xDA, 0x12, 0xAF]

    func singleCommands(_ bytes: [UInt8]) -> [UInt8] { bytes.flatMap { [0x80, $0] } }

    @Test func singleCommandControlBytesAndHorizontalWindow() {
        let chip = VirtualOLED(controller: .ssd1306, width: 128, height: 64)
        chip.receive(singleCommands(Self.ssd1306Setup))
        chip.receive([0x00, 0x21, 10, 11, 0x22, 2, 3])
        chip.receive([0x40, 0xFF, 0x01, 0x80, 0x00])  // fills (10,p2) (11,p2) (10,p3) (11,p3)
        chip.stop()
        let picture = chip.picture
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        #expect((16..<24).allSatisfy { picture[10, $0] })
        #expect(picture[11, 16] && !picture[11, 17])
        #expect(picture[10, 31] && !picture[10, 30])
        #expect(picture.litCount() == 8 + 1 + 1)
    }

    @Test func nothingShowsWithoutPowerOrWhenOff() {
        let chip = VirtualOLED(controller: .ssd1306, width: 128, height: 64)
        chip.receive([0x00, 0xA5, 0xAF])  // entire display on, display on, but no charge pump
        #expect(chip.picture.litCount() == 0)
        chip.receive([0x00, 0x8D, 0x14])
        #expect(chip.picture.litCount() == 128 * 64)
        chip.receive([0x00, 0xAE])
        #expect(chip.picture.litCount() == 0)
    }

    @Test func wrongCOMConfigurationGarblesA128x32() throws {
        let clock = ManualClock()
        let bus = VirtualI2CBus(clock: clock)
        let chip = VirtualOLED(controller: .ssd1306, width: 128, height: 32)
        bus.attach(chip)
        // Drive a 128x32 module as if it were 128x64 (alternative COM pins): every other line.
        let wrong = OLEDDisplay(bus: bus, configuration: try OLEDConfiguration(controller: .ssd1306, width: 128, height: 64))
        var frame = Bitmap(width: 128, height: 64)
        frame.fill(PixelRect(x: 0, y: 0, width: 128, height: 4))
        try wrong.show(.bitmap(frame))
        var expected = Bitmap(width: 128, height: 32)
        expected.fill(PixelRect(x: 0, y: 0, width: 128, height: 4))
        #expect(chip.picture != expected)
    }

    @Test func sh1106HasNoWindowOrChargePumpCommands() {
        let chip = VirtualOLED(controller: .sh1106, width: 128, height: 64)
        chip.receive([0x00, 0x8D, 0x14, 0x21, 0x00, 0x7F])
        chip.stop()
        #expect(chip.protocolErrors.count >= 2)
        #expect(chip.protocolErrors[0].contains("unknown command 0x8D"))
    }

    @Test func sh1106ColumnOffsetAndPageAddressing() {
        let chip = VirtualOLED(controller: .sh1106, width: 128, height: 64)
        chip.receive([0x00, 0xAD, 0x8B, 0xA1, 0xC8, 0xAF])
        // Column 2 of page 0 is the glass's first column; write it and the next one.
        chip.receive([0x00, 0xB0, 0x02, 0x10])
        chip.receive([0x40, 0x01, 0x01])
        chip.stop()
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
        let picture = chip.picture
        #expect(picture[0, 0] && picture[1, 0] && !picture[2, 0])
        #expect(picture.litCount() == 2)
    }

    @Test func malformedInputIsRecorded() {
        let chip = VirtualOLED(controller: .ssd1306, width: 128, height: 64)
        chip.receive([0x00, 0x20, 0x03])
        chip.receive([0x00, 0xA8, 0x02])
        chip.receive([0x01])
        chip.receive([0x00, 0x21, 0x00])
        chip.stop()
        let errors = chip.protocolErrors
        #expect(errors.count == 4, "\(errors)")
        #expect(errors[0].contains("addressing mode 0x03"))
        #expect(errors[1].contains("multiplex ratio 0x02"))
        #expect(errors[2].contains("bits 5…0"))
        #expect(errors[3].contains("cut off by STOP"))
    }

    @Test func unansweredAddressIsNotPresent() {
        let bus = VirtualI2CBus(clock: ManualClock())
        #expect(throws: DeviceError(.notPresent, "no device at 0x3D on i2c-1", errno: 121)) {
            try bus.write([0x00, 0xAF], to: 0x3D)
        }
    }

    @Test func wireTimeFollowsTheClock() {
        let slow = VirtualI2CBus(clockHz: 100_000, clock: ManualClock())
        let fast = VirtualI2CBus(clockHz: 400_000, clock: ManualClock())
        // A full 128x64 frame: address, control byte and 1024 data bytes ≈ 92 ms at 100 kHz.
        let full = slow.wireTime(messageLengths: [1025])
        #expect(abs(full - 0.09236) < 0.0001)
        #expect(abs(fast.wireTime(messageLengths: [1025]) * 4 - full) < 1e-9)
    }
}
