import Headway

/// Small OLED displays: one row per controller in `OLEDVariant` (SSD1306, SH1106, SSD1309, SSD1305,
/// SSD1315, SH1107, SSD1327), each on I2C at its address or on 4-wire SPI with D/C and reset lines.
struct OLEDFamily: DeviceFamily {
    var drivers: [String] { OLEDController.allCases.map(\.rawValue) }

    static let keys = ["bus", "address", "size", "rotation", "rotated", "style", "contrast", "dc", "reset", "chip", "speed-hz", "care"]
    static let spiOnlyKeys = ["dc", "speed-hz"]
    /// The SPI wiring of an `@spi` shorthand: luma.oled's and most modules' documented Pi wiring.
    static let spiDataCommand: UInt32 = 24
    static let spiReset: UInt32 = 25

    var shorthandHelp: String {
        "an OLED as CONTROLLER[-WxH][@spi] (\(drivers.joined(separator: ", ")); e.g. ssd1327, sh1107-64x128, sh1106@spi: I2C at 0x3C, or SPI0 with D/C on GPIO 24 and reset on 25), or oledWxH for an SSD1306 (oled128x64, oled128x32, oled64x48)"
    }

    /// Whether `bus` names an SPI bus (a display on SPI) rather than an I2C one.
    static func isSPIBus(_ bus: String) -> Bool {
        bus.hasPrefix("spi") || bus.hasPrefix("/dev/spidev") || bus == "header-ce0" || bus == "header-ce1"
    }

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        let controller = OLEDController(rawValue: section.driver)!
        try section.allowOnly(Self.keys)
        let variant = controller.variant
        let written = try section.string("bus")
        let bus = try section.bus(display: true, "an I2C bus (header, i2c-1) or an SPI bus (header-ce0, spi0.0) with dc:")
        let chip = try section.chip()
        let reset = try section.line("reset")
        let link: DisplayLink
        if Self.isSPIBus(written ?? bus) {
            if section.has("address") {
                throw section.error("address", "an SPI display has no address (that is I2C); leave it out, or use an I2C bus (header, i2c-1)")
            }
            guard let dc = try section.line("dc") else {
                throw section.error("dc", at: "bus", "missing: a display on SPI needs its D/C line (dc: 24, or dc: pin 18)")
            }
            let speed = try section.int("speed-hz", 100_000...40_000_000) ?? Int(variant.maxSPIClockHz)
            guard speed <= variant.maxSPIClockHz else {
                throw section.error("speed-hz", "\(controller.rawValue) takes at most \(variant.maxSPIClockHz) Hz on SPI (its datasheet's serial clock cycle); leave speed-hz out for that")
            }
            link = .spi(bus: bus, chip: chip, dataCommand: dc, reset: reset, speedHz: UInt32(speed))
        } else {
            if let extra = Self.spiOnlyKeys.first(where: section.has) {
                throw section.error(extra, "is for a display on SPI, but bus \(bus) is I2C; remove \(extra), or set bus: to an SPI bus (header-ce0, spi0.0)")
            }
            link = .i2c(bus: bus, chip: chip, reset: reset)
        }
        let ring = try section.choice("style", [("bar", false), ("ring", true)]) ?? false
        return OLEDSettings(link: link, configuration: try configuration(section, controller), ring: ring)
    }

    private func configuration(_ section: DeviceSection, _ controller: OLEDController) throws(ConfigurationError) -> OLEDConfiguration {
        let variant = controller.variant
        let size = try section.string("size") ?? variant.modules[0].size
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw section.error("size", "\"\(size)\" is not WIDTHxHEIGHT; \(controller.rawValue) modules come in \(variant.sizes)") }
        guard variant.modules.contains(where: { $0.width == parts[0] && $0.height == parts[1] }) else {
            throw section.error("size", Self.wrongSize(controller, width: parts[0], height: parts[1]))
        }
        if section.has("rotation"), section.has("rotated") {
            throw section.error("rotated", "give rotation: or rotated:, not both (rotated: true is rotation: 180)")
        }
        var rotation = try section.choice("rotation", OLEDRotation.allCases.map { (String($0.rawValue), $0) }) ?? .upright
        if try section.bool("rotated") == true { rotation = .half }
        let address = try section.int("address", 0x03...0xFF).map { value throws(ConfigurationError) -> UInt8 in
            let addresses = variant.i2cAddresses.map { hexByte($0) }.joined(separator: " or ")
            if variant.i2cAddresses.contains(UInt8(value >> 1)), value > 0x77 {
                throw section.error("address", "\(hexByte(UInt8(value))) is the 8-bit form (the address shifted left, with the write bit) of \(hexByte(UInt8(value >> 1))); write address: \(hexByte(UInt8(value >> 1)).lowercased())")
            }
            guard variant.i2cAddresses.contains(UInt8(value)) else {
                throw section.error("address", "\(controller.rawValue) answers at \(addresses) (its SA0 pin), not \(hexByte(UInt8(value)))")
            }
            return UInt8(value)
        } ?? variant.i2cAddresses[0]
        let contrast = try section.int("contrast", 0...255).map(UInt8.init)
        do {
            return try OLEDConfiguration(controller: controller, width: parts[0], height: parts[1], address: address, rotation: rotation, contrast: contrast)
        } catch {
            throw section.error(section.has("rotation") ? "rotation" : "size", error.message)
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

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        let spi = name.hasSuffix("@spi")
        let bare = spi ? String(name.dropLast(4)) : name
        let parts = bare.split(separator: "-", maxSplits: 1)
        let controller: OLEDController
        var size: Substring?
        if bare.hasPrefix("oled"), bare.count > 4 {
            controller = .ssd1306
            size = bare.dropFirst(4)
        } else if let first = parts.first, let named = OLEDController(rawValue: String(first)) {
            controller = named
            size = parts.count == 2 ? parts[1] : nil
        } else {
            return nil
        }
        let variant = controller.variant
        let dimensions = size.map { $0.split(separator: "x").compactMap { Int($0) } } ?? [variant.modules[0].width, variant.modules[0].height]
        guard dimensions.count == 2, variant.modules.contains(where: { $0.width == dimensions[0] && $0.height == dimensions[1] }) else {
            throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(name)\": \(controller.rawValue) modules come in \(variant.sizes)")
        }
        let common = [("name", "oled"), ("driver", controller.rawValue), ("size", "\(dimensions[0])x\(dimensions[1])")]
        return spi ? common + [("bus", "spi0.0"), ("dc", "\(Self.spiDataCommand)"), ("reset", "\(Self.spiReset)")] : common + [("bus", "i2c-1")]
    }
}

/// An OLED display as configured.
package struct OLEDSettings: DeviceSettings {
    package var link: DisplayLink
    package var configuration: OLEDConfiguration
    /// Drawn as a ring rather than a bar.
    package var ring: Bool
    /// 25 frames/s: an update reaches the glass within 40 ms (+ its bus time), inside the 50 ms a
    /// remote update is promised (docs/performance.md); a changed region costs the bus a few ms.
    package let framesPerSecond = 25.0

    package var driver: String { configuration.controller.rawValue }

    package var claims: [DeviceClaim] {
        let what = "\(driver) \(configuration.module.size)"
        var claims: [DeviceClaim] = switch link {
        case .i2c(let bus, _, _): [.i2c(bus, address: configuration.address, alternatives: configuration.variant.i2cAddresses, what: what)]
        case .spi(let bus, _, _, _, _): [.spi(bus, what: what)]
        }
        let (chip, lines) = link.lines
        for (offset, role) in lines { claims.append(.line(offset, of: chip, role: role, key: role == "D/C" ? "dc" : "reset", what: what)) }
        return claims
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .display(try OLEDDisplay(on: buses, link: link, configuration: configuration), style: ring ? RingScreenStyle() : BarScreenStyle())
    }
}
