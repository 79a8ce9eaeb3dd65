import Foundation
import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// The real OLED driver against the datasheet models of the controllers, on every module size,
/// mounting and bus: what the glass shows is the frame sent, turned as mounted.
@Suite("OLED drivers on virtual controllers")
struct OLEDDriverTests {
    enum Link: String, Sendable { case i2c = "I2C", smbus = "SMBus-only I2C", spi = "SPI" }

    struct Module: CustomTestStringConvertible, Sendable {
        var controller: OLEDController
        var width: Int
        var height: Int
        var rotation = OLEDRotation.upright
        var link = Link.i2c
        var testDescription: String {
            "\(controller.rawValue) \(width)x\(height)\(rotation == .upright ? "" : " turned \(rotation.rawValue)°") on \(link.rawValue)"
        }
    }

    /// Every module of every controller upright and turned by 180° (and by quarters where the
    /// glass is square or tall), on I2C and on SPI; the first of each on an SMBus-only adapter.
    static let modules: [Module] = OLEDController.allCases.flatMap { controller in
        let variant = controller.variant
        let rotations: [OLEDRotation] = variant.turnsByQuarters ? OLEDRotation.allCases : [.upright, .half]
        return variant.modules.flatMap { module in
            rotations.flatMap { rotation in
                [Link.i2c, .spi].map { Module(controller: controller, width: module.width, height: module.height, rotation: rotation, link: $0) }
            }
        } + [Module(controller: controller, width: variant.modules[0].width, height: variant.modules[0].height, link: .smbus)]
    }

    /// Each module once, upright on I2C (a named list: Swift 6.0's compiler crashes on a closure
    /// inside `@Test(arguments:)`).
    static let uprightOnI2C = modules.filter { $0.link == .i2c && $0.rotation == .upright }

    struct Rig {
        static let dataCommand: UInt32 = 24
        static let reset: UInt32 = 25

        let clock = ManualClock()
        let oled: SimulatedOLED
        let module: Module
        /// The I2C bus, for faults and statistics (nil on SPI).
        var bus: VirtualI2CBus { oled.i2cBus! }
        var chip: VirtualOLED { oled.chip }
        var driver: OLEDDisplay { oled.driver }

        init(_ module: Module, resynchronisation: OLEDDisplay.Resynchronisation = .standard) throws {
            self.module = module
            let configuration = try OLEDConfiguration(controller: module.controller, width: module.width, height: module.height, rotation: module.rotation)
            switch module.link {
            case .i2c, .smbus:
                oled = SimulatedOLED(name: "oled", configuration: configuration, bus: VirtualI2CBus(smbusOnly: module.link == .smbus, clock: clock), resynchronisation: resynchronisation)
            case .spi:
                oled = try SimulatedOLED(
                    name: "oled", configuration: configuration, bus: VirtualSPIBus(clockModel: .raspberryPi4, clock: clock),
                    lines: VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock), dataCommand: Self.dataCommand, reset: Self.reset, clock: clock,
                    resynchronisation: resynchronisation)
            }
        }

        /// The picture's size (the glass's, turned as mounted).
        var width: Int { driver.width }
        var height: Int { driver.height }

        /// What the glass should show for `frame`: its levels (on an on/off glass, lit from level 8),
        /// turned as the module is mounted.
        func expected(_ frame: Greymap) -> Greymap {
            let shown = chip.isGreyscale ? frame : Greymap(frame.bitmap())
            var glass = Greymap(width: module.width, height: module.height)
            for y in 0..<shown.height {
                for x in 0..<shown.width {
                    let (gx, gy): (Int, Int) = switch module.rotation {
                    case .upright: (x, y)
                    case .half: (module.width - 1 - x, module.height - 1 - y)
                    case .quarter: (shown.height - 1 - y, x)
                    case .threeQuarters: (y, shown.width - 1 - x)
                    }
                    glass[gx, gy] = shown[x, y]
                }
            }
            return glass
        }
    }

    /// How many pixels of two pictures differ (not the pictures: a failure should stay readable).
    static func differing(_ a: Greymap, _ b: Greymap) -> Int {
        guard a.width == b.width, a.height == b.height else { return -1 }
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { count += 1 } }
        return count
    }


    static func mutate(_ frame: inout Greymap, _ random: inout SeededRandom) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:  // a whole new picture
            for y in 0..<frame.height { for x in 0..<frame.width { frame[x, y] = UInt8.random(in: 0...15, using: &random) } }
        case 1:
            frame.clear()
        default:  // a few rectangles here and there, as styles change them
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let x = Int.random(in: 0..<frame.width, using: &random), y = Int.random(in: 0..<frame.height, using: &random)
                let rect = PixelRect(x: x, y: y, width: Int.random(in: 1...20, using: &random), height: Int.random(in: 1...12, using: &random))
                frame.fill(rect, level: UInt8.random(in: 0...15, using: &random))
            }
        }
    }

    @Test(arguments: modules)
    func glassShowsEveryFrameSent(module: Module) throws {
        let rig = try Rig(module)
        var random = SeededRandom(seed: 0x5EED)
        var frame = Greymap(width: rig.width, height: rig.height)
        for step in 0..<60 {
            rig.clock.advance(by: 0.04)
            Self.mutate(&frame, &random)
            try rig.driver.show(.greymap(frame))
            #expect(Self.differing(rig.chip.glass, rig.expected(frame)) == 0, "frame \(step)")
        }
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors.prefix(3))")
    }

    @Test(arguments: uprightOnI2C)
    func faultsEndInTheRightPicture(module: Module) throws {
        let rig = try Rig(module)
        var random = SeededRandom(seed: 0xFA17)
        var frame = Greymap(width: rig.width, height: rig.height)
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
                try rig.driver.show(.greymap(frame))
                #expect(Self.differing(rig.chip.glass, rig.expected(frame)) == 0, "step \(step)")
            } catch {
                failures += 1
                #expect(error.kind == .notPresent)
            }
        }
        #expect(failures >= 12, "the faults were felt")
        #expect(rig.chip.protocolErrors.allSatisfy { $0.contains("cut off by STOP") }, "\(rig.chip.protocolErrors.prefix(3))")
    }

    @Test func replugReinitialisesWithoutRestart() throws {
        let rig = try Rig(Module(controller: .ssd1306, width: 128, height: 64))
        var frame = Bitmap(width: 128, height: 64)
        frame.draw("hello", x: 10, y: 10)
        try rig.driver.show(.bitmap(frame))
        rig.bus.inject(.disappear(address: 0x3C, until: 5))
        rig.clock.set(to: 1)
        frame.draw("world", x: 10, y: 20)
        #expect(throws: DeviceError.self) { try rig.driver.show(.bitmap(frame)) }
        rig.clock.set(to: 6)
        try rig.driver.show(.bitmap(frame))
        #expect(rig.chip.isLit)
        #expect(rig.chip.picture == frame, "the glass shows the frame")
    }

    @Test func smbusOnlyBusesGetShortMessages() throws {
        let rig = try Rig(Module(controller: .ssd1306, width: 128, height: 64, link: .smbus))
        let capturePath = "/tmp/headway-smbus-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let capture = try BusCapture(path: capturePath)
        rig.bus.capture(to: capture)
        var frame = Bitmap(width: 128, height: 64)
        frame.fill(frame.bounds)
        try rig.driver.show(.bitmap(frame))
        capture.close()
        let lines = try String(contentsOfFile: capturePath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 32)
        for line in lines {
            let hex = line.split(separator: "\"write\":\"")[1].dropLast(2)
            #expect(hex.count <= 66, "\(line)")
        }
    }

    /// On SPI the controller is reset through RES# before it is set up (the model checks the
    /// pulse and the wait against the datasheet), and a whole SSD1327 picture (8192 bytes) goes out
    /// in messages spidev takes (4096 bytes at most).
    @Test func spiResetsFirstAndSplitsWithinBufsiz() throws {
        let rig = try Rig(Module(controller: .ssd1327, width: 128, height: 128, link: .spi))
        guard case .spi(let bus, let lines) = rig.oled.link else { Issue.record("not on SPI"); return }
        let capturePath = "/tmp/headway-spi-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let capture = try BusCapture(path: capturePath)
        defer { try? FileManager.default.removeItem(atPath: capturePath) }
        bus.capture(to: capture)
        lines.capture(to: capture)
        var frame = Greymap(width: 128, height: 128)
        frame.fill(frame.bounds, level: 9)
        try rig.driver.show(.greymap(frame))
        capture.close()
        let text = try String(contentsOfFile: capturePath, encoding: .utf8).split(separator: "\n")
        let resetLow = text.firstIndex { $0.contains("\"lines\":[25],\"values\":[0]") }
        let firstWrite = text.firstIndex { $0.contains("\"write\":") }
        #expect(resetLow != nil && firstWrite != nil && resetLow! < firstWrite!, "RES# pulsed before the first byte")
        #expect(text.filter { $0.contains("\"write\":") }.allSatisfy { $0.count < 2 * 4096 + 100 }, "no message over bufsiz")
        #expect(Self.differing(rig.chip.glass, frame) == 0)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors.prefix(3))")
    }

    static func barScreen(_ fraction: Double?, elapsed: Seconds = 5, width: Int = 128, height: Int = 64) -> Greymap {
        let snapshot = ProgressSnapshot(
            time: 100, phase: .active, kind: fraction.map { .determinate(value: $0 * 200, total: 200) } ?? .indeterminate,
            fraction: fraction, label: "Compiling", timeRemaining: 42, elapsed: elapsed)
        var picture = Greymap(width: width, height: height)
        BarScreenStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &picture)
        return picture
    }

    static func ringScreen(elapsed: Seconds) -> Greymap {
        let snapshot = ProgressSnapshot(time: 100, phase: .active, kind: .indeterminate, fraction: nil, label: "Queued", elapsed: elapsed)
        var picture = Greymap(width: 128, height: 64)
        RingScreenStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &picture)
        return picture
    }

    /// Bytes on the wire for showing `next` after `previous`, on I2C.
    static func cost(_ previous: Greymap, _ next: Greymap, module: Module = Module(controller: .ssd1306, width: 128, height: 64)) throws -> (full: Int, step: Int) {
        let rig = try Rig(module)
        try rig.driver.show(.greymap(previous))
        rig.bus.endFrame()
        try rig.driver.show(.greymap(next))
        rig.bus.endFrame()
        let frames = rig.bus.statistics.frames
        return (frames[0].bytes, frames.count > 1 ? frames[1].bytes : 0)
    }

    @Test(arguments: OLEDController.allCases)
    func onePercentStepIsCheap(controller: OLEDController) throws {
        let glass = controller.variant.modules.max { $0.width * $0.height < $1.width * $1.height }!
        let module = Module(controller: controller, width: glass.width, height: glass.height)
        let (full, step) = try Self.cost(
            Self.barScreen(0.50, width: glass.width, height: glass.height), Self.barScreen(0.51, width: glass.width, height: glass.height), module: module)
        // A full frame is at least every RAM byte; the step redraws a digit and a bar column.
        #expect(full > glass.width * glass.height / (controller.variant.addressing.isGreyscale ? 2 : 8))
        #expect(step * 100 < full * 6, "1 % step: \(step) bytes of a \(full)-byte full frame")
    }

    @Test func spinnerFrameIsWithinBudget() throws {
        let (full, step) = try Self.cost(Self.ringScreen(elapsed: 1.0), Self.ringScreen(elapsed: 1.0 + 1.0 / 30))
        #expect(step > 0)
        #expect(step * 100 < full * 25, "spinner frame: \(step) bytes of \(full)")
    }
}
