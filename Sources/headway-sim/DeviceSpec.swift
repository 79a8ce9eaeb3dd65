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
    case oled(OLEDController, width: Int, height: Int, spi: Bool)

    static let help = "ringN or stripN (WS2812, e.g. ring24, strip60), apa102-N (APA102 strip), leds0-N (a ring on the Pi 5's /dev/leds0), barN (GPIO LEDs, 1…16), blinkt (8 APA102 on GPIO), an OLED as CONTROLLER[-WxH][@spi] (\(OLEDController.allCases.map(\.rawValue).joined(separator: ", ")); e.g. ssd1327, sh1107-64x128, sh1106@spi: I2C at 0x3C, or SPI0 with D/C on GPIO 24 and reset on 25), or oledWxH for an SSD1306 (oled128x64, oled128x32, oled64x48)"

    /// The SPI wiring of an `@spi` display: luma.oled's and most modules' documented Pi wiring.
    static let spiDataCommand: UInt32 = 24
    static let spiReset: UInt32 = 25

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
        } else if let display = try Self.display(lower, text) {
            self = display
        } else {
            throw SpecError("unknown device \"\(text)\"; use \(Self.help)")
        }
    }

    /// `CONTROLLER[-WxH][@spi]`, or `oledWxH` (SSD1306 on I2C); nil when `lower` names no display.
    private static func display(_ lower: String, _ text: String) throws(SpecError) -> DeviceSpec? {
        let spi = lower.hasSuffix("@spi")
        let name = spi ? String(lower.dropLast(4)) : lower
        let parts = name.split(separator: "-", maxSplits: 1)
        let controller: OLEDController
        var size: Substring?
        if name.hasPrefix("oled"), let legacy = Optional(name.dropFirst(4)), !legacy.isEmpty {
            controller = .ssd1306
            size = legacy
        } else if let first = parts.first, let named = OLEDController(rawValue: String(first)) {
            controller = named
            size = parts.count == 2 ? parts[1] : nil
        } else {
            return nil
        }
        let variant = controller.variant
        let dimensions = size.map { $0.split(separator: "x").compactMap { Int($0) } } ?? [variant.modules[0].width, variant.modules[0].height]
        guard dimensions.count == 2, variant.modules.contains(where: { $0.width == dimensions[0] && $0.height == dimensions[1] }) else {
            throw SpecError("device \"\(text)\": \(controller.rawValue) modules come in \(variant.sizes)")
        }
        return .oled(controller, width: dimensions[0], height: dimensions[1], spi: spi)
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
        case .oled(let controller, let w, let h, let spi):
            // Sizes were checked when parsing, and the SPI lines are free on a new chip.
            let configuration = try! OLEDConfiguration(controller: controller, width: w, height: h)
            guard spi else {
                let bus = VirtualI2CBus(name: "i2c-1", clockHz: i2cClockHz, clock: clock)
                return SimulatorRig(displays: [SimulatedOLED(name: name, configuration: configuration, bus: bus)])
            }
            let bus = VirtualSPIBus(name: "spi0.0", clockModel: .raspberryPi4, clock: clock)
            let header = VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock)
            let oled = try! SimulatedOLED(
                name: name, configuration: configuration, bus: bus, lines: header, dataCommand: Self.spiDataCommand, reset: Self.spiReset, clock: clock)
            return SimulatorRig(displays: [oled], spiBuses: [bus], gpioChips: [header])
        }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
