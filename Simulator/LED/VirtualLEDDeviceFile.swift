import HeadwayDevices
import HeadwayRender
import Synchronization

/// The Pi 5's `/dev/leds0` in the simulator: takes frames of 4 bytes per pixel (`RR GG BB WW`) for
/// `count` LEDs, as the ws2812-pio-rp1 driver does, and refuses writes of any other length.
public final class VirtualLEDDeviceFile: LEDDeviceFile {
    public let path: String
    /// How many LEDs the kernel driver drives.
    public let count: Int
    private let state: Mutex<[RGB8]>

    /// A device file at `path` for `count` LEDs.
    public init(path: String = "/dev/leds0", count: Int) {
        self.path = path
        self.count = count
        state = Mutex(Array(repeating: .off, count: count))
    }

    public func write(_ bytes: [UInt8]) throws(DeviceError) {
        guard bytes.count == 4 * count else {
            throw DeviceError(.unsupported, "\(path) takes \(4 * count) bytes (4 per LED), not \(bytes.count)", errno: 22)
        }
        state.withLock { pixels in
            for led in 0..<count {
                let w = Int(bytes[4 * led + 3])
                func add(_ v: UInt8) -> UInt8 { UInt8(min(255, Int(v) + w)) }
                pixels[led] = RGB8(red: add(bytes[4 * led]), green: add(bytes[4 * led + 1]), blue: add(bytes[4 * led + 2]))
            }
        }
    }

    /// The light each LED gives, as drive levels.
    public var levels: [RGB8] { state.withLock { $0 } }
}
