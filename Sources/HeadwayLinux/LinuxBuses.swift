import HeadwayCore
import HeadwayDevices

/// The buses of this Linux machine: i2c-dev, spidev, libgpiod chips and LED device files, each
/// opened once however many devices share it (two displays on one I2C bus, a display's D/C line
/// and a button on the header's chip).
public final class LinuxBuses: Buses {
    private var i2cBuses: [String: LinuxI2CBus] = [:]
    private var spiBuses: [String: LinuxSPIBus] = [:]
    private var chips: [String: GpiodChip] = [:]
    private var pwmChannels: [String: LinuxPWMChannel] = [:]
    public let delay: any Delay = LinuxDelay()
    public let clock: any ProgressClock = MonotonicClock()

    /// The machine's buses, none opened yet.
    public init() {}

    public func i2c(_ name: String) throws(DeviceError) -> any I2CBus {
        let path = BusName.i2cPath(name)
        if let bus = i2cBuses[path] { return bus }
        let bus = try LinuxI2CBus(path: path)
        i2cBuses[path] = bus
        return bus
    }

    public func spi(_ name: String, clock: SPIClockModel) throws(DeviceError) -> any SPIBus {
        let path = BusName.spiPath(name)
        if let bus = spiBuses[path] { return bus }
        let bus = try LinuxSPIBus(path: path, clockModel: clock)
        spiBuses[path] = bus
        return bus
    }

    /// A chip by path, name or label; `auto` is the Raspberry Pi's header chip.
    public func gpio(_ name: String) throws(DeviceError) -> any GPIOChip {
        if let chip = chips[name] { return chip }
        let chip = name == "auto" ? try GpiodChip.first(labelledAnyOf: GpiodChip.raspberryPiHeaderLabels) : try GpiodChip(name)
        chips[name] = chip
        return chip
    }

    public func ledDevice(_ path: String) throws(DeviceError) -> any LEDDeviceFile {
        try LinuxLEDDeviceFile(path: path)
    }

    /// A PWM channel of the kernel's sysfs interface (`pwmchip0/1`).
    public func pwm(_ name: String) throws(DeviceError) -> any PWMChannel {
        let key = BusName.pwmShort(name)
        if let channel = pwmChannels[key] { return channel }
        let channel = try LinuxPWMChannel(name: name)
        pwmChannels[key] = channel
        return channel
    }
}
