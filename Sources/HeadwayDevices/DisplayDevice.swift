import HeadwaySurfaces

/// A small display that a driver updates from whole pictures.
///
/// The driver is the one owner of what the glass shows: it is handed whole pictures, compares them
/// with what it knows the display holds, and sends only the difference — or everything, whenever
/// it cannot be sure what the display holds (first use, after a bus error, after a long quiet).
/// Its ``pixelFormat`` says what kind of picture it draws best; it shows any kind as well as its
/// glass can (a greymap on an on/off panel: lit from level 8).
public protocol DisplayDevice: AnyObject, Sendable {
    /// The picture's size (the glass's, turned as the display is mounted).
    var width: Int { get }
    /// The picture's height in pixels.
    var height: Int { get }
    /// How the display's pixels are stored: the picture it is best handed.
    var pixelFormat: PixelFormat { get }
    /// Makes the glass show `picture`.
    func show(_ picture: DisplayPicture) throws(DeviceError)
    /// Sets how bright lit pixels are, 0…1 (an OLED's contrast).
    func setBrightness(_ brightness: Double) throws(DeviceError)
    /// Turns the panel on or off; the picture stays in the display's memory.
    func setDisplayOn(_ on: Bool) throws(DeviceError)
}
