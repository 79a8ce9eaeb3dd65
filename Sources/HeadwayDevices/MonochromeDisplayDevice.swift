import HeadwayRender

/// A 1-bit display (an SSD1306 or SH1106 OLED) that a driver updates from a ``Bitmap``.
public protocol MonochromeDisplayDevice: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// Shows `bitmap`. Its ``Bitmap/damage`` says what changed since the last call that succeeded;
    /// a driver may send only that. After an error the caller sends the next bitmap whole.
    func show(_ bitmap: Bitmap) throws(DeviceError)
    /// Sets how bright lit pixels are, 0…1 (an OLED's contrast).
    func setBrightness(_ brightness: Double) throws(DeviceError)
}
