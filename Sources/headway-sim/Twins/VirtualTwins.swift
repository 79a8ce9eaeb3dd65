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

    static let rows: [any TwinRow] = [
        Row(WS2812Settings.self) { s, name, buses, clock in
            .ws2812(name, count: s.chain.count, order: s.chain.order, layout: s.layout, on: buses.spiBus(s.bus, clockModel: clock))
        },
        Row(APA102Settings.self) { s, name, buses, clock in .apa102(name, count: s.count, layout: s.layout, on: buses.spiBus(s.bus, clockModel: clock)) },
        Row(APA102GPIOSettings.self) { s, name, buses, _ in
            .apa102(name, count: s.count, layout: s.layout, on: buses.gpioChip(s.chip), data: s.data, clock: s.clock)
        },
        Row(RP1LEDSettings.self) { s, name, buses, _ in .leds0(name, count: s.count, layout: s.layout, path: s.path, on: buses) },
        Row(GPIOLEDsSettings.self) { s, name, buses, _ in .lamps(name, lines: s.lines, activeLow: s.activeLow, on: buses.gpioChip(s.chip)) },
        Row(OLEDSettings.self) { s, name, buses, _ in
            let module = s.configuration.module
            switch s.link {
            case .i2c(let bus, _, _):
                return .oled(name, controller: s.configuration.controller, width: module.width, height: module.height, address: s.configuration.address, on: buses.i2cBus(bus))
            case .spi(let bus, let chip, let dc, let reset, _):
                return .oled(
                    name, controller: s.configuration.controller, width: module.width, height: module.height, on: buses.spiBus(bus, clockModel: .exact),
                    lines: buses.gpioChip(chip), dataCommand: dc, reset: reset)
            }
        },
    ]

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
