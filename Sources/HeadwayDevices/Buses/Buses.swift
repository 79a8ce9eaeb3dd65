import HeadwayCore

/// Where drivers find their buses: the kernel's device files on Linux (`LinuxBuses`), or the
/// simulator's virtual buses (`SimulatedBuses`). Every device family builds its driver over this
/// one seam, so a device is built by the same code on a Raspberry Pi and in the simulator, and
/// an option (a WS2812's `speed-hz`) cannot be honoured by one and dropped by the other.
///
/// Buses are named as the configuration names them after its `header` tokens are resolved:
/// `/dev/i2c-1`, `/dev/spidev0.0`, a GPIO chip by path, name or label (`auto`: the Raspberry Pi's
/// header chip), an LED device file by path. Asking twice for one name gives the same bus.
public protocol Buses: AnyObject {
    /// The I2C bus `name`.
    func i2c(_ name: String) throws(DeviceError) -> any I2CBus
    /// The SPI bus (one chip select) `name`, its controller dividing its clock as `clock` says.
    func spi(_ name: String, clock: SPIClockModel) throws(DeviceError) -> any SPIBus
    /// The GPIO chip `name`.
    func gpio(_ name: String) throws(DeviceError) -> any GPIOChip
    /// The LED device file at `path` (the Raspberry Pi 5's `/dev/leds0`).
    func ledDevice(_ path: String) throws(DeviceError) -> any LEDDeviceFile
    /// The PWM channel `name` (`pwmchip0/1`: ``BusName/pwm(_:)``).
    func pwm(_ name: String) throws(DeviceError) -> any PWMChannel
    /// How drivers wait between two steps of a bus protocol.
    var delay: any Delay { get }
    /// The clock drivers stamp events with (button edges, resynchronisation).
    var clock: any ProgressClock { get }
}

extension Buses {
    /// Buses without PWM channels refuse them.
    public func pwm(_ name: String) throws(DeviceError) -> any PWMChannel {
        throw DeviceError(.unsupported, "PWM channel \(name): these buses have no PWM channels")
    }
}

/// Bus names as people write them and as the kernel names the device files.
public enum BusName {
    /// `/dev/i2c-1` for `i2c-1` or `/dev/i2c-1`.
    public static func i2cPath(_ name: String) -> String { name.hasPrefix("/") ? name : "/dev/" + name }
    /// `/dev/spidev0.0` for `spi0.0`, `0.0` or `/dev/spidev0.0`.
    public static func spiPath(_ name: String) -> String {
        name.hasPrefix("/") ? name : "/dev/spidev" + (name.hasPrefix("spi") ? String(name.dropFirst(3)) : name)
    }
    /// `i2c-1` for `/dev/i2c-1` or `i2c-1`: the name in messages and captures.
    public static func i2cShort(_ name: String) -> String { name.hasPrefix("/dev/") ? String(name.dropFirst(5)) : name }
    /// `spi0.0` for `/dev/spidev0.0` or `spi0.0`: the name in messages and captures.
    public static func spiShort(_ name: String) -> String {
        name.hasPrefix("/dev/spidev") ? "spi" + name.dropFirst("/dev/spidev".count) : name
    }
}
