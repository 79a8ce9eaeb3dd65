/// A kernel LED driver that takes whole frames as bytes written to a device file: the Raspberry
/// Pi 5's `ws2812-pio-rp1` overlay creates `/dev/leds0`, which drives WS2812s from the RP1's PIO.
public protocol LEDDeviceFile: AnyObject, Sendable {
    /// The device node (`/dev/leds0`).
    var path: String { get }
    /// Writes one frame in a single `write()`.
    func write(_ bytes: [UInt8]) throws(DeviceError)
}
