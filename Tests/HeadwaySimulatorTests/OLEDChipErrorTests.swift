import HeadwayDevices
import HeadwaySimulator
import Testing

/// Everything the datasheets do not define is a protocol error, named so a driver author can fix it.
@Suite("Virtual OLED protocol errors")
struct OLEDChipErrorTests {
    /// The errors a fresh module records for these I2C messages (each followed by STOP).
    func errors(_ controller: OLEDController, _ messages: [UInt8]...) -> [String] {
        let size = VirtualOLED.sizes(of: controller)[0]
        let chip = VirtualOLED(controller: controller, width: size.width, height: size.height)
        for message in messages {
            chip.receive(message)
            chip.stop()
        }
        return chip.protocolErrors
    }

    struct Unknown: Sendable, CustomTestStringConvertible {
        let controller: OLEDController
        let opcode: UInt8
        let why: String
        var testDescription: String { "\(controller.rawValue) \(why)" }
    }

    @Test(arguments: [
        Unknown(controller: .ssd1309, opcode: 0x8D, why: "has no charge pump"),
        Unknown(controller: .ssd1309, opcode: 0x23, why: "has no fade/blink"),
        Unknown(controller: .ssd1305, opcode: 0x8D, why: "has a DC-DC converter, no charge pump"),
        Unknown(controller: .ssd1305, opcode: 0xAA, why: "reserved"),
        Unknown(controller: .ssd1315, opcode: 0x18, why: "columns stop at 127 (10h–17h)"),
        Unknown(controller: .ssd1306, opcode: 0xAD, why: "has no IREF or DC-DC command"),
        Unknown(controller: .sh1106, opcode: 0x20, why: "has page addressing only"),
        Unknown(controller: .sh1106, opcode: 0xB8, why: "has 8 pages"),
        Unknown(controller: .sh1107, opcode: 0x40, why: "sets the start line with DCh"),
        Unknown(controller: .sh1107, opcode: 0xDA, why: "has no COM pad configuration"),
        Unknown(controller: .ssd1327, opcode: 0xE3, why: "NOP is 84h–86h, B2h, BBh"),
        Unknown(controller: .ssd1327, opcode: 0x20, why: "addresses by windows"),
    ])
    func unknownOpcodes(_ unknown: Unknown) {
        let errors = errors(unknown.controller, [0x80, unknown.opcode])
        #expect(errors.first == "unknown command \(hexByte(unknown.opcode)) for \(unknown.controller.rawValue)", "\(errors)")
    }

    @Test func argumentsOutOfRange() {
        #expect(errors(.ssd1306, [0x00, 0xA8, 0x0E]) == ["multiplex ratio 0x0E is invalid (15…63)"])
        #expect(errors(.sh1106, [0x00, 0xA8, 0x40]) == ["multiplex ratio 0x40 is invalid (0…63)"])
        #expect(errors(.sh1107, [0x00, 0xA8, 0x80]) == ["multiplex ratio 0x80 is invalid (0…127)"])
        #expect(errors(.ssd1327, [0x00, 0xA8, 0x0E]) == ["multiplex ratio 0x0E is invalid (15…127)"])
        #expect(errors(.ssd1306, [0x00, 0xD3, 0x40]) == ["display offset 64 is invalid (0…63)"])
        #expect(errors(.sh1107, [0x00, 0xDC, 0x80]) == ["display start line 128 is invalid (0…127)"])
        #expect(errors(.ssd1306, [0x00, 0x8D, 0x15]) == ["charge pump setting 0x15 is invalid (0x10 off, 0x14 on)"])
        #expect(errors(.ssd1315, [0x00, 0x8D, 0x15]).count == 1)
        #expect(errors(.ssd1315, [0x00, 0x81, 0x00]).count == 1)
        #expect(errors(.ssd1315, [0x00, 0xDB, 0x40]).count == 1)
        #expect(errors(.ssd1305, [0x00, 0xAD, 0x8C]) == ["master configuration 0x8C is invalid (0x8E external VCC, 0x8F DC-DC)"])
        #expect(errors(.sh1106, [0x00, 0xDA, 0x22]) == ["COM pins configuration 0x22 is invalid (0x02 or 0x12)"])
        #expect(errors(.ssd1306, [0x00, 0xD9, 0x20]) == ["pre-charge period 0x20 has a zero phase"])
        #expect(errors(.ssd1327, [0x00, 0xA0, 0x08]) == ["re-map 0x08 sets reserved bits 7, 5 or 3"])
        #expect(errors(.ssd1327, [0x00, 0xBE, 0x0F]) == ["VCOMH level 0x0F is invalid (bits 2…0 only)"])
        #expect(errors(.ssd1327, [0x00, 0xD5, 0x02]) == ["function selection B 0x02 is invalid (0x60…0x63)"])
        #expect(errors(.ssd1306, [0x00, 0x20, 0x03]) == ["memory addressing mode 0x03 is invalid (0x00, 0x01 or 0x02)"])
    }

    @Test func sinoWealthDCDCWantsTheDisplayOff() {
        #expect(errors(.sh1106, [0x00, 0xAF, 0xAD, 0x8B]) == ["DC-DC setting changed while the display is on (the datasheet wants it off)"])
        #expect(errors(.sh1107, [0x00, 0xAE, 0xAD, 0x8A]).isEmpty)
    }

    @Test func displayDataWhileACommandWaits() {
        #expect(errors(.ssd1306, [0x80, 0x81, 0xC0, 0xFF]) == ["display data while command 0x81 still waits for 1 argument byte(s)"])
        #expect(errors(.ssd1327, [0x80, 0xB8, 0x80, 0x01, 0xC0, 0xFF]) == [
            "display data while command 0xB8 still waits for 14 argument byte(s)",
        ])
    }

    @Test func commandCutOffByStop() {
        #expect(errors(.ssd1309, [0x00, 0x21, 0x00]) == ["command 0x21 cut off by STOP: 1 of its 2 argument bytes arrived"])
        #expect(errors(.sh1107, [0x00, 0xDC]) == ["command 0xDC cut off by STOP: 0 of its 1 argument bytes arrived"])
    }

    @Test func windowsOutOfRangeOrBackwards() {
        #expect(errors(.ssd1306, [0x00, 0x20, 0x00, 0x21, 10, 5]) == ["column range 10…5 is invalid (0…127, start ≤ end)"])
        #expect(errors(.ssd1306, [0x00, 0x20, 0x00, 0x21, 0, 128]) == ["column range 0…128 is invalid (0…127, start ≤ end)"])
        #expect(errors(.ssd1305, [0x00, 0x20, 0x00, 0x21, 4, 131]).isEmpty)
        #expect(errors(.ssd1305, [0x00, 0x20, 0x00, 0x22, 3, 8]) == ["page range 3…8 is invalid (0…7, start ≤ end)"])
        #expect(errors(.ssd1327, [0x00, 0x15, 0x00, 0x40]) == [
            "column window 0…64 is invalid (0…63 column addresses of two pixels, start ≤ end)",
        ])
        #expect(errors(.ssd1327, [0x00, 0x75, 0x10, 0x05]) == ["row window 16…5 is invalid (0…127, start ≤ end)"])
    }

    @Test func addressingCommandsInTheWrongMode() {
        #expect(errors(.ssd1306, [0x00, 0x21, 0, 127]) == ["window command 0x21 sent in page addressing mode"])
        #expect(errors(.ssd1309, [0x00, 0x20, 0x00, 0xB0]) == ["page addressing command 0xB0 sent in horizontal addressing mode"])
    }

    @Test func dataPastTheLastRAMColumn() {
        // SH1106: 132 columns and no wrap; page 0 from column 130 takes two bytes.
        #expect(errors(.sh1106, [0x00, 0xB0, 0x02, 0x18], [0x40, 1, 2, 3]) == [
            "display data past the last RAM column (131) of page 0 is lost",
        ])
        #expect(errors(.sh1106, [0x00, 0x19]) == ["column high nibble 0x19 is past the last RAM column 131"])
        #expect(errors(.ssd1306, [0x00, 0x18]) == ["column high nibble 0x18 is past column 127"])
    }

    @Test func commandLockInForce() {
        #expect(errors(.ssd1309, [0x00, 0xFD, 0x16, 0xAF, 0xFD, 0x12, 0xAF]) == [
            "command byte 0xAF while the command lock (FDh 16h) is in force",
        ])
        #expect(errors(.ssd1327, [0x00, 0xFD, 0x16], [0x40, 0xFF]) == [
            "display data 0xFF while the command lock (FDh 16h) is in force",
        ])
        #expect(errors(.ssd1327, [0x00, 0xFD, 0x13]) == ["command lock setting 0x13 is invalid (0x12 unlock, 0x16 lock)"])
    }

    @Test func malformedControlBytes() {
        #expect(errors(.ssd1315, [0x01]) == ["control byte 0x01 has bits 5…0 set (only Co and D/C# may be)"])
        #expect(errors(.sh1107, [0x80]) == ["control byte 0x80 with Co=1 ends the message"])
    }
}
