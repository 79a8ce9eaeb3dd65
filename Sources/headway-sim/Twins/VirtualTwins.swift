import Headway
import HeadwayService
import HeadwaySimulator

/// The simulator's table of virtual twins: for each device family of the catalogue, the datasheet
/// model attached on the simulated buses where that family's driver will write, read back for the
/// terminal and snapshots. The twins never build a driver; the catalogue's row does, over the same
/// buses, exactly as on Linux.
enum VirtualTwins {
    /// One row: the twin of the family whose settings are `Settings`.
    struct Row<Settings: DeviceSettings>: TwinRow {
        let attach: @Sendable (Settings, String, SimulatedBuses, SPIClockModel) -> RigDevice

        init(_: Settings.Type, _ attach: @escaping @Sendable (Settings, String, SimulatedBuses, SPIClockModel) -> RigDevice) {
            self.attach = attach
        }

        func attach(_ settings: any DeviceSettings, name: String, on buses: SimulatedBuses, spiClock: SPIClockModel) -> RigDevice? {
            (settings as? Settings).map { attach($0, name, buses, spiClock) }
        }
    }

    /// One row per family of the device catalogue, in its order.
    static let rows: [any TwinRow] = [ws2812, apa102, apa102GPIO, rp1LEDs, oled, tft, gpioLEDs, ht16k33, is31fl3731, max7219]

    /// The twin of `output`, attached on `buses`.
    static func attach(_ output: OutputConfiguration, on buses: SimulatedBuses, spiClock: SPIClockModel) throws(DeviceError) -> RigDevice {
        for row in rows {
            if let device = row.attach(output.device, name: output.name, on: buses, spiClock: spiClock) { return device }
        }
        throw DeviceError(.unsupported, "the simulator has no virtual twin of \(output.device.driver) yet")
    }
}

/// A row of the twin table, whatever its family.
protocol TwinRow: Sendable {
    /// The twin of `settings`, or nil when they are another family's.
    func attach(_ settings: any DeviceSettings, name: String, on buses: SimulatedBuses, spiClock: SPIClockModel) -> RigDevice?
}
