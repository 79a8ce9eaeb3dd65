import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// LED drivers against the virtual chains: frame → driver → virtual chip → decoded frame.
@Suite("LED drivers on virtual chains")
struct LEDDriverTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var encoding: WS2812Encoding
        var speed: UInt32
        var clockModel: SPIClockModel
        var order: ColourOrder = .grb
        var testDescription: String { "\(encoding.rawValue) at \(speed) Hz, \(clockModel)\(order == .grb ? "" : ", \(order.rawValue)")" }
    }

    /// Every encoding at 2.4, 3.2 and 6.4 MHz asked, on an exact clock and on the Pi's dividers.
    static let cases: [Case] = {
        var cases: [Case] = []
        for model in [SPIClockModel.exact, .raspberryPi3, .raspberryPi4] {
            for encoding in WS2812Encoding.allCases {
                for speed: UInt32 in [2_400_000, 3_200_000, 6_400_000] {
                    cases.append(Case(encoding: encoding, speed: speed, clockModel: model))
                }
            }
        }
        cases.append(Case(encoding: .threeBit, speed: 2_400_000, clockModel: .raspberryPi4, order: .grbw))
        return cases
    }()

    static func randomLevels(_ count: Int, seed: UInt64) -> [RGB8] {
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in RGB8(red: next(), green: next(), blue: next()) }
    }

    @Test(arguments: cases)
    func ws2812RoundTripOrRefusal(testCase: Case) throws {
        let bus = VirtualSPIBus(bufsiz: 65536, clockModel: testCase.clockModel, clock: ManualClock())
        let chain = VirtualWS2812Chain(count: 60, order: testCase.order)
        bus.attach(chain)
        let effective = testCase.clockModel.effectiveSpeed(forRequested: testCase.speed)
        let fits = testCase.encoding.violations(atHz: effective).isEmpty
        let configuration = WS2812Strip.Configuration(count: 60, order: testCase.order, encoding: testCase.encoding, speedHz: testCase.speed)
        guard fits else {
            // A clock outside the windows is refused up front, with the range that would work.
            #expect {
                _ = try WS2812Strip(bus: bus, configuration: configuration)
            } throws: { error in
                let message = (error as? DeviceError)?.message ?? ""
                return message.contains("It needs") && message.contains("MHz")
            }
            return
        }
        let strip = try WS2812Strip(bus: bus, configuration: configuration)
        for seed in 1...5 {
            var levels = Self.randomLevels(60, seed: UInt64(seed))
            if testCase.order.hasWhite { levels = levels.map { RGB8(red: $0.red, green: $0.green, blue: $0.blue) } }
            try strip.show(levels)
            let wrong = zip(chain.levels, levels).filter { $0 != $1 }.count
            #expect(wrong == 0, "\(wrong) of 60 LEDs decoded wrong")
        }
        #expect(chain.violations.isEmpty, "\(chain.violations.prefix(3))")
        #expect(chain.framesLatched == 5)
    }

    @Test func defaultEncodingsWorkAtTheirNominalAndPiClocks() {
        // The acceptance matrix: each encoding at its own nominal clock, as asked and as the Pi makes it.
        for encoding in WS2812Encoding.allCases {
            for model in [SPIClockModel.exact, .raspberryPi4] {
                let hz = model.effectiveSpeed(forRequested: encoding.nominalSpeedHz)
                #expect(encoding.violations(atHz: hz).isEmpty, "\(encoding) at \(hz)")
            }
        }
        // 3.2 MHz on a Pi 3 becomes 3.125 MHz: a 1 bit would be high for 0.96 µs (> 0.95).
        #expect(!WS2812Encoding.fourBit.violations(atHz: SPIClockModel.raspberryPi3.effectiveSpeed(forRequested: 3_200_000)).isEmpty)
    }

    @Test func refusalSuggestsAWorkingSpeed() throws {
        let bus = VirtualSPIBus(clockModel: .raspberryPi3, clock: ManualClock())
        #expect {
            _ = try WS2812Strip(bus: bus, configuration: .init(count: 8, encoding: .fourBit))
        } throws: { error in
            let message = (error as! DeviceError).message
            return message.contains("3.125 MHz") && message.contains("ask for") && message.contains("0.96 µs")
        }
    }

    @Test func framesThatDoNotFitTheBufferAreRefusedWithTheFix() {
        let bus = VirtualSPIBus(bufsiz: 4096, clock: ManualClock())
        #expect {
            _ = try WS2812Strip(bus: bus, configuration: .init(count: 600))
        } throws: { error in
            let message = (error as! DeviceError).message
            return message.contains("5580 bytes") && message.contains("spidev.bufsiz=8192") && message.contains("4096")
        }
        #expect(throws: Never.self) { _ = try WS2812Strip(bus: bus, configuration: .init(count: 400)) }
    }

    @Test func aMissingResetIsCaught() {
        let chain = VirtualWS2812Chain(count: 2)
        chain.receive([0x92, 0x49, 0x24], hz: 2_400_000, mode: 0)  // bits with no leading low
        #expect(chain.violations.first?.contains("does not start") == true)
        let fresh = VirtualWS2812Chain(count: 1)
        fresh.receive(Array(repeating: 0, count: 90) + [0xFF, 0x00], hz: 2_400_000, mode: 0)
        #expect(fresh.violations.contains { $0.contains("neither a 0") })
    }

    @Test(arguments: [VirtualAPA102Chain.Variant.apa102, .sk9822], [1, 8, 60, 300])
    func apa102RoundTrip(variant: VirtualAPA102Chain.Variant, count: Int) throws {
        let bus = VirtualSPIBus(bufsiz: 4096, clock: ManualClock())
        let chain = VirtualAPA102Chain(count: count, variant: variant)
        bus.attach(chain)
        let strip = try APA102Strip(bus: bus, count: count)
        for seed in 1...3 {
            let levels = Self.randomLevels(count, seed: UInt64(seed * 7))
            try strip.show(levels)
            let wrong = zip(chain.frames.map(\.level), levels).filter { $0 != $1 }.count
            #expect(wrong == 0, "\(wrong) of \(count) LEDs decoded wrong")
            #expect(chain.frames.allSatisfy { $0.brightness == 31 })
        }
        #expect(chain.violations.isEmpty, "\(chain.violations.prefix(3))")
        #expect(chain.framesCompleted == 3)
    }

    @Test func shortEndFrameLeavesTheLastLEDsBehind() {
        let chain = VirtualAPA102Chain(count: 64)
        let encoder = APA102Encoder(count: 64)
        var frame = encoder.encode(Self.randomLevels(64, seed: 3))
        frame.removeLast(encoder.endFrameBytes - 1)  // a single end byte: 8 edges, 32 needed
        chain.receive(frame, hz: 8_000_000, mode: 0)
        #expect(chain.frames[0].level != .off)
        #expect(chain.frames[63].level == .off, "the last LED never saw its data")
    }
}

@Suite("Raspberry Pi 5 kernel LED driver")
struct RP1LEDStripTests {
    @Test(arguments: [false, true])
    func framesRoundTripThroughTheDeviceFile(rgbw: Bool) throws {
        let chain = try SimulatedLEDChain.rp1(name: "ring", count: 24, layout: .ring(), rgbw: rgbw)
        let levels = LEDDriverTests.randomLevels(24, seed: 11)
        try chain.driver.show(levels)
        #expect(chain.levels == levels)
    }
}
