import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// The IS31FL3731 model driven with byte sequences written from the ISSI datasheet (Rev. D).
@Suite("Virtual IS31FL3731")
struct MatrixIS31FL3731Tests {
    let clock = ManualClock()

    func chip(_ module: IS31FL3731Module = .charlieplex16x9()) -> VirtualIS31FL3731 {
        VirtualIS31FL3731(address: 0x74, module: module, clock: clock)
    }

    func send(_ chip: VirtualIS31FL3731, _ messages: [UInt8]...) {
        for message in messages {
            chip.receive(message)
            chip.stop()
        }
    }

    /// In software shutdown, every frame gets all LEDs on (control 00h–11h), no blink (12h–23h)
    /// and PWM 0 (24h–B3h, in 32-byte blocks as an SMBus adapter sends them); picture mode,
    /// frame 1; then normal operation.
    func start(_ chip: VirtualIS31FL3731) {
        send(chip, [0xFD, 0x0B], [0x0A, 0x00], [0x00, 0x00], [0x01, 0x00], [0x05, 0x00], [0x06, 0x00])
        for frame in UInt8(0)..<8 {
            send(chip, [0xFD, frame], [0x00] + [UInt8](repeating: 0xFF, count: 18), [0x12] + [UInt8](repeating: 0, count: 18))
            for offset in stride(from: 0, to: 144, by: 32) {
                send(chip, [0x24 + UInt8(offset)] + [UInt8](repeating: 0, count: min(32, 144 - offset)))
            }
        }
        send(chip, [0xFD, 0x0B], [0x0A, 0x01])
    }

    /// Sets LED `led`'s PWM in frame `frame` (1 … 8).
    func pwm(_ chip: VirtualIS31FL3731, frame: UInt8, led: UInt8, _ value: UInt8) {
        send(chip, [0xFD, frame - 1], [0x24 + led, value])
    }

    func showFrame(_ chip: VirtualIS31FL3731, _ frame: UInt8) {
        send(chip, [0xFD, 0x0B], [0x01, frame - 1])
    }

    func lit(_ glass: LEDGlass) -> [[Int]] { glass.lit.map { [$0.x, $0.y] } }

    @Test func theInitialisationLeavesADarkRunningMatrix() throws {
        let chip = chip()
        let bus = VirtualI2CBus(clock: clock)
        bus.attach(chip)
        start(chip)
        #expect(!chip.isShutDown && chip.selectedPage == 9 && chip.displayedFrame(at: clock.now) == 1)
        #expect(chip.glass.lit.isEmpty)
        try bus.write([[0xFD, 0x00], [UInt8(0x24 + 17), 0x80]], to: 0x74)
        #expect(lit(chip.glass) == [[1, 1]])
        #expect(chip.glass.lit.first?.brightness == 0.5, "PWM 128 of 256")
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
    }

    @Test func aHiddenFrameShowsOnlyOnTheFlip() {
        let chip = chip()
        start(chip)
        pwm(chip, frame: 1, led: 0, 255)
        #expect(lit(chip.glass) == [[0, 0]])
        // Frame 2 is written while frame 1 is shown: the glass does not change.
        send(chip, [0xFD, 0x01], [0x24, 0x00, 0xFF, 0xFF])
        #expect(lit(chip.glass) == [[0, 0]])
        showFrame(chip, 2)
        #expect(chip.displayedFrame(at: clock.now) == 2)
        #expect(lit(chip.glass) == [[1, 0], [2, 0]])
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func thePointerAutoIncrementsWithinAPage() {
        let chip = chip()
        start(chip)
        send(chip, [0xFD, 0x02], [0x22, 1, 2, 3, 4])
        let frame = chip.frameRegisters(3)
        #expect(Array(frame[0x22...0x25]) == [1, 2, 3, 4])
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func writesPastAPageAreLost() {
        let chip = chip()
        start(chip)
        send(chip, [0xFD, 0x00], [0xB2, 7, 8, 9])
        #expect(Array(chip.frameRegisters(1)[0xB2...0xB3]) == [7, 8])
        send(chip, [0xFD, 0x0B], [0x0C, 0, 5])
        #expect(chip.protocolErrors == [
            "write past the last register of frame 1 (page 0x00): register 0xB4 does not exist (0x00–0xB3), 1 byte(s) lost",
            "write past the last register of the function register page (0x0B): register 0x0D does not exist (0x00–0x0C), 1 byte(s) lost",
        ])
    }

    @Test func blinkFollowsTheBlinkPeriodWithHalfDuty() {
        let chip = chip()
        start(chip)
        pwm(chip, frame: 1, led: 0, 255)
        pwm(chip, frame: 1, led: 1, 255)
        send(chip, [0xFD, 0x00], [0x12, 0x01])  // LED 0 blinks, LED 1 does not.
        clock.advance(by: 5)
        send(chip, [0xFD, 0x0B], [0x05, 0x09])  // BE, BPT = 0.27 s × 1.
        #expect(lit(chip.glass(at: 5.1)) == [[0, 0], [1, 0]])
        #expect(lit(chip.glass(at: 5.2)) == [[1, 0]])
        #expect(lit(chip.glass(at: 5.3)) == [[0, 0], [1, 0]])
        #expect(chip.protocolErrors.isEmpty)
    }

    @Test func shutdownBlanksTheMatrixAndKeepsTheRegisters() {
        let chip = chip()
        start(chip)
        pwm(chip, frame: 1, led: 0, 255)
        send(chip, [0xFD, 0x0B], [0x0A, 0x00])
        #expect(chip.isShutDown && chip.glass.lit.isEmpty)
        send(chip, [0x0A, 0x01])
        #expect(lit(chip.glass) == [[0, 0]])
    }

    @Test func intensityControlUsesFrameOnesPWMForEveryFrame() {
        let chip = chip()
        start(chip)
        pwm(chip, frame: 1, led: 0, 64)
        pwm(chip, frame: 2, led: 0, 255)
        showFrame(chip, 2)
        send(chip, [0xFD, 0x0B], [0x05, 0x20])
        #expect(chip.glass.lit.map(\.brightness) == [0.25])
    }

    @Test func autoFramePlayRunsItsLoopsThenStopsOnTheNextFrame() {
        let chip = chip()
        start(chip)
        for frame in UInt8(1)...8 { pwm(chip, frame: frame, led: frame - 1, 255) }
        clock.advance(by: 1)
        // Three frames (FNS 3), one loop (CNS 1), 110 ms each (A = 10), from frame 1.
        send(chip, [0xFD, 0x0B], [0x02, 0x13], [0x03, 10], [0x00, 0x08])
        for (after, frame) in [(0.05, 1), (0.12, 2), (0.23, 3), (0.34, 4), (2.0, 4)] {
            #expect(chip.displayedFrame(at: 1 + after) == frame, "\(after) s in")
            #expect(lit(chip.glass(at: 1 + after)) == [[frame - 1, 0]])
        }
        send(chip, [0x02, 0x03])  // Endless loops of three frames.
        #expect(chip.displayedFrame(at: 1.34) == 1)
        send(chip, [0x00, 0x10])  // Audio frame play, no audio: frame 1.
        #expect(chip.displayedFrame(at: 1.34) == 1)
        #expect(chip.protocolErrors.isEmpty, "\(chip.protocolErrors)")
    }

    @Test func protocolErrors() {
        func errors(_ messages: [UInt8]...) -> [String] {
            let chip = chip()
            start(chip)
            for message in messages { send(chip, message) }
            return chip.protocolErrors
        }
        #expect(errors([0xFD, 0x08]) == ["page 0x08 is reserved (the command register takes 0x00–0x07 for frames 1–8, 0x0B for the function registers)"])
        #expect(errors([0xFD, 0xFF]).count == 1)
        #expect(errors([0xFD, 0x00, 0x01]) == ["the command register (0xFD) takes one byte: 1 byte(s) after 0x00 are ignored"])
        #expect(errors([0xFD, 0x0B], [0x04, 0x00]) == ["register 0x04 of the function page is reserved: it has no function (Table 3 note 7)"])
        #expect(errors([0xFD, 0x0B], [0x07, 0x00]) == ["the frame state register (0x07) is read-only (Table 3): 0x00 is ignored"])
        #expect(errors([0xFD, 0x0B], [0x05, 0x08]) == ["blink enabled with a blink period of 0 (display option 0x08: BPT = 0.27 s × A needs A = 1…7)"])
        #expect(errors([0xFD, 0x00], [0xC0]) == ["register 0xC0 does not exist on frame 1 (page 0x00) (0x00–0xB3)"])
        let fresh = chip()
        send(fresh, [0x24, 0xFF])
        #expect(fresh.protocolErrors == ["register 0x24 written before any page was selected: write the command register 0xFD first (Table 2 note)"])
        let stranger = VirtualIS31FL3731(address: 0x70, module: .ledSHIM, clock: clock)
        #expect(stranger.protocolErrors == ["an IS31FL3731 cannot answer at 0x70 (0x74–0x77: 11101 AD)"])
    }

    @Test func runningWithFrameDataNeverWrittenIsReported() {
        let chip = chip(.ledSHIM)
        // Out of shutdown before any frame was written: frame 1 shows whatever it held.
        send(chip, [0xFD, 0x0B], [0x0A, 0x01])
        #expect(chip.protocolErrors == [
            "frame 1 is shown while its registers 0x01, 0x02, 0x03, 0x04 and 12 more, behind the module's LEDs, were never written since power-on: frame data is not assured at power-on (Table 3 note 6)"
        ])
    }

    @Test func powerOnForgetsThePageAndStopsTheMatrix() {
        let chip = chip()
        start(chip)
        chip.powerOn()
        #expect(chip.selectedPage == nil && chip.isShutDown)
    }
}
