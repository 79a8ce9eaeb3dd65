import HeadwayCore
import HeadwayDevices

/// A colour TFT module's real driver (``/HeadwayDevices/TFTDisplay``) on its datasheet model, over
/// simulated buses: what a test or a benchmark drives, and the glass and bus statistics it reads.
public final class SimulatedTFT: Sendable {
    /// The driver.
    public let driver: TFTDisplay
    /// The controller's model on its module.
    public let chip: VirtualTFT
    /// The buses: the SPI bus, the GPIO chip with D/C, reset and backlight, a PWM channel.
    public let buses: SimulatedBuses
    /// The SPI bus the module is on.
    public let bus: VirtualSPIBus

    /// `configuration`'s module on spi0.0 of new simulated buses (bufsiz `bufsiz`, the SPI
    /// controller dividing as `clockModel`), D/C on GPIO 25, reset on 27 when `reset`, the
    /// backlight as `backlight` says, at `speedHz` (default: the controller's fastest).
    public init(
        configuration: TFTConfiguration, clock: ManualClock = ManualClock(), clockModel: SPIClockModel = .raspberryPi4, bufsiz: Int = 4096,
        speedHz: UInt32? = nil, reset: Bool = true, backlight: TFTBacklightConnection = .line(24, activeLow: false),
        resynchronisation: Resynchronisation = .onErrorsOnly
    ) throws(DeviceError) {
        guard let model = TFTModuleModel.twin(of: configuration.module) else {
            throw DeviceError(.unsupported, "the simulator has no model of the \(configuration.module.title)")
        }
        buses = SimulatedBuses(clock: clock, spiBufsiz: bufsiz)
        bus = buses.spiBus("spi0.0", clockModel: clockModel)
        let line: UInt32? = if case .line(let line, _) = backlight { line } else { nil }
        let pwm: VirtualPWMChannel? = if case .pwm(let name, _) = backlight { buses.pwmChannel(name) } else { nil }
        let twin = RigDevice.tft("tft", module: model, on: bus, lines: buses.gpioChip("header"), dataCommand: 25, reset: reset ? 27 : nil,
                                 backlight: line, pwm: pwm)
        guard case .panel(let panel) = twin.view, let chip = panel as? VirtualTFT else { preconditionFailure("the TFT twin is a panel") }
        self.chip = chip
        driver = try TFTDisplay(on: buses, bus: "spi0.0", clock: clockModel, speedHz: speedHz ?? configuration.controller.maxSPIHz, chip: "header",
                                dataCommand: 25, reset: reset ? 27 : nil, backlight: backlight, configuration: configuration,
                                resynchronisation: resynchronisation)
    }

    /// What the glass shows.
    public var glass: TFTGlass { chip.glass }
}
