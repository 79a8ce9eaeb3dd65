import Headway
import HeadwayYAML

/// Reading an OLED output: its controller (the `driver:`), module size, mounting, and how it is
/// connected — I2C at an address, or SPI with D/C and reset lines.
extension Reader {
    static let displayKeys = ["bus", "address", "size", "rotation", "rotated", "style", "contrast", "dc", "reset", "chip", "speed-hz", "care"]
    static let spiOnlyKeys = ["dc", "speed-hz"]

    /// Whether `bus` names an SPI bus (a display on SPI) rather than an I2C one.
    static func isSPIBus(_ bus: String) -> Bool {
        bus.hasPrefix("spi") || bus.hasPrefix("/dev/spidev") || bus == "header-ce0" || bus == "header-ce1"
    }

    func display(_ map: YAMLMapping, _ node: YAMLNode, key: String, controller: OLEDController) throws(ConfigurationError) -> OutputConfiguration.Device {
        guard let busNode = map["bus"] else {
            throw error(node, "\(key).bus", "missing for driver \(controller.rawValue): an I2C bus (header, i2c-1) or an SPI bus (header-ce0, spi0.0) with dc:")
        }
        let bus = try string(busNode, "\(key).bus")
        let variant = controller.variant
        let chip = try map["chip"].map { n throws(ConfigurationError) in try string(n, "\(key).chip") } ?? "header"
        let reset = try map["reset"].map { n throws(ConfigurationError) in try line(n, "\(key).reset") }
        let link: DisplayLink
        if Self.isSPIBus(bus) {
            if let address = map["address"] {
                throw error(address, "\(key).address", "an SPI display has no address (that is I2C); leave it out, or use an I2C bus (header, i2c-1)")
            }
            guard let dcNode = map["dc"] else {
                throw error(busNode, "\(key).dc", "missing: a display on SPI needs its D/C line (dc: 24, or dc: pin 18)")
            }
            let speed = try map["speed-hz"].map { n throws(ConfigurationError) -> UInt32 in
                let hz = try int(n, "\(key).speed-hz", 100_000...40_000_000)
                guard hz <= variant.maxSPIClockHz else {
                    throw error(n, "\(key).speed-hz", "\(controller.rawValue) takes at most \(variant.maxSPIClockHz) Hz on SPI (its datasheet's serial clock cycle); leave speed-hz out for that")
                }
                return UInt32(hz)
            } ?? variant.maxSPIClockHz
            link = .spi(bus: bus, chip: chip, dataCommand: try line(dcNode, "\(key).dc"), reset: reset, speedHz: speed)
        } else {
            if let extra = Self.spiOnlyKeys.first(where: { map[$0] != nil }) {
                throw error(map[extra], "\(key).\(extra)", "is for a display on SPI, but bus \(bus) is I2C; remove \(extra), or set bus: to an SPI bus (header-ce0, spi0.0)")
            }
            link = .i2c(bus: bus, chip: chip, reset: reset)
        }
        let configuration = try oledConfiguration(map, node, key: key, controller: controller)
        let ring = try map["style"].map { n throws(ConfigurationError) in try choice(n, "\(key).style", [("bar", false), ("ring", true)]) } ?? false
        return .oled(link: link, configuration: configuration, ring: ring)
    }

    private func oledConfiguration(_ map: YAMLMapping, _ node: YAMLNode, key: String, controller: OLEDController) throws(ConfigurationError) -> OLEDConfiguration {
        let variant = controller.variant
        let sizeNode = map["size"]
        let size = try sizeNode.map { n throws(ConfigurationError) in try string(n, "\(key).size") } ?? variant.modules[0].size
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw error(sizeNode ?? node, "\(key).size", "\"\(size)\" is not WIDTHxHEIGHT; \(controller.rawValue) modules come in \(variant.sizes)") }
        guard variant.modules.contains(where: { $0.width == parts[0] && $0.height == parts[1] }) else {
            throw error(sizeNode ?? node, "\(key).size", Self.wrongSize(controller, width: parts[0], height: parts[1]))
        }
        if map["rotation"] != nil, let rotated = map["rotated"] {
            throw error(rotated, "\(key).rotated", "give rotation: or rotated:, not both (rotated: true is rotation: 180)")
        }
        var rotation = OLEDRotation.upright
        if let n = map["rotation"] {
            rotation = try choice(n, "\(key).rotation", OLEDRotation.allCases.map { (String($0.rawValue), $0) })
        } else if let n = map["rotated"], try bool(n, "\(key).rotated") {
            rotation = .half
        }
        let address = try map["address"].map { n throws(ConfigurationError) -> UInt8 in
            let value = try int(n, "\(key).address", 0x03...0xFF)
            let addresses = variant.i2cAddresses.map { hexByte($0) }.joined(separator: " or ")
            if variant.i2cAddresses.contains(UInt8(value >> 1)), value > 0x77 {
                throw error(n, "\(key).address", "\(hexByte(UInt8(value))) is the 8-bit form (the address shifted left, with the write bit) of \(hexByte(UInt8(value >> 1))); write address: \(hexByte(UInt8(value >> 1)).lowercased())")
            }
            guard variant.i2cAddresses.contains(UInt8(value)) else {
                throw error(n, "\(key).address", "\(controller.rawValue) answers at \(addresses) (its SA0 pin), not \(hexByte(UInt8(value)))")
            }
            return UInt8(value)
        } ?? variant.i2cAddresses[0]
        let contrast = try map["contrast"].map { n throws(ConfigurationError) in UInt8(try int(n, "\(key).contrast", 0...255)) }
        do {
            return try OLEDConfiguration(controller: controller, width: parts[0], height: parts[1], address: address, rotation: rotation, contrast: contrast)
        } catch {
            throw self.error(map["rotation"] ?? sizeNode ?? node, "\(key).rotation", error.message)
        }
    }

    /// Says what sizes the controller comes in and, when other controllers come in the size asked
    /// for, which (a 128x128 module on `driver: ssd1306` is most likely an SH1107 or an SSD1327).
    static func wrongSize(_ controller: OLEDController, width: Int, height: Int) -> String {
        let others = OLEDController.allCases.filter { other in
            other != controller && other.variant.modules.contains { $0.width == width && $0.height == height }
        }
        var text = "\(controller.rawValue) modules come in \(controller.variant.sizes), not \(width)x\(height)"
        if !others.isEmpty {
            let names = others.map { $0.variant.addressing.isGreyscale ? "\($0.rawValue) (16 grey levels)" : $0.rawValue }
            text += "; \(width)x\(height) modules are driven by \(names.joined(separator: " or ")): set driver: accordingly"
        }
        return text
    }

    /// A GPIO line: its number (`24`) or its header pin (`pin 18`).
    func line(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> UInt32 {
        let text = try string(node, key).lowercased()
        guard text.hasPrefix("pin") else { return UInt32(try int(node, key, 0...511)) }
        guard let pin = Int(text.dropFirst(3).trimmingPrefix(" ")), (1...40).contains(pin) else {
            throw error(node, key, "\"\(text)\" is not a header pin; write pin 1 … pin 40, or the GPIO number")
        }
        guard let gpio = HeaderPins.gpio[pin] else {
            throw error(node, key, "header pin \(pin) is \(HeaderPins.power(pin) ?? "not a GPIO"), not a GPIO line; pick a pin with a GPIO (e.g. pin 18 is GPIO 24)")
        }
        return gpio
    }
}
