import HeadwayCore
import HeadwayDevices

/// The virtual devices the simulator shows together: the simulated buses they sit on, the twins
/// read back from them, and the rig's button.
public struct SimulatorRig: Sendable {
    /// The buses and chips the devices are on.
    public let buses: SimulatedBuses
    /// The devices, in the configuration's order.
    public var devices: [RigDevice]
    /// The button on the rig, if any: its chip and line.
    public var button: (chip: VirtualGPIOChip, offset: UInt32)?

    /// A rig of `devices` on `buses`.
    public init(buses: SimulatedBuses, devices: [RigDevice] = [], button: (chip: VirtualGPIOChip, offset: UInt32)? = nil) {
        self.buses = buses
        self.devices = devices
        self.button = button
    }

    /// The I2C buses the devices are on.
    public var i2cBuses: [VirtualI2CBus] { buses.i2cBuses }
    /// The SPI buses the devices are on.
    public var spiBuses: [VirtualSPIBus] { buses.spiBuses }
    /// The GPIO chips the devices are on.
    public var gpioChips: [VirtualGPIOChip] { buses.gpioChips }

    /// The device called `name`.
    public func device(named name: String) -> RigDevice? { devices.first { $0.name == name } }

    /// Closes the current frame in every bus's statistics.
    public func endFrame() { buses.endFrame() }

    /// Sends every bus's and chip's traffic to `capture`.
    public func capture(to capture: BusCapture?) { buses.capture(to: capture) }

    /// Everything the twins found wrong, each named by its device.
    public var problems: [String] { devices.flatMap { device in device.problems.map { "\(device.name): \($0)" } } }
}
