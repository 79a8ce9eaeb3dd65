import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// The MAX7219 chain model driven with byte sequences written from the Maxim datasheet (Rev 4).
@Suite("Virtual MAX7219 chain")
struct MatrixMAX7219Tests {
    let clock = ManualClock()

    /// One SPI message at 1 MHz, mode 0: one LOAD pulse.
    func send(_ chain: VirtualMAX7219Chain, _ words: [(UInt8, UInt8)]) {
        chain.receive(words.flatMap { [$0.0, $0.1] }, hz: 1_000_000, mode: 0)
    }

    /// The same register and data for every device of the chain.
    func all(_ chain: VirtualMAX7219Chain, _ register: UInt8, _ data: UInt8) {
        send(chain, [(UInt8, UInt8)](repeating: (register, data), count: chain.devices))
    }

    /// Scan all 8 digits, no decode, test off, digits cleared, intensity 15, out of shutdown.
    func start(_ chain: VirtualMAX7219Chain) {
        all(chain, 0x0B, 0x07)
        all(chain, 0x09, 0x00)
        all(chain, 0x0F, 0x00)
        for digit in UInt8(1)...8 { all(chain, digit, 0x00) }
        all(chain, 0x0A, 0x0F)
        all(chain, 0x0C, 0x01)
    }

    @Test func powerUpIsBlankedInShutdown() {
        let chain = VirtualMAX7219Chain(devices: 1, module: .segments8())
        let control = chain.controlRegisters(ofDevice: 0)
        #expect(control.isShutDown && control.scanLimit == 0 && control.decodeMode == 0 && control.intensity == 0 && !control.isDisplayTest)
        #expect(chain.glass.lit.isEmpty)
    }

    @Test func onTheBusTheInitialisationIsClean() throws {
        let chain = VirtualMAX7219Chain(devices: 4, module: .fc16Matrix())
        let bus = VirtualSPIBus(clock: clock)
        bus.attach(chain)
        let words: [(UInt8, UInt8)] = [(0x0B, 0x07), (0x09, 0x00), (0x0F, 0x00), (0x0A, 0x07)] + (1...8).map { (UInt8($0), 0) } + [(0x0C, 0x01)]
        for (register, data) in words {
            try bus.write([register, data, register, data, register, data, register, data], settings: SPISettings(speedHz: 1_000_000))
        }
        #expect(chain.protocolErrors.isEmpty, "\(chain.protocolErrors)")
        #expect(chain.glass.lit.isEmpty)
        #expect((0..<4).allSatisfy { chain.controlRegisters(ofDevice: $0).intensity == 7 })
    }

    @Test func aCascadeOfFourTakesOneWordEachAndNoOpsLeaveTheOthers() {
        let chain = VirtualMAX7219Chain(devices: 4, module: .fc16Matrix())
        start(chain)
        // The first word shifted in ends in the farthest device (3); device 2 gets digit 0 = 0xAA.
        send(chain, [(0x00, 0x00), (0x01, 0xAA), (0x00, 0x00), (0x00, 0x00)])
        #expect(chain.digitRegisters(ofDevice: 2)[0] == 0xAA)
        #expect([0, 1, 3].allSatisfy { chain.digitRegisters(ofDevice: $0) == [UInt8](repeating: 0, count: 8) })
        send(chain, [(0x01, 0x33), (0x00, 0x00), (0x00, 0x00), (0x02, 0x11)])
        #expect(chain.digitRegisters(ofDevice: 3)[0] == 0x33 && chain.digitRegisters(ofDevice: 0)[1] == 0x11)
        #expect(chain.digitRegisters(ofDevice: 2)[0] == 0xAA, "a no-op keeps device 2's digit")
        #expect(chain.protocolErrors.isEmpty)
    }

    @Test func decodeModeUsesTheCodeBFont() {
        let chain = VirtualMAX7219Chain(devices: 1, module: .segments8())
        start(chain)
        send(chain, [(0x09, 0xFF)])
        // DIG7 … DIG0 = 0, 1, 2, 3, 4, −, E, blank with DP on DIG3; DIG0 is the rightmost digit.
        let codes: [UInt8] = [0x0F, 0x0B, 0x0A, 0x84, 0x03, 0x02, 0x01, 0x00]
        for (digit, code) in codes.enumerated() { send(chain, [(UInt8(digit + 1), code)]) }
        let shown = chain.glass.digits.map(\.lit)
        #expect(shown == [
            [.a, .b, .c, .d, .e, .f],  // 0
            [.b, .c],  // 1
            [.a, .b, .d, .e, .g],  // 2
            [.a, .b, .c, .d, .g],  // 3
            [.b, .c, .f, .g, .dp],  // 4 with DP
            [.g],  // −
            [.a, .d, .e, .f, .g],  // E
            [],  // blank
        ])
        send(chain, [(0x09, 0x00)])
        #expect(chain.glass.digits[7].lit == [.d, .e, .f, .g], "no decode: D3–D0 drive segments D, E, F, G (Table 6)")
        #expect(chain.protocolErrors.isEmpty)
    }

    @Test func intensityScanLimitShutdownAndDisplayTest() {
        let chain = VirtualMAX7219Chain(devices: 1, module: .segments8())
        start(chain)
        for digit in UInt8(1)...8 { send(chain, [(digit, 0x80)]) }
        #expect(chain.glass.lit.count == 8 && chain.glass.lit.allSatisfy { $0.brightness == 31.0 / 32 })
        send(chain, [(0x0A, 0x07)])
        #expect(chain.glass.lit.allSatisfy { $0.brightness == 15.0 / 32 })
        send(chain, [(0x0B, 0x02)])
        #expect(chain.glass.digits.filter { !$0.lit.isEmpty }.map(\.index) == [5, 6, 7], "digits 0–2 only")
        send(chain, [(0x0C, 0x00)])
        #expect(chain.glass.lit.isEmpty)
        send(chain, [(0x0F, 0x01)])
        #expect(chain.glass.lit.count == 64 && chain.glass.lit.allSatisfy { $0.brightness == 31.0 / 32 }, "test overrides shutdown")
        send(chain, [(0x0F, 0x00)])
        #expect(chain.glass.lit.isEmpty)
        #expect(chain.digitRegisters(ofDevice: 0) == [UInt8](repeating: 0x80, count: 8), "registers unaltered")
        #expect(chain.protocolErrors.isEmpty)
    }

    @Test func aShortMessageShiftsAsTheHardwareDoes() {
        let chain = VirtualMAX7219Chain(devices: 4, module: .fc16Matrix())
        start(chain)
        send(chain, [(0x01, 0x33), (0x01, 0x22), (0x01, 0x11), (0x02, 0x44)])
        // Three words for four devices: device 3 latches what device 0 held (digit 1 = 0x44).
        send(chain, [(0x03, 0x01), (0x03, 0x02), (0x03, 0x03)])
        #expect(chain.digitRegisters(ofDevice: 3)[1] == 0x44)
        #expect(chain.digitRegisters(ofDevice: 2)[2] == 0x01 && chain.digitRegisters(ofDevice: 0)[2] == 0x03)
        #expect(chain.protocolErrors == [
            "a message of 6 byte(s) for a chain of 4 MAX7219(s) (each LOAD pulse latches 16 bits in every device: 8 bytes): device 3 latched bits sent in earlier messages, not new words"
        ])
    }

    @Test func oddAndLongMessages() {
        let single = VirtualMAX7219Chain(devices: 1, module: .segments8())
        start(single)
        single.receive([0x0C, 0x01, 0x55], hz: 1_000_000, mode: 0)
        // The last 16 bits clocked in: 0x0155, digit 0 = 0x55.
        #expect(single.digitRegisters(ofDevice: 0)[0] == 0x55)
        #expect(single.protocolErrors == [
            "a message of 3 byte(s) for a chain of 1 MAX7219(s) (each LOAD pulse latches 16 bits in every device: 2 bytes): an odd number of bytes leaves every device's 16 bits straddling two of the words as sent; the first 1 byte(s) shifted out of device 0's DOUT and were lost"
        ])
        let pair = VirtualMAX7219Chain(devices: 2, module: .segments8())
        start(pair)
        pair.receive([0x01, 0x11, 0x02], hz: 1_000_000, mode: 0)
        #expect(pair.protocolErrors == [
            "a message of 3 byte(s) for a chain of 2 MAX7219(s) (each LOAD pulse latches 16 bits in every device: 4 bytes): an odd number of bytes leaves every device's 16 bits straddling two of the words as sent; device 1 latched 8 new bits over 8 old ones"
        ])
    }

    @Test func clockModeAndRegisterErrors() {
        let chain = VirtualMAX7219Chain(devices: 1, module: .segments8())
        start(chain)
        chain.receive([0x00, 0x00], hz: 12_500_000, mode: 0)
        chain.receive([0x00, 0x00], hz: 1_000_000, mode: 1)
        send(chain, [(0x0D, 0x00)])
        #expect(chain.protocolErrors == [
            "SPI clock 12500000 Hz is above the MAX7219's 10 MHz (CLK period tCP ≥ 100 ns)",
            "SPI mode 1 samples on falling clock edges; the MAX7219 shifts DIN in on rising edges (modes 0, 3)",
            "device 0: register 0xD (word 0x0D00) is not a MAX7219 register (Table 2 defines 0x0–0xC and 0xF)",
        ])
    }

    @Test func showingDigitsNeverWrittenIsReported() {
        let chain = VirtualMAX7219Chain(devices: 1, module: .segments8())
        send(chain, [(0x0B, 0x03)])
        send(chain, [(0x01, 0x00)])
        send(chain, [(0x0C, 0x01)])
        send(chain, [(0x0C, 0x01)])
        #expect(chain.protocolErrors == ["device 0 shows digit(s) 1, 2, 3 never written since power-up: their RAM content is not given after power-up"])
    }
}
