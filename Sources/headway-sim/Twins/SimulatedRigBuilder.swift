import Headway
import HeadwayService
import HeadwaySimulator

/// A configuration's devices as the simulator has them: each output's twin attached on simulated
/// buses, then its real driver built by the device catalogue over those buses (as headwayd builds
/// it over Linux's), and the rig's button on its virtual line.
enum SimulatedRigBuilder {
    /// The rig and the service's devices for `configuration`.
    static func devices(_ configuration: ServiceConfiguration, buses: SimulatedBuses) throws(ConfigurationError) -> (SimulatorRig, ServiceDevices) {
        var rig = SimulatorRig(buses: buses)
        let devices = try OutputBuilder.devices(for: configuration, buses: buses) { output throws(DeviceError) in
            rig.devices.append(try VirtualTwins.attach(output, on: buses, spiClock: configuration.spiClock))
        }
        if let button = configuration.buttons.first { rig.button = (buses.gpioChip(button.chip), button.line) }
        return (rig, devices)
    }

    /// The rig and what draws on it, for a job played without the service (demo, render).
    static func outputs(_ configuration: ServiceConfiguration, buses: SimulatedBuses) throws(ConfigurationError) -> (SimulatorRig, [ServiceOutput]) {
        let (rig, devices) = try devices(configuration, buses: buses)
        return (rig, devices.outputs)
    }
}
