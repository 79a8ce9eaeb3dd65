import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// The real OLED driver against the datasheet models of the controllers, over the virtual bus.
@Suite("OLED drivers on virtual controllers")
struct OLEDDriverTests {
    struct Module: CustomTestStringConvertible, Sendable {
        var controller: OLEDController
        var width: Int
        var height: Int
        var rotated = false
        var smbusOnly = false
        var testDescription: String {
            "\(controller.rawValue) \(width)x\(height)\(rotated ? " rotated" : "")\(smbusOnly ? " SMBus-only" : "")"
        }
    }

    static let modules: [Module] = [
        Module(controller: .ssd1306, width: 128, height: 64),
        Module(controller: .ssd1306, width: 128, height: 32),
        Module(controller: .ssd1306, width: 64, height: 48),
        Module(controller: .ssd1306, width: 128, height: 64, rotated: true),
        Module(controller: .ssd1306, width: 128, height: 64, smbusOnly: true),
        Module(controller: .sh1106, width: 128, height: 64),
        Module(controller: .sh1106, width: 128, height: 64, rotated: true, smbusOnly: true),
    ]

    struct Rig {
        let clock = ManualClock()
        let bus: VirtualI2CBus
        let chip: VirtualOLED
        let driver: OLEDDisplay
        let module: Module

        init(_ module: Module, resynchronisation: OLEDDisplay.Resynchronisation = .standard) throws {
            self.module = module
            bus = VirtualI2CBus(smbusOnly: module.smbusOnly, clock: clock)
            chip = VirtualOLED(controller: module.controller, width: module.width, height: module.height)
            bus.attach(chip)
            driver = OLEDDisplay(
                bus: bus, configuration: try OLEDConfiguration(controller: module.controller, width: module.width, height: module.height, rotation: module.rotated ? .half : .upright),
                clock: clock, resynchronisation: resynchronisation)
        }

        /// What the glass should show for `frame`: the frame itself, or turned by 180° on a module
        /// mounted the other way round.
        func expected(_ frame: Bitmap) -> Bitmap {
            guard module.rotated else { return frame }
            var turned = Bitmap(width: frame.width, height: frame.height)
            for y in 0..<frame.height {
                for x in 0..<frame.width where frame[x, y] { turned[frame.width - 1 - x, frame.height - 1 - y] = true }
            }
            return turned
        }
    }

    /// A deterministic generator, so a failing sequence can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ frame: inout Bitmap, _ random: inout SplitMix) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:  // a whole new picture
            for y in 0..<frame.height { for x in 0..<frame.width { frame[x, y] = Bool.random(using: &random) } }
        case 1:
            frame.clear()
        default:  // a few rectangles here and there, as styles change them
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let x = Int.random(in: 0..<frame.width, using: &random), y = Int.random(in: 0..<frame.height, using: &random)
                let rect = PixelRect(x: x, y: y, width: Int.random(in: 1...20, using: &random), height: Int.random(in: 1...12, using: &random))
                frame.fill(rect, on: Bool.random(using: &random))
            }
        }
    }

    @Test(arguments: modules)
    func glassShowsEveryFrameSent(module: Module) throws {
        let rig = try Rig(module)
        var random = SplitMix(state: 0x5EED)
        var frame = Bitmap(width: module.width, height: module.height)
        for _ in 0..<120 {
            Self.mutate(&frame, &random)
            try rig.driver.show(frame)
            #expect(rig.chip.picture == rig.expected(frame))
        }
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    @Test(arguments: modules)
    func faultsEndInTheRightPicture(module: Module) throws {
        let rig = try Rig(module)
        var random = SplitMix(state: 0xFA17)
        var frame = Bitmap(width: module.width, height: module.height)
        var failures = 0
        for step in 0..<90 {
            rig.clock.advance(by: 0.1)
            switch step % 15 {
            case 3: rig.bus.inject(.nack(count: 1))
            case 7: rig.bus.inject(.ioError(count: 2))
            case 11: rig.bus.inject(.disappear(address: 0x3C, until: rig.clock.now + 0.25))
            default: break
            }
            Self.mutate(&frame, &random)
            do {
                try rig.driver.show(frame)
                #expect(rig.chip.picture == rig.expected(frame), "step \(step)")
            } catch {
                failures += 1
                #expect(error.kind == .notPresent)
            }
        }
        #expect(failures >= 12, "the faults were felt")
        #expect(rig.chip.protocolErrors.allSatisfy { $0.contains("cut off by STOP") }, "\(rig.chip.protocolErrors)")
    }

    @Test func replugReinitialisesWithoutRestart() throws {
        let rig = try Rig(Module(controller: .ssd1306, width: 128, height: 64))
        var frame = Bitmap(width: 128, height: 64)
        frame.draw("hello", x: 10, y: 10)
        try rig.driver.show(frame)
        rig.bus.inject(.disappear(address: 0x3C, until: 5))
        rig.clock.set(to: 1)
        frame.draw("world", x: 10, y: 20)
        #expect(throws: DeviceError.self) { try rig.driver.show(frame) }
        rig.clock.set(to: 6)
        try rig.driver.show(frame)
        #expect(rig.chip.registers.displayOn && rig.chip.registers.powerOn)
        #expect(rig.chip.picture == frame)
    }

    @Test func smbusOnlyBusesGetShortMessages() throws {
        let rig = try Rig(Module(controller: .ssd1306, width: 128, height: 64, smbusOnly: true))
        let capturePath = "/tmp/headway-smbus-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let capture = try BusCapture(path: capturePath)
        rig.bus.capture(to: capture)
        var frame = Bitmap(width: 128, height: 64)
        frame.fill(frame.bounds)
        try rig.driver.show(frame)
        capture.close()
        let lines = try String(contentsOfFile: capturePath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 32)
        for line in lines {
            let hex = line.split(separator: "\"write\":\"")[1].dropLast(2)
            #expect(hex.count <= 66, "\(line)")
        }
    }

    static func barScreen(_ fraction: Double?, elapsed: Seconds = 5) -> Bitmap {
        let snapshot = ProgressSnapshot(
            time: 100, phase: .active, kind: fraction.map { .determinate(value: $0 * 200, total: 200) } ?? .indeterminate,
            fraction: fraction, label: "Compiling", timeRemaining: 42, elapsed: elapsed)
        var bitmap = Bitmap(width: 128, height: 64)
        BarScreenStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
        return bitmap
    }

    static func ringScreen(elapsed: Seconds) -> Bitmap {
        let snapshot = ProgressSnapshot(time: 100, phase: .active, kind: .indeterminate, fraction: nil, label: "Queued", elapsed: elapsed)
        var bitmap = Bitmap(width: 128, height: 64)
        RingScreenStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
        return bitmap
    }

    /// Bytes on the wire for showing `next` after `previous`.
    static func cost(_ previous: Bitmap, _ next: Bitmap, controller: OLEDController = .ssd1306) throws -> (full: Int, step: Int) {
        let rig = try Rig(Module(controller: controller, width: 128, height: 64))
        try rig.driver.show(previous)
        rig.bus.endFrame()
        try rig.driver.show(next)
        rig.bus.endFrame()
        let frames = rig.bus.statistics.frames
        return (frames[0].bytes, frames.count > 1 ? frames[1].bytes : 0)
    }

    @Test(arguments: [OLEDController.ssd1306, .sh1106])
    func onePercentStepIsCheap(controller: OLEDController) throws {
        let (full, step) = try Self.cost(Self.barScreen(0.50), Self.barScreen(0.51), controller: controller)
        // A full frame is at least the 1024 data bytes; the step redraws a digit and a bar column.
        #expect(full > 1024)
        #expect(step * 100 < full * 6, "1 % step: \(step) bytes of a \(full)-byte full frame")
    }

    @Test func spinnerFrameIsWithinBudget() throws {
        let (full, step) = try Self.cost(Self.ringScreen(elapsed: 1.0), Self.ringScreen(elapsed: 1.0 + 1.0 / 30))
        #expect(step > 0)
        #expect(step * 100 < full * 25, "spinner frame: \(step) bytes of \(full)")
    }
}

