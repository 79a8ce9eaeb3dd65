import Headway
import HeadwaySimulator

/// A virtual device named on the command line: `ring24`, `strip60`, `oled128x64`, `oled128x32`…
enum DeviceSpec: Equatable {
    case ring(Int)
    case strip(Int)
    case oled(OLEDController, width: Int, height: Int)

    static let help = "ringN (e.g. ring24), stripN (e.g. strip60), oledWxH for an SSD1306 (oled128x64, oled128x32, oled64x48) or sh1106 (128x64)"

    init(parsing text: String) throws(SpecError) {
        let lower = text.lowercased()
        func count(after prefix: String) -> Int? {
            guard lower.hasPrefix(prefix), let n = Int(lower.dropFirst(prefix.count)), n > 0, n <= 4096 else { return nil }
            return n
        }
        if let n = count(after: "ring") {
            self = .ring(n)
        } else if let n = count(after: "strip") {
            self = .strip(n)
        } else if lower == "sh1106" || lower == "sh1106-128x64" {
            self = .oled(.sh1106, width: 128, height: 64)
        } else if lower.hasPrefix("oled") {
            let size = lower.dropFirst(4).split(separator: "x")
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), (try? OLEDConfiguration(controller: .ssd1306, width: w, height: h)) != nil else {
                throw SpecError("device \"\(text)\": SSD1306 modules are oled128x64, oled128x32 or oled64x48")
            }
            self = .oled(.ssd1306, width: w, height: h)
        } else {
            throw SpecError("unknown device \"\(text)\"; use \(Self.help)")
        }
    }

    var name: String {
        switch self {
        case .ring: "ring"
        case .strip: "strip"
        case .oled: "oled"
        }
    }

    var isDisplay: Bool {
        if case .oled = self { return true }
        return false
    }

    /// A rig holding just this device.
    func rig(clock: any ProgressClock, i2cClockHz: Double = 100_000) -> SimulatorRig {
        switch self {
        case .ring(let n): return SimulatorRig(chains: [VirtualLEDChain(name: name, count: n, layout: .ring())], displays: [])
        case .strip(let n): return SimulatorRig(chains: [VirtualLEDChain(name: name, count: n, layout: .strip)], displays: [])
        case .oled(let controller, let w, let h):
            // Sizes were checked when parsing.
            let configuration = try! OLEDConfiguration(controller: controller, width: w, height: h)
            let bus = VirtualI2CBus(name: "i2c-1", clockHz: i2cClockHz, clock: clock)
            return SimulatorRig(chains: [], displays: [SimulatedOLED(name: name, configuration: configuration, bus: bus)])
        }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
