import HeadwaySurfaces

/// A 1-bit display (an SSD1306 or SH1106 OLED) that a driver updates from a ``Bitmap``.
///
/// The driver is the one owner of what the glass shows: it is handed whole pictures, compares them
/// with what it knows the display holds, and sends only the difference — or everything, whenever
/// it cannot be sure what the display holds (first use, after a bus error, after a long quiet).
public protocol MonochromeDisplayDevice: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// Makes the glass show `bitmap`.
    func show(_ bitmap: Bitmap) throws(DeviceError)
    /// Sets how bright lit pixels are, 0…1 (an OLED's contrast).
    func setBrightness(_ brightness: Double) throws(DeviceError)
}
