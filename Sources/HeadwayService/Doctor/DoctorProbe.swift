import Headway

/// What `headwayd doctor` asks the running machine's devices: the GPIO chips, who holds a line,
/// whether an I2C address answers. headwayd answers through HeadwayLinux; nothing is requested,
/// driven or written. Without a probe (`--root`: a mounted card, a fixture) these checks are
/// skipped and said to be.
public protocol DoctorProbe {
    /// The machine's GPIO chips.
    func gpioChips() -> [GPIOChipSummary]
    /// Who holds `line` of the chip at `path`: nil when free, else the consumer ("" for none).
    func holder(chip path: String, line: UInt32) throws(DeviceError) -> String?
    /// Whether something answers at `address` on the I2C bus at `path`.
    func i2c(bus path: String, address: UInt8) throws(DeviceError) -> I2CPresence
    /// What systemd says of these units (and the timers that start them), asked over the system
    /// bus as this user.
    func units(_ names: [String]) -> UnitLookup
}

extension DoctorProbe {
    public func units(_ names: [String]) -> UnitLookup { SystemdUnits.lookUp(names) }
}

/// What doctor learned of the watched units.
public enum UnitLookup: Sendable, Equatable {
    /// systemd could not be asked, and why.
    case unavailable(String)
    /// Each unit's state, the timers that start them included.
    case states([UnitState])
}

/// A GPIO chip as `gpiodetect` lists it.
public struct GPIOChipSummary: Sendable, Equatable {
    /// Its device node.
    public var path: String
    /// Its name (`gpiochip0`).
    public var name: String
    /// Its label (`pinctrl-bcm2711`).
    public var label: String
    /// How many lines it has.
    public var lines: Int

    /// A chip summary of each fact given.
    public init(path: String, name: String, label: String, lines: Int) {
        self.path = path
        self.name = name
        self.label = label
        self.lines = lines
    }
}

/// What an I2C address said when probed.
public enum I2CPresence: Sendable, Equatable {
    /// A device acknowledged its address.
    case acknowledged
    /// Nothing acknowledged.
    case silent
    /// A kernel driver owns the address (`UU` in i2cdetect).
    case ownedByKernelDriver
}
