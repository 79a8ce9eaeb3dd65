import HeadwayCore
import HeadwayDevices
import Synchronization

/// The simulator's side of the ``/HeadwayDevices/Buses`` seam: virtual I2C and SPI buses, virtual
/// GPIO chips and LED device files, made on first use and named as on a Raspberry Pi 4. Virtual
/// twins are attached to them first; the drivers then open them as they open the kernel's on
/// Linux, through the same device catalogue.
public final class SimulatedBuses: Buses, Sendable {
    /// The simulation's clock: bus transfers are stamped on it, delays move it.
    public let clock: any ProgressClock
    /// The I2C buses' clock, for their wire time (the Pi's default 100 kHz).
    public let i2cClockHz: Double
    /// The largest SPI message (spidev's `bufsiz`).
    public let spiBufsiz: Int

    private struct State {
        var i2c: [VirtualI2CBus] = []
        var spi: [VirtualSPIBus] = []
        var chips: [VirtualGPIOChip] = []
        var files: [VirtualLEDDeviceFile] = []
        var pwm: [VirtualPWMChannel] = []
    }

    private let state = Mutex(State())

    /// Buses on `clock`, I2C clocked at `i2cClockHz`, SPI messages up to `spiBufsiz` bytes.
    public init(clock: any ProgressClock, i2cClockHz: Double = 100_000, spiBufsiz: Int = 4096) {
        self.clock = clock
        self.i2cClockHz = i2cClockHz
        self.spiBufsiz = spiBufsiz
    }

    /// Buses holding `bus`, made elsewhere (a test's own).
    public convenience init(clock: any ProgressClock, adopting bus: VirtualI2CBus) {
        self.init(clock: clock, i2cClockHz: bus.clockHz)
        state.withLock { $0.i2c.append(bus) }
    }

    /// Buses holding `bus` and `chip`, made elsewhere (a test's own).
    public convenience init(clock: any ProgressClock, adopting bus: VirtualSPIBus, _ chip: VirtualGPIOChip) {
        self.init(clock: clock, spiBufsiz: bus.maxTransferLength)
        state.withLock {
            $0.spi.append(bus)
            $0.chips.append(chip)
        }
    }

    public var delay: any Delay { SimulatedDelay(clock: clock) }

    /// The virtual I2C bus `name` (`i2c-1` or `/dev/i2c-1`).
    public func i2cBus(_ name: String) -> VirtualI2CBus {
        let short = BusName.i2cShort(name)
        return state.withLock { state in
            if let bus = state.i2c.first(where: { $0.name == short }) { return bus }
            let bus = VirtualI2CBus(name: short, clockHz: i2cClockHz, clock: clock)
            state.i2c.append(bus)
            return bus
        }
    }

    /// The virtual SPI bus `name` (`spi0.0` or `/dev/spidev0.0`), its controller dividing as
    /// `clockModel` says (the first user sets it, as the first open of a spidev node does).
    public func spiBus(_ name: String, clockModel: SPIClockModel = .raspberryPi4) -> VirtualSPIBus {
        let short = BusName.spiShort(name)
        return state.withLock { state in
            if let bus = state.spi.first(where: { $0.name == short }) { return bus }
            let bus = VirtualSPIBus(name: short, bufsiz: spiBufsiz, clockModel: clockModel, clock: clock)
            state.spi.append(bus)
            return bus
        }
    }

    /// The virtual GPIO chip `name`; `auto` and `header` are the Raspberry Pi 4's header chip.
    public func gpioChip(_ name: String) -> VirtualGPIOChip {
        let label = name == "auto" || name == "header" ? "pinctrl-bcm2711" : name
        return state.withLock { state in
            if let chip = state.chips.first(where: { $0.label == label || $0.name == label }) { return chip }
            let chip = VirtualGPIOChip(label: label, clock: clock)
            state.chips.append(chip)
            return chip
        }
    }

    /// The virtual PWM channel `name` (`pwmchip0/1`), made on first use.
    public func pwmChannel(_ name: String) -> VirtualPWMChannel {
        let short = BusName.pwmShort(name)
        return state.withLock { state in
            if let channel = state.pwm.first(where: { $0.name == short }) { return channel }
            let channel = VirtualPWMChannel(name: short, clock: clock)
            state.pwm.append(channel)
            return channel
        }
    }

    /// Puts `file` where a driver opening its path finds it.
    public func attach(_ file: VirtualLEDDeviceFile) { state.withLock { $0.files.append(file) } }

    public func i2c(_ name: String) throws(DeviceError) -> any I2CBus { i2cBus(name) }

    public func spi(_ name: String, clock: SPIClockModel) throws(DeviceError) -> any SPIBus { spiBus(name, clockModel: clock) }

    public func gpio(_ name: String) throws(DeviceError) -> any GPIOChip { gpioChip(name) }

    public func pwm(_ name: String) throws(DeviceError) -> any PWMChannel {
        guard BusName.pwm(name) != nil else {
            throw DeviceError(.unsupported, "\(name) is not a PWM channel; write it as pwmchipN/M")
        }
        return pwmChannel(name)
    }

    public func ledDevice(_ path: String) throws(DeviceError) -> any LEDDeviceFile {
        guard let file = state.withLock({ $0.files.first { $0.path == path } }) else {
            throw DeviceError(.notPresent, "\(path) does not exist (no virtual LED device is attached there)", errno: 2)
        }
        return file
    }

    /// The I2C buses made so far.
    public var i2cBuses: [VirtualI2CBus] { state.withLock { $0.i2c } }
    /// The SPI buses made so far.
    public var spiBuses: [VirtualSPIBus] { state.withLock { $0.spi } }
    /// The GPIO chips made so far.
    public var gpioChips: [VirtualGPIOChip] { state.withLock { $0.chips } }
    /// The PWM channels made so far.
    public var pwmChannels: [VirtualPWMChannel] { state.withLock { $0.pwm } }

    /// Closes the current frame in every bus's and chip's statistics.
    public func endFrame() {
        for bus in i2cBuses { bus.endFrame() }
        for bus in spiBuses { bus.endFrame() }
        for chip in gpioChips { chip.endFrame() }
    }

    /// Sends every bus's and chip's traffic to `capture` (nil: stops).
    public func capture(to capture: BusCapture?) {
        for bus in i2cBuses { bus.capture(to: capture) }
        for bus in spiBuses { bus.capture(to: capture) }
        for chip in gpioChips { chip.capture(to: capture) }
        for channel in pwmChannels { channel.capture(to: capture) }
    }
}
