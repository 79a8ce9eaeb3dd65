import Headway
import HeadwaySimulator

/// A virtual device named on the command line: `ring24`, `strip60`, `oled128x64`, `oled128x32`…
enum DeviceSpec: Equatable {
    case ring(Int)
    case strip(Int)
    case apa102(Int)
    case pi5(Int)
    case bar(Int)
    case blinkt
    case oled(OLEDController, width: Int, height: Int)

    static let help = "ringN or stripN (WS2812, e.g. ring24, strip60), apa102-N (APA102 strip), leds0-N (a ring on the Pi 5's /dev/leds0), barN (GPIO LEDs, 1…16), blinkt (8 APA102 on GPIO), oledWxH for an SSD1306 (oled128x64, oled128x32, oled64x48) or sh1106 (128x64)"

    init(parsing text: String) throws(SpecError) {
        let lower = text.lowercased()
        func count(after prefix: String) -> Int? {
            guard lower.hasPrefix(prefix), let n = Int(lower.dropFirst(prefix.count)), n > 0, n <= 4096 else { return nil }
            return n
        }
        if lower == "blinkt" {
            self = .blinkt
        } else if let n = count(after: "leds0-") {
            self = .pi5(n)
        } else if let n = count(after: "apa102-") {
            self = .apa102(n)
        } else if let n = count(after: "bar"), n <= 16 {
            self = .bar(n)
        } else if let n = count(after: "ring") {
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
        case .ring, .pi5: "ring"
        case .strip, .apa102: "strip"
        case .bar: "bar"
        case .blinkt: "stick"
        case .oled: "oled"
        }
    }

    var isDisplay: Bool {
        if case .oled = self { return true }
        return false
    }

    var isLights: Bool {
        if case .bar = self { return true }
        return false
    }

    /// A rig holding just this device.
    func rig(clock: any ProgressClock, i2cClockHz: Double = 100_000) -> SimulatorRig {
        switch self {
        // Counts were checked when parsing; a frame too large for the bus is reported when drawing.
        case .ring(let n), .strip(let n):
            let bus = VirtualSPIBus(name: "spi0.0", bufsiz: 1 << 20, clockModel: .raspberryPi4, clock: clock)
            let layout: LEDLayout = if case .ring = self { .ring() } else { .strip }
            return SimulatorRig(chains: [try! .ws2812(name: name, count: n, layout: layout, bus: bus)], spiBuses: [bus])
        case .apa102(let n):
            let bus = VirtualSPIBus(name: "spi0.0", clockModel: .raspberryPi4, clock: clock)
            return SimulatorRig(chains: [try! .apa102(name: name, count: n, layout: .strip, bus: bus)], spiBuses: [bus])
        case .pi5(let n):
            return SimulatorRig(chains: [try! .rp1(name: name, count: n, layout: .ring())])
        case .blinkt:
            let chip = VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock)
            return SimulatorRig(chains: [try! .apa102BitBanged(name: name, count: 8, chip: chip, data: 23, clock: 24)], gpioChips: [chip])
        case .bar(let n):
            let chip = VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock)
            let lines = try! SimulatedGPIOLEDs(name: name, chip: chip, offsets: (0..<UInt32(n)).map { $0 + 4 })
            return SimulatorRig(lights: [lines], gpioChips: [chip])
        case .oled(let controller, let w, let h):
            // Sizes were checked when parsing.
            let configuration = try! OLEDConfiguration(controller: controller, width: w, height: h)
            let bus = VirtualI2CBus(name: "i2c-1", clockHz: i2cClockHz, clock: clock)
            return SimulatorRig(displays: [SimulatedOLED(name: name, configuration: configuration, bus: bus)])
        }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
