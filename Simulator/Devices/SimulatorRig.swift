import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// A set of virtual devices the simulator shows together.
public struct SimulatorRig: Sendable {
    public var chains: [VirtualLEDChain]
    public var displays: [SimulatedOLED]

    public init(chains: [VirtualLEDChain], displays: [SimulatedOLED]) {
        self.chains = chains
        self.displays = displays
    }

    /// The I2C buses the rig's displays sit on (each once).
    public var i2cBuses: [VirtualI2CBus] {
        var buses: [VirtualI2CBus] = []
        for display in displays where !buses.contains(where: { $0 === display.bus }) { buses.append(display.bus) }
        return buses
    }

    /// Closes the current frame in every bus's statistics.
    public func endFrame() {
        for bus in i2cBuses { bus.endFrame() }
    }

    /// The default rig: a 24-LED ring, a 60-LED strip and an SSD1306 128x64 OLED at 0x3C on i2c-1.
    public static func standard(clock: any ProgressClock, i2cClockHz: Double = 100_000) -> SimulatorRig {
        let bus = VirtualI2CBus(name: "i2c-1", clockHz: i2cClockHz, clock: clock)
        // The configuration is a supported size and a valid address, so it cannot fail.
        let oled = try! OLEDConfiguration(controller: .ssd1306, width: 128, height: 64)
        return SimulatorRig(
            chains: [
                VirtualLEDChain(name: "ring", count: 24, layout: .ring()),
                VirtualLEDChain(name: "strip", count: 60, layout: .strip),
            ],
            displays: [SimulatedOLED(name: "oled", configuration: oled, bus: bus)]
        )
    }
}
