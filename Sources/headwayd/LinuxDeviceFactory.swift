import Headway
import HeadwayLinux
import HeadwayService

/// Opens the devices a configuration names on the real Linux buses.
final class LinuxDeviceFactory: DeviceFactory {
    private var i2c: [String: LinuxI2CBus] = [:]
    private var spi: [String: LinuxSPIBus] = [:]
    private var chips: [String: GpiodChip] = [:]

    /// `spi0.0` or `/dev/spidev0.0`.
    private func spiBus(_ name: String, _ model: SPIClockModel) throws(DeviceError) -> LinuxSPIBus {
        let path = name.hasPrefix("/") ? name : "/dev/spidev" + (name.hasPrefix("spi") ? String(name.dropFirst(3)) : name)
        if let bus = spi[path] { return bus }
        let bus = try LinuxSPIBus(path: path, clockModel: model)
        spi[path] = bus
        return bus
    }

    /// `i2c-1` or `/dev/i2c-1`.
    private func i2cBus(_ name: String) throws(DeviceError) -> LinuxI2CBus {
        let path = name.hasPrefix("/") ? name : "/dev/" + name
        if let bus = i2c[path] { return bus }
        let bus = try LinuxI2CBus(path: path)
        i2c[path] = bus
        return bus
    }

    /// A chip by path, name or label; `auto` is the Raspberry Pi's header chip.
    private func chip(_ which: String) throws(DeviceError) -> GpiodChip {
        if let chip = chips[which] { return chip }
        let chip = which == "auto" ? try GpiodChip.first(labelledAnyOf: GpiodChip.raspberryPiHeaderLabels) : try GpiodChip(which)
        chips[which] = chip
        return chip
    }

    func ledChain(_ output: OutputConfiguration, spiClock: SPIClockModel) throws(DeviceError) -> any LEDChainDevice {
        switch output.device {
        case .ws2812(let bus, let count, _, let encoding, let speed, let order):
            return try WS2812Strip(bus: try spiBus(bus, spiClock), configuration: .init(count: count, order: order, encoding: encoding, speedHz: speed))
        case .apa102(let bus, let count, _):
            return try APA102Strip(bus: try spiBus(bus, spiClock), count: count)
        case .apa102GPIO(let label, let data, let clock, let count):
            return try APA102BitBang(chip: try chip(label), data: data, clock: clock, count: count)
        case .leds0(let path, let count, _, let rgbw):
            return try RP1LEDStrip(file: try LinuxLEDDeviceFile(path: path), count: count, rgbw: rgbw)
        default:
            throw DeviceError(.unsupported, "\(output.name) is not an LED chain")
        }
    }

    func display(_ output: OutputConfiguration) throws(DeviceError) -> any DisplayDevice {
        guard case .oled(let link, let configuration, _) = output.device else { throw DeviceError(.unsupported, "\(output.name) is not a display") }
        switch link {
        case .i2c(let bus, let label, let reset):
            let resetLine = try reset.map { offset throws(DeviceError) in try OLEDResetLine(chip: try chip(label), offset: offset, delay: LinuxDelay()) }
            let interface = I2COLEDInterface(bus: try i2cBus(bus), address: configuration.address, reset: resetLine)
            return OLEDDisplay(interface: interface, configuration: configuration)
        case .spi(let bus, let label, let dataCommand, let reset, let speed):
            let interface = try SPIOLEDInterface(
                bus: try spiBus(bus, .exact), speedHz: speed, chip: try chip(label), dataCommand: dataCommand, reset: reset, delay: LinuxDelay())
            return OLEDDisplay(interface: interface, configuration: configuration)
        }
    }

    func lines(_ output: OutputConfiguration) throws(DeviceError) -> any LineLevelsDevice {
        guard case .gpioLEDs(let label, let lines, let activeLow) = output.device else { throw DeviceError(.unsupported, "\(output.name) is not GPIO LEDs") }
        return try GPIOLEDs(chip: try chip(label), offsets: lines, activeLow: activeLow)
    }

    func button(_ button: ButtonConfiguration) throws(DeviceError) -> ButtonMonitor {
        try ButtonMonitor(
            chip: try chip(button.chip), offset: button.line, bias: button.bias, activeLow: button.activeLow, clock: MonotonicClock(),
            debouncer: ButtonDebouncer(longPress: button.longPress))
    }
}
