import Headway

/// Colour TFTs on 4-wire SPI: the ST7789 (V, V2, VW), ST7735 (S, R and its tabs) and ILI9341, each
/// on a module of ``/HeadwayDevices/TFTModule/catalogue`` (its glass's place in the frame memory,
/// its colour order and inversion), with a D/C line, a reset line where the module brings it out,
/// and a backlight switched on a GPIO line or dimmed by a PWM channel.
struct TFTFamily: DeviceFamily {
    var drivers: [String] { HeadwayDevices.TFTFamily.allCases.map(\.rawValue) }

    static let keys = [
        "bus", "module", "size", "rotation", "dc", "reset", "backlight", "backlight-pwm", "backlight-active-low", "chip", "speed-hz",
        "style", "care", "pixel-format", "invert", "colour-order",
    ]
    /// The wiring of a bare `st7789`, `st7735` or `ili9341` shorthand: Waveshare's LCD HATs' (D/C
    /// GPIO 25, RES# 27, backlight 24; frogCaller/1.3inch@7935fb2:config.py).
    static let shorthandWiring = [("bus", "spi0.0"), ("dc", "25"), ("reset", "27"), ("backlight", "24")]

    var shorthandHelp: String {
        "a TFT as st7789|st7735|ili9341[-WxH] (SPI0 CE0, D/C GPIO 25, reset 27, backlight 24) or by module (\(TFTModule.catalogue.map(\.name).joined(separator: ", ")))"
    }

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        let family = HeadwayDevices.TFTFamily(rawValue: section.driver)!
        try section.allowOnly(Self.keys)
        let bus = try section.bus(display: true, "an SPI bus: header-ce0 or header-ce1, spi0.0 or spi0.1")
        guard OLEDFamily.isSPIBus(bus) else {
            throw section.error("bus", "\(family) modules are on SPI, not \(bus); use header-ce0 or header-ce1 (spi0.0, spi0.1)")
        }
        guard let dc = try section.line("dc") else {
            throw section.error("dc", at: "bus", "missing: a TFT on SPI needs its D/C line (dc: 25, or dc: pin 22)")
        }
        let module = try module(section, family)
        let transposed = try transposed(section, module)
        let rotation = try section.choice("rotation", TFTRotation.allCases.map { (String($0.rawValue), $0) }) ?? (transposed ? .quarter : .upright)
        let speed = try section.int("speed-hz", 100_000...200_000_000) ?? Int(module.controller.maxSPIHz)
        guard speed <= module.controller.maxSPIHz else {
            throw section.error("speed-hz", "the \(module.title)'s \(module.controller) takes at most \(module.controller.maxSPIHz) Hz (its datasheet's serial write cycle); leave speed-hz out for that")
        }
        let format = try section.choice("pixel-format", [("rgb565", PixelFormat.rgb565), ("rgb666", .rgb666)]) ?? .rgb565
        let bgr = try section.choice("colour-order", [("rgb", false), ("bgr", true)])
        let inverted = try section.bool("invert")
        let configuration: TFTConfiguration
        do throws(DeviceError) {
            configuration = try TFTConfiguration(module: module, rotation: rotation, pixelFormat: format, inverted: inverted, bgr: bgr)
        } catch {
            throw section.error("rotation", error.message)
        }
        let backlight: TFTBacklightConnection
        let line = try section.line("backlight")
        if let pwm = try section.string("backlight-pwm") {
            guard BusName.pwm(pwm) != nil else {
                throw section.error("backlight-pwm", "\"\(pwm)\" is not a PWM channel; write pwmchipN/M (the chip in /sys/class/pwm and its channel, e.g. pwmchip0/1 for GPIO 13 under dtoverlay=pwm,pin=13,func=4)")
            }
            if section.has("backlight-active-low") {
                throw section.error("backlight-active-low", "is for a backlight switched on a GPIO line; a PWM backlight's duty cycle is its light")
            }
            backlight = .pwm(BusName.pwmShort(pwm), frequencyHz: TFTBacklight.pwmFrequencyHz)
        } else if let line {
            backlight = .line(line, activeLow: try section.bool("backlight-active-low") ?? false)
        } else {
            backlight = .none
        }
        let ring = try section.choice("style", [("bar", false), ("ring", true)]) ?? false
        return TFTSettings(driver: section.driver, bus: bus, chip: try section.chip(), dataCommand: dc, reset: try section.line("reset"),
                           backlight: backlight, backlightLine: line, speedHz: UInt32(speed), configuration: configuration, ring: ring)
    }

    /// The module: `module:` by name, else the one sold most in `size:` for the driver.
    private func module(_ section: DeviceSection, _ family: HeadwayDevices.TFTFamily) throws(ConfigurationError) -> TFTModule {
        let sizes = TFTModule.sizes(of: family).joined(separator: ", ")
        if let name = try section.string("module") {
            guard let module = TFTModule.named(name) else {
                throw section.error("module", "\"\(name)\" is not a module Headway knows; one of \(TFTModule.catalogue.filter { $0.controller.family == family }.map(\.name).joined(separator: ", "))")
            }
            guard module.controller.family == family else {
                throw section.error("module", "the \(module.title) carries an \(module.controller), not an \(family): set driver: \(module.controller.family.rawValue)")
            }
            if let size = try section.string("size"), let parts = Self.dimensions(size),
               !(parts == (module.width, module.height) || parts == (module.height, module.width)) {
                throw section.error("size", "the \(module.title) is \(module.size), not \(size); leave size out")
            }
            return module
        }
        guard let size = try section.string("size") else {
            throw section.error("size", at: "driver", "missing: \(family) modules come in \(sizes); give size: (or module:, one of \(TFTModule.catalogue.filter { $0.controller.family == family }.map(\.name).joined(separator: ", ")))")
        }
        guard let parts = Self.dimensions(size) else { throw section.error("size", "\"\(size)\" is not WIDTHxHEIGHT; \(family) modules come in \(sizes)") }
        guard let module = TFTModule.standard(for: family, width: parts.0, height: parts.1) else {
            throw section.error("size", Self.wrongSize(family, width: parts.0, height: parts.1))
        }
        return module
    }

    /// Whether `size:` gives the module's glass the other way round (a 160x80 module sold upright
    /// as 80x160): then it is shown turned a quarter, unless `rotation:` says otherwise.
    private func transposed(_ section: DeviceSection, _ module: TFTModule) throws(ConfigurationError) -> Bool {
        guard let size = try section.string("size"), let parts = Self.dimensions(size) else { return false }
        return module.width != module.height && parts == (module.height, module.width)
    }

    static func dimensions(_ size: String) -> (Int, Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// Says what sizes the family comes in and, when another controller comes in the size asked
    /// for (a 128x64 module is an OLED), which driver to set.
    static func wrongSize(_ family: HeadwayDevices.TFTFamily, width: Int, height: Int) -> String {
        var text = "\(family) modules come in \(TFTModule.sizes(of: family).joined(separator: ", ")), not \(width)x\(height)"
        let tfts = HeadwayDevices.TFTFamily.allCases.filter { $0 != family && TFTModule.standard(for: $0, width: width, height: height) != nil }
        let oleds = OLEDController.allCases.filter { controller in controller.variant.modules.contains { $0.width == width && $0.height == height } }
        let names = tfts.map(\.rawValue) + oleds.map { "\($0.rawValue) (an OLED)" }
        if !names.isEmpty { text += "; \(width)x\(height) modules are driven by \(names.joined(separator: " or ")): set driver: accordingly" }
        return text
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        if let module = TFTModule.named(name) {
            return [("name", "tft"), ("driver", module.controller.family.rawValue), ("module", module.name)] + Self.shorthandWiring
        }
        let parts = name.split(separator: "-", maxSplits: 1)
        guard let first = parts.first, let family = HeadwayDevices.TFTFamily(rawValue: String(first)) else { return nil }
        let size: String
        if parts.count == 2 {
            size = String(parts[1])
        } else {
            guard let standard = TFTModule.catalogue.first(where: { $0.controller.family == family }) else { return nil }
            size = standard.size
        }
        guard let dimensions = Self.dimensions(size), TFTModule.standard(for: family, width: dimensions.0, height: dimensions.1) != nil else {
            throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(name)\": \(family) modules come in \(TFTModule.sizes(of: family).joined(separator: ", "))")
        }
        return [("name", "tft"), ("driver", family.rawValue), ("size", size)] + Self.shorthandWiring
    }
}

/// A colour TFT as configured.
package struct TFTSettings: DeviceSettings {
    package let driver: String
    package var bus: String
    package var chip: String
    package var dataCommand: UInt32
    package var reset: UInt32?
    package var backlight: TFTBacklightConnection
    /// The backlight's GPIO line as configured (also when a PWM channel drives it: the pin the
    /// overlay gives the PWM function).
    package var backlightLine: UInt32?
    package var speedHz: UInt32
    package var configuration: TFTConfiguration
    /// Drawn as a ring rather than a bar.
    package var ring: Bool
    /// 30 frames/s: a spinner turns smoothly, and a frame of changed rectangles costs a few ms of
    /// the bus (docs/performance.md).
    package let framesPerSecond = 30.0

    package var claims: [DeviceClaim] {
        let what = "\(driver) \(configuration.module.size)"
        var claims: [DeviceClaim] = [.spi(bus, what: what), .line(dataCommand, of: chip, role: "D/C", key: "dc", what: what)]
        if let reset { claims.append(.line(reset, of: chip, role: "reset", key: "reset", what: what)) }
        switch backlight {
        case .none: break
        case .line(let line, _): claims.append(.line(line, of: chip, role: "backlight", key: "backlight", what: what))
        case .pwm(let name, _):
            let chipName = BusName.pwm(name)?.chip ?? name
            claims.append(DeviceClaim(.file("/sys/class/pwm/\(chipName)", madeBy: "the pin's PWM overlay makes it (dtoverlay=pwm,pin=13,func=4 in config.txt for GPIO 13, then reboot)"),
                                      role: "backlight", key: "backlight-pwm", what: what))
        }
        return claims
    }

    /// Overlays that bind a kernel display driver (fbtft, panel-mipi-dbi) to SPI0: with one loaded
    /// the bus is the kernel's and /dev/spidev0.N is gone. raspberrypi/linux
    /// arch/arm/boot/dts/overlays (adafruit18, adafruit-st7735r, fbtft, mipi-dbi-spi, pitft22,
    /// pitft28-*, pitft35-resistive, piscreen, rpi-display, tinylcd35, hy28a/b, mz61581);
    /// adafruit/Raspberry-Pi-Installer-Scripts@3021821:overlays/ (minipitft13, minipitft114).
    static let displayOverlays = [
        "adafruit18", "adafruit-st7735r", "fbtft", "mipi-dbi-spi", "pitft22", "pitft28-capacitive", "pitft28-resistive", "pitft35-resistive",
        "piscreen", "piscreen2r", "rpi-display", "tinylcd35", "hy28a", "hy28b", "hy28b-2017", "mz61581", "minipitft13", "minipitft114",
        "drm-minipitft13", "drm-minipitft114",
    ]

    package func findings(_ machine: DoctorMachine) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if let firmware = machine.firmware {
            for overlay in Self.displayOverlays where firmware.hasOverlay(overlay) {
                findings.append(DoctorFinding("tft-overlay", .fail,
                    "\(machine.output): \(machine.configFile) loads dtoverlay=\(overlay), which gives SPI0 to a kernel display driver (fbtft or panel-mipi-dbi): /dev/spidev0.x goes away and Headway cannot drive the \(configuration.module.title)",
                    fix: "remove the `dtoverlay=\(overlay)` line (keep `dtparam=spi=on`), then reboot"))
            }
            if case .pwm = backlight, !firmware.hasOverlay("pwm"), !firmware.hasOverlay("pwm-2chan"), !firmware.hasOverlay("pwm-pio") {
                findings.append(DoctorFinding("backlight-pwm", .fail, "\(machine.output): the backlight is dimmed by PWM, but \(machine.configFile) loads no PWM overlay",
                    fix: "add `dtoverlay=pwm,pin=\(backlightLine ?? 13),func=4` (GPIO 12/13 on a Pi 0–4; /boot/firmware/overlays/README lists the others), then reboot — or set backlight: \(backlightLine ?? 13) without backlight-pwm, switched on and off"))
            }
        }
        let device = "/sys/bus/spi/devices/\(BusName.spiShort(bus))"
        if let driver = machine.files.linkName(device + "/driver"), driver != "spidev" {
            findings.append(DoctorFinding("tft-spi", .fail, "\(machine.output): \(BusName.spiShort(bus)) is held by the kernel driver \(DisplayText.sanitised(driver)), not spidev",
                fix: "remove the dtoverlay that binds \(DisplayText.sanitised(driver)) from \(machine.configFile) (a display overlay such as \(Self.displayOverlays.prefix(3).joined(separator: ", "))), then reboot"))
        }
        return findings
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        let display = try TFTDisplay(on: buses, bus: bus, clock: spiClock, speedHz: speedHz, chip: chip, dataCommand: dataCommand, reset: reset,
                                     backlight: backlight, configuration: configuration)
        return .display(display, style: ring ? RingScreenStyle() : BarScreenStyle())
    }
}
