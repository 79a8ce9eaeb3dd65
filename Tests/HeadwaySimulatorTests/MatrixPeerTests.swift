import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// No update costs Headway's matrix drivers more bytes than a peer's method (the peers' libraries
/// as ``MatrixPeerModel`` costs them), with resynchronisation as the service runs it (after a
/// blank picture and every 30 s, a frame a second here): a bar in 1 % steps drawn by the matrix
/// style, then random frames, on every chip.
@Suite("Matrix drivers against the peers")
struct MatrixPeerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let chip: MatrixPeerModel.Chip
        let make: @Sendable (ManualClock) -> (any LEDMatrixDevice, @Sendable () -> Int)
        var testDescription: String { name }
    }

    static let cases: [Case] = HT16K33Backpack.allCases.map { backpack in
        Case(name: "HT16K33 \(backpack.rawValue)", chip: .ht16k33(bicolour: backpack == .bargraph24 || backpack == .matrix8x8Bicolour)) { clock in
            let bus = VirtualI2CBus(clock: clock)
            bus.attach(VirtualHT16K33(address: 0x70, module: .bargraph24, clock: clock))
            return (HT16K33Display(bus: bus, configuration: .init(backpack: backpack), clock: clock, resynchronisation: .standard), { bus.statistics.total.bytes })
        }
    } + IS31FL3731Board.allCases.flatMap { board in
        [false, true].map { smbus in
            Case(name: "IS31FL3731 \(board.rawValue)\(smbus ? " (SMBus)" : "")", chip: .is31fl3731) { clock in
                let bus = VirtualI2CBus(smbusOnly: smbus, clock: clock)
                bus.attach(VirtualIS31FL3731(address: 0x74, module: .scrollPHATHD(), clock: clock))
                return (IS31FL3731Matrix(bus: bus, configuration: .init(board: board), clock: clock, resynchronisation: .standard), { bus.statistics.total.bytes })
            }
        }
    } + [(MAX7219Layout.fc16, 4), (.fc16, 1), (.segments8, 2)].map { layout, devices in
        Case(name: "MAX7219 \(layout.rawValue) ×\(devices)", chip: .max7219(devices: devices)) { clock in
            let bus = VirtualSPIBus(clock: clock)
            return (MAX7219Chain(bus: bus, configuration: .init(layout: layout, devices: devices), clock: clock, resynchronisation: .standard), { bus.statistics.total.bytes })
        }
    }

    static func frames(_ face: MatrixFace) -> [MatrixFrame] {
        let bar = (0...100).map { percent -> MatrixFrame in
            var picture = MatrixPicture(face: face)
            let snapshot = ProgressSnapshot(
                time: Double(percent), phase: percent == 100 ? .finished(.succeeded) : .active, kind: .determinate(value: Double(percent), total: 100),
                fraction: Double(percent) / 100, label: "Backup", timeRemaining: 600, elapsed: Double(percent) * 0.7)
            MatrixStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &picture)
            var dither = DitherState()
            return picture.frame(appearance: .standard, pipeline: ColourPipeline(), dither: &dither)
        }
        var random = MatrixTestBench.Random(state: 59)
        let blinks: [MatrixBlink] = [.steady, .steady, .oneHertz, .twoHertz]
        return bar + (0..<40).map { _ in MatrixTestBench.randomFrame(face, &random, blink: blinks[random.next(4)], dimming: Double(1 + random.next(16)) / 16) }
    }

    @Test(arguments: cases)
    func noUpdateCostsMoreThanAPeers(testCase: Case) throws {
        let clock = ManualClock()
        let (driver, bytes) = testCase.make(clock)
        var previous: MatrixFrame?
        var over: [String] = []
        for (index, frame) in Self.frames(driver.face).enumerated() {
            clock.advance(by: 1)
            let before = bytes()
            try driver.show(frame)
            let sent = bytes() - before
            defer { previous = frame }
            guard let old = previous else { continue }
            for peer in MatrixPeerModel.methods(for: testCase.chip) {
                let cost = peer.traffic(from: old, to: frame, on: testCase.chip).bytes
                if sent > cost { over.append("frame \(index): \(sent) bytes, \(peer.rawValue) \(cost)") }
            }
        }
        #expect(over.isEmpty, "\(over.prefix(5))")
    }
}
