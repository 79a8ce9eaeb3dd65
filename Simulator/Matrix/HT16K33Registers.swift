import HeadwayCore
import HeadwayDevices

/// The HT16K33's registers and display RAM, and its command decoder.
///
/// Facts from the Holtek HT16K33 datasheet, Rev 1.10 (May 16, 2011), cited by section and printed
/// page; docs/led-matrix-chips.md lists them with the source.
struct HT16K33Registers: Sendable {
    /// The blink rates of the display setup register's B1 B0 bits (Display Setup Register, p. 11).
    enum Blink: UInt8, Sendable {
        case off = 0, twoHz = 1, oneHz = 2, halfHz = 3

        var period: Seconds {
            switch self {
            case .off: 0
            case .twoHz: 0.5
            case .oneHz: 1
            case .halfHz: 2
            }
        }
    }

    /// 16 × 8 bits; RAM address 2n holds ROW0–7 of COMn, 2n+1 ROW8–15 (Display Memory – RAM
    /// Structure, p. 13). Its content after power-on is not among what the reset sets (Power-on
    /// Reset, p. 8): the model starts it at 0 and remembers which bytes were written since.
    var ram = [UInt8](repeating: 0, count: 16)
    var written = [Bool](repeating: false, count: 16)
    /// The display data address pointer (Display Data Address Pointer, p. 12).
    var pointer = 0
    // Power-on reset (p. 8): oscillator off, display off, ROW/INT pin a ROW output, 16/16 duty.
    var oscillatorOn = false
    var displayOn = false
    var blink = Blink.off
    var blinkPhase = BlinkPhase(since: 0, period: 0)
    /// Dimming P3…P0: duty (dimming + 1)/16 (Digital Dimming Data Input, p. 15).
    var dimming: UInt8 = 15
    /// ROW15 is the INT output, no longer a row driver (ROW/INT Set Register, p. 10).
    var rowIsInterrupt = false
    var interruptActiveHigh = false
    /// The unwritten-RAM error is recorded once per power-on.
    var reportedUnwrittenRAM = false
    var errors = ProtocolErrorLog()

    mutating func error(_ text: String) { errors.record(text) }

    /// Power returns: registers to their reset values, errors kept.
    mutating func powerOn() {
        self = HT16K33Registers(errors: errors)
    }

    private init(errors: ProtocolErrorLog) { self.errors = errors }
    init() {}

    /// One I2C write: a command / address byte, then (after a display data address only) data.
    mutating func receive(_ message: [UInt8], at now: Seconds) {
        guard let command = message.first else { return }
        let data = message.dropFirst()
        // Standby Mode (p. 8): "can not accept input commands nor write data to the display RAM
        // except using the system setup command."
        if !oscillatorOn && command & 0xF0 != 0x20 {
            let lost = data.isEmpty ? "" : " and \(data.count) data byte(s)"
            return error("command \(hexByte(command))\(lost) sent in standby (oscillator off): the HT16K33 accepts only the system setup command (0x21 turns the oscillator on) and loses it")
        }
        switch command & 0xF0 {
        case 0x00:
            // Display data address pointer 0000 A3…A0, then data with auto-increment, wrapping
            // from 0Fh to 00h (Page write operation, p. 28; Command Summary, p. 30).
            pointer = Int(command & 0x0F)
            for byte in data {
                ram[pointer] = byte
                written[pointer] = true
                pointer = (pointer + 1) % 16
            }
            return
        case 0x20:
            // System setup 0010 XXX S (System Setup Register, p. 10).
            oscillatorOn = command & 0x01 != 0
        case 0x40 where command & 0x08 == 0:
            // Key data address pointer 0100 0 K2 K1 K0, for reading the key data RAM 40h–45h
            // (Command Summary, p. 30; Key Data Memory, p. 21).
            if command > 0x45 {
                error("key data address \(hexByte(command)) is past the key data RAM (0x40–0x45)")
            }
            if !data.isEmpty {
                error("the key data RAM is read-only: \(data.count) byte(s) written after \(hexByte(command)) are ignored (Key Data Memory)")
            }
            return
        case 0x60 where command == 0x60:
            // INT flag address pointer, read only (Command Summary, p. 30).
            if !data.isEmpty { error("the INT flag register (0x60) is read-only: \(data.count) byte(s) written after it are ignored") }
            return
        case 0x80:
            // Display setup 1000 X B1 B0 D (Display Setup Register, p. 11).
            let rate = Blink(rawValue: (command >> 1) & 0x03) ?? .off
            if rate != blink { blinkPhase = BlinkPhase(since: now, period: rate.period) }
            blink = rate
            displayOn = command & 0x01 != 0
        case 0xA0:
            // ROW/INT set 1010 X X act row/int (ROW/INT Set Register, p. 10).
            rowIsInterrupt = command & 0x01 != 0
            interruptActiveHigh = command & 0x02 != 0
        case 0xE0:
            // Dimming set 1110 P3…P0 (Digital Dimming Data Input, p. 15).
            dimming = command & 0x0F
        case 0xD0 where command == 0xD9:
            return error("test mode command 0xD9 is for Holtek's use only (Command Summary)")
        default:
            // "If programmed command data is not defined, the function will not be affected."
            return error("unknown command \(hexByte(command)) (the HT16K33 defines 0x00–0x0F, 0x20–0x2F, 0x40–0x45, 0x60, 0x80–0x8F, 0xA0–0xAF, 0xE0–0xEF)")
        }
        if !data.isEmpty {
            error("command \(hexByte(command)) takes no data: \(data.count) byte(s) after it are ignored")
        }
    }

    /// Whether the LEDs can light at all: oscillator running (Standby Mode, p. 8) and display on.
    var isVisible: Bool { oscillatorOn && displayOn }

    /// The duty of a lit LED, 1/16 … 16/16.
    var brightness: Double { Double(dimming + 1) / 16 }

    /// Whether RAM bit `output` (address × 8 + bit) is set and its ROW drives an LED.
    func isOn(_ output: Int) -> Bool {
        let address = output / 8, bit = output % 8
        let row = (address % 2) * 8 + bit
        if row == 15 && rowIsInterrupt { return false }
        return ram[address] & (1 << UInt8(bit)) != 0
    }

    /// After a transaction: a display that shows RAM bytes behind the module's LEDs that were never
    /// written shows whatever the RAM held at power-on.
    mutating func checkShownRAM(outputs: Set<Int>) {
        guard isVisible, !reportedUnwrittenRAM else { return }
        let unwritten = Set(outputs.map { $0 / 8 }).filter { !written[$0] }.sorted()
        guard !unwritten.isEmpty else { return }
        reportedUnwrittenRAM = true
        let addresses = unwritten.map { hexByte(UInt8($0)) }.joined(separator: ", ")
        error("the display is on while RAM \(addresses) behind the module's LEDs was never written since power-on: the power-on reset does not clear RAM, so they show what it held")
    }
}
