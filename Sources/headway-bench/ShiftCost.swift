import Headway
import HeadwaySimulator

/// What moving the picture costs (``DisplayCare``): on each controller's first module and bus, the
/// bytes of the frame where a bar screen at 40 % moves one pixel, against what luma.oled's update
/// method sends for the same two pictures, the changed bytes' floor, and a 1 % step; and the CPU
/// that placing the picture adds to a frame.
enum ShiftCost {
    static func report() throws {
        print("OLED care: the frame where the picture moves one pixel (bar screen at 40 %, drawn a pixel smaller), each controller's first module")
        print("(bytes on the wire; luma = luma.oled's method for the same two pictures, floor = the changed bytes alone; a 1 % step for scale)")
        for controller in OLEDController.allCases {
            var cells: [String] = []
            for link in BenchLink.allCases {
                let cost = try bytes(controller, on: link)
                cells.append("\(link.rawValue) \(grouped(cost.move)) (luma \(grouped(cost.luma)), floor \(grouped(cost.floor)), step \(grouped(cost.step)))")
            }
            print("  \(controller.rawValue) \(controller.variant.modules[0].size): " + cells.joined(separator: "; "))
        }
        let cpu = try frameCPU()
        print("CPU per SSD1327 frame of a rising bar through a DisplayOutput: \(fixed(cpu.plain, 2)) µs without care, \(fixed(cpu.cared, 2)) µs with the standard care; placing the picture alone \(fixed(cpu.placing, 2)) µs")
    }

    /// The bar screen at `percent`, drawn a pixel smaller than `controller`'s glass and placed at
    /// (`x`, `y`).
    static func placed(_ controller: OLEDController, _ percent: Double, x: Int, y: Int) -> Picture {
        let module = controller.variant.modules[0]
        let (width, height, grey) = (module.width, module.height, controller.variant.addressing.isGreyscale ? PixelFormat.grey4 : .mono)
        let snapshot = ProgressSnapshot(
            time: 1, phase: .active, kind: .determinate(value: percent, total: 100), fraction: percent / 100, label: "Compiling widgets", elapsed: 1)
        return Picture.drawn(BarScreenStyle(), snapshot, width: width - 1, height: height - 1, format: grey).placed(onWidth: width, height: height, x: x, y: y)
    }

    /// Bytes Headway sends to move the picture a pixel, what luma.oled and the floor would, and
    /// Headway's bytes for a 1 % step.
    static func bytes(_ controller: OLEDController, on link: BenchLink) throws -> (move: Int, luma: Int, floor: Int, step: Int) {
        let (oled, _) = try simulatedModule(controller, on: link)
        let costLink: OLEDLink = oled.i2cBus.map { .i2c(messageLimit: $0.maxMessageLength) } ?? .spi
        let standing = placed(controller, 40, x: 0, y: 0), moved = placed(controller, 40, x: 1, y: 0)
        try oled.driver.show(standing)
        _ = PeerComparison.endFrame(oled)  // the first frame also initialises the module
        try oled.driver.show(placed(controller, 41, x: 0, y: 0))
        let step = PeerComparison.endFrame(oled).bytes
        try oled.driver.show(standing)
        _ = PeerComparison.endFrame(oled)
        try oled.driver.show(moved)
        let move = PeerComparison.endFrame(oled).bytes
        let (old, new, rowBytes) = (standing.bytes, moved.bytes, moved.rowBytes)
        let luma = OLEDPeerModel.luma.traffic(from: old, to: new, rowBytes: rowBytes, controller: controller, link: costLink)?.bytes ?? 0
        let floor = OLEDPeerModel.floor(from: old, to: new, rowBytes: rowBytes, controller: controller, link: costLink).bytes
        return (move, luma, floor, step)
    }

    /// Microseconds per frame of an SSD1327 bar screen rising a step a frame through a display
    /// output on a simulated bus, without care and with the standard care (the picture moving
    /// every 120 frames), and of placing a 127x127 greymap on the glass.
    static func frameCPU() throws -> (plain: Double, cared: Double, placing: Double) {
        let frames = 6000
        func microseconds(_ duration: Duration) -> Double {
            (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(frames)
        }
        func run(_ care: DisplayCare) throws -> Double {
            let clock = ManualClock()
            let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1327), bus: VirtualI2CBus(clockHz: 400_000, clock: clock))
            let output = DisplayOutput(oled.driver, care: care)
            let start = ContinuousClock.now
            for frame in 0..<frames {
                let fraction = Double(frame % 100) / 100
                let snapshot = ProgressSnapshot(
                    time: Double(frame), phase: .active, kind: .determinate(value: fraction, total: 1), fraction: fraction, label: "Compiling widgets",
                    elapsed: Double(frame))
                try output.draw(ProgressStyleConfiguration(snapshot: snapshot))
            }
            return microseconds(ContinuousClock.now - start)
        }
        let picture = Greymap(width: 127, height: 127)
        var sink = 0
        let start = ContinuousClock.now
        for frame in 0..<frames { sink &+= Int(picture.placed(onWidth: 128, height: 128, x: frame & 1, y: 0).bytes[64]) }
        let placing = microseconds(ContinuousClock.now - start)
        precondition(sink == 0)
        return (try run(.off), try run(.standard), placing)
    }
}
