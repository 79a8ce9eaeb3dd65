import Headway
import HeadwayService
import HeadwaySimulator

/// Builds a configuration's devices as virtual chips on virtual buses, each behind its real driver,
/// and collects them into a rig the terminal can show.
final class SimulatorDeviceFactory: DeviceFactory {
    let clock: any ProgressClock
    /// The I2C buses' clock, for their wire time (the Pi's default 100 kHz).
    let i2cClockHz: Double
    private(set) var rig = SimulatorRig()
    private var i2c: [String: VirtualI2CBus] = [:]
    private var spi: [String: VirtualSPIBus] = [:]
    private var chips: [String: VirtualGPIOChip] = [:]

    init(clock: any ProgressClock, i2cClockHz: Double = 100_000) {
        self.clock = clock
        self.i2cClockHz = i2cClockHz
    }

    private func spiBus(_ name: String, _ model: SPIClockModel) -> VirtualSPIBus {
        let key = name.hasPrefix("/dev/spidev") ? "spi" + name.dropFirst(11) : name
        if let bus = spi[key] { return bus }
        let bus = VirtualSPIBus(name: key, clockModel: model, clock: clock)
        spi[key] = bus
        rig.spiBuses.append(bus)
        return bus
    }

    private func i2cBus(_ name: String) -> VirtualI2CBus {
        let key = name.hasPrefix("/dev/") ? String(name.dropFirst(5)) : name
        if let bus = i2c[key] { return bus }
        let bus = VirtualI2CBus(name: key, clockHz: i2cClockHz, clock: clock)
        i2c[key] = bus
        return bus
    }

    private func chip(_ label: String) -> VirtualGPIOChip {
        let key = label == "auto" ? "pinctrl-bcm2711" : label
        if let chip = chips[key] { return chip }
        let chip = VirtualGPIOChip(label: key, clock: clock)
        chips[key] = chip
        rig.gpioChips.append(chip)
        return chip
    }

    func ledChain(_ output: OutputConfiguration, spiClock: SPIClockModel) throws(DeviceError) -> any LEDChainDevice {
        let chain: SimulatedLEDChain
        switch output.device {
        case .ws2812(let bus, let count, let layout, let encoding, _, let order):
            chain = try .ws2812(name: output.name, count: count, layout: layout, bus: spiBus(bus, spiClock), encoding: encoding, order: order)
        case .apa102(let bus, let count, let layout):
            chain = try .apa102(name: output.name, count: count, layout: layout, bus: spiBus(bus, spiClock))
        case .apa102GPIO(let label, let data, let clock, let count):
            chain = try .apa102BitBanged(name: output.name, count: count, chip: chip(label), data: data, clock: clock)
        case .leds0(_, let count, let layout, let rgbw):
            chain = try .rp1(name: output.name, count: count, layout: layout, rgbw: rgbw)
        default:
            throw DeviceError(.unsupported, "\(output.name) is not an LED chain")
        }
        rig.chains.append(chain)
        return chain.driver
    }

    func display(_ output: OutputConfiguration) throws(DeviceError) -> any DisplayDevice {
        guard case .oled(let link, let configuration, _) = output.device else { throw DeviceError(.unsupported, "\(output.name) is not a display") }
        let oled: SimulatedOLED
        switch link {
        case .i2c(let bus, let label, let reset):
            let resetLine = try reset.map { offset throws(DeviceError) in try OLEDResetLine(chip: chip(label), offset: offset, delay: SimulatedDelay(clock: clock)) }
            oled = SimulatedOLED(name: output.name, configuration: configuration, bus: i2cBus(bus), reset: resetLine)
        case .spi(let bus, let label, let dataCommand, let reset, let speed):
            oled = try SimulatedOLED(
                name: output.name, configuration: configuration, bus: spiBus(bus, .exact), lines: chip(label), dataCommand: dataCommand, reset: reset,
                speedHz: speed, clock: clock)
        }
        rig.displays.append(oled)
        return oled.driver
    }

    func lines(_ output: OutputConfiguration) throws(DeviceError) -> any LineLevelsDevice {
        guard case .gpioLEDs(let label, let lines, let activeLow) = output.device else { throw DeviceError(.unsupported, "\(output.name) is not GPIO LEDs") }
        let leds = try SimulatedGPIOLEDs(name: output.name, chip: chip(label), offsets: lines, activeLow: activeLow)
        rig.lights.append(leds)
        return leds.driver
    }

    func button(_ button: ButtonConfiguration) throws(DeviceError) -> ButtonMonitor {
        let chip = chip(button.chip)
        rig.button = (chip, button.line)
        return try ButtonMonitor(
            chip: chip, offset: button.line, bias: button.bias, activeLow: button.activeLow, clock: clock,
            debouncer: ButtonDebouncer(longPress: button.longPress))
    }
}
