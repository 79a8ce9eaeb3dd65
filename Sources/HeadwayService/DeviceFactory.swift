import Headway

/// Makes the devices a configuration names. The daemon's factory opens Linux buses; the
/// simulator's puts virtual chips on virtual buses. Both return the same drivers.
public protocol DeviceFactory {
    /// The LED chain of `output`, its SPI clocked as `spiClock` divides.
    func ledChain(_ output: OutputConfiguration, spiClock: SPIClockModel) throws(DeviceError) -> any LEDChainDevice
    /// The display of `output`.
    func display(_ output: OutputConfiguration) throws(DeviceError) -> any DisplayDevice
    /// The GPIO LEDs of `output`.
    func lines(_ output: OutputConfiguration) throws(DeviceError) -> any LineLevelsDevice
    /// The button `button` describes, read through its line's edge events.
    func button(_ button: ButtonConfiguration) throws(DeviceError) -> ButtonMonitor
}

/// Turns a configuration into the service's outputs and buttons.
public enum OutputBuilder {
    /// Every output and button of `configuration`; a device that cannot be opened is reported with
    /// the line of the file that names it.
    public static func devices(for configuration: ServiceConfiguration, factory: any DeviceFactory) throws(ConfigurationError) -> ServiceDevices {
        let outputs = try outputs(for: configuration, factory: factory)
        var buttons: [ButtonMonitor] = []
        for button in configuration.buttons {
            do throws(DeviceError) {
                buttons.append(try factory.button(button))
            } catch {
                throw ConfigurationError(file: configuration.source, line: button.fileLine, key: "buttons", error.message)
            }
        }
        return ServiceDevices(outputs: outputs, buttons: buttons)
    }

    /// Every output of `configuration`, made by `factory` and drawn in its style.
    public static func outputs(for configuration: ServiceConfiguration, factory: any DeviceFactory) throws(ConfigurationError) -> [ServiceOutput] {
        var outputs: [ServiceOutput] = []
        for output in configuration.outputs {
            do throws(DeviceError) {
                outputs.append(try build(output, configuration: configuration, factory: factory))
            } catch {
                throw ConfigurationError(file: configuration.source, line: output.line, key: "outputs.\(output.name)", error.message)
            }
        }
        return outputs
    }

    private static func build(_ output: OutputConfiguration, configuration: ServiceConfiguration, factory: any DeviceFactory) throws(DeviceError) -> ServiceOutput {
        let quiet = output.quietHours.resolved(configuration.quietHours)
        switch output.device {
        case .ws2812(_, _, let layout, _, _, _), .apa102(_, _, let layout), .leds0(_, _, let layout, _):
            let chain = try factory.ledChain(output, spiClock: configuration.spiClock)
            return ServiceOutput(
                name: output.name, medium: .leds(LEDOutput(chain, layout: layout, pipeline: output.pipeline)), framesPerSecond: output.framesPerSecond ?? 50,
                quietHours: quiet, countdown: output.countdown)
        case .apa102GPIO:
            let chain = try factory.ledChain(output, spiClock: configuration.spiClock)
            return ServiceOutput(
                name: output.name, medium: .leds(LEDOutput(chain, layout: .strip, pipeline: output.pipeline)), framesPerSecond: output.framesPerSecond ?? 25,
                quietHours: quiet, countdown: output.countdown)
        case .oled(_, _, let ring):
            let display = try factory.display(output)
            let style: any DisplayStyle = ring ? RingScreenStyle() : BarScreenStyle()
            // 25 frames/s: an update reaches the glass within 40 ms (+ its bus time), inside the 50 ms
            // a remote update is promised (docs/performance.md); a changed region costs the bus a few ms.
            return ServiceOutput(
                name: output.name, medium: .display(DisplayOutput(display, style: style, care: output.care.display)), framesPerSecond: output.framesPerSecond ?? 25,
                quietHours: quiet, care: output.care, countdown: output.countdown)
        case .gpioLEDs:
            let lines = try factory.lines(output)
            return ServiceOutput(
                name: output.name, medium: .lights(LightsOutput(lines)), framesPerSecond: output.framesPerSecond ?? 25, quietHours: quiet,
                countdown: output.countdown)
        }
    }
}
