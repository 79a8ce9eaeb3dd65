import Headway

/// Turns a configuration into the service's outputs and buttons, each built by its family over
/// `buses` (the Linux machine's, or the simulator's).
public enum OutputBuilder {
    /// Called with each output before its driver is built, and with each button: the simulator
    /// attaches the virtual twins here.
    public typealias Attach = (OutputConfiguration) throws(DeviceError) -> Void

    /// Every output and button of `configuration`; a device that cannot be opened is reported with
    /// the line of the file that names it.
    public static func devices(
        for configuration: ServiceConfiguration, buses: any Buses, attach: Attach = { _ throws(DeviceError) in }
    ) throws(ConfigurationError) -> ServiceDevices {
        let outputs = try outputs(for: configuration, buses: buses, attach: attach)
        var buttons: [ButtonMonitor] = []
        for button in configuration.buttons {
            do throws(DeviceError) {
                buttons.append(try button.build(on: buses))
            } catch {
                throw ConfigurationError(file: configuration.source, line: button.fileLine, key: "buttons", error.message)
            }
        }
        return ServiceDevices(outputs: outputs, buttons: buttons)
    }

    /// Every output of `configuration`, built over `buses` and drawn in its style.
    public static func outputs(
        for configuration: ServiceConfiguration, buses: any Buses, attach: Attach = { _ throws(DeviceError) in }
    ) throws(ConfigurationError) -> [ServiceOutput] {
        var outputs: [ServiceOutput] = []
        for output in configuration.outputs {
            do throws(DeviceError) {
                try attach(output)
                outputs.append(try build(output, configuration: configuration, buses: buses))
            } catch {
                throw ConfigurationError(file: configuration.source, line: configuration.fileLine(output.line), key: "outputs.\(output.name)", error.message)
            }
        }
        return outputs
    }

    private static func build(_ output: OutputConfiguration, configuration: ServiceConfiguration, buses: any Buses) throws(DeviceError) -> ServiceOutput {
        let quiet = output.quietHours.resolved(configuration.quietHours)
        let rate = output.framesPerSecond ?? output.device.framesPerSecond
        switch try output.device.build(on: buses, spiClock: configuration.spiClock) {
        case .leds(let chain, let layout):
            return ServiceOutput(
                name: output.name, medium: .leds(LEDOutput(chain, layout: layout, pipeline: output.pipeline)), framesPerSecond: rate, quietHours: quiet,
                countdown: output.countdown)
        case .display(let display, let style):
            return ServiceOutput(
                name: output.name, medium: .display(DisplayOutput(display, style: style, care: output.care.display)), framesPerSecond: rate,
                quietHours: quiet, care: output.care, countdown: output.countdown)
        case .lights(let lines, let style):
            return ServiceOutput(name: output.name, medium: .lights(LightsOutput(lines, style: style)), framesPerSecond: rate, quietHours: quiet, countdown: output.countdown)
        case .matrix(let matrix):
            return ServiceOutput(
                name: output.name, medium: .matrix(MatrixOutput(matrix, pipeline: output.pipeline)), framesPerSecond: rate, quietHours: quiet, countdown: output.countdown)
        }
    }
}
