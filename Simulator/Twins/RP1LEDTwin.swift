import HeadwayDevices
import HeadwayRender

/// The Raspberry Pi 5 LED device family's twin: `/dev/leds0` as the kernel driver takes frames.
extension RigDevice {
    /// WS2812s behind the Raspberry Pi 5's kernel driver, its device file at `path` on `buses`.
    public static func leds0(_ name: String, count: Int, layout: LEDLayout, path: String, on buses: SimulatedBuses) -> RigDevice {
        let file = VirtualLEDDeviceFile(path: path, count: count)
        buses.attach(file)
        return RigDevice(name: name, view: .leds(levels: { file.levels }, layout: layout), problems: { [] })
    }
}
