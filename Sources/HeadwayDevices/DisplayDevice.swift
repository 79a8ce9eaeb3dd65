import HeadwaySurfaces

/// A small display (an OLED) that a driver updates from whole pictures.
///
/// The driver is the one owner of what the glass shows: it is handed whole pictures, compares them
/// with what it knows the display holds, and sends only the difference — or everything, whenever
/// it cannot be sure what the display holds (first use, after a bus error, after a long quiet).
/// A display has on/off pixels or grey levels (``greyLevels``); it takes either kind of picture and
/// shows it as well as its glass can, but draws best what it asks for.
public protocol DisplayDevice: AnyObject, Sendable {
    /// The picture's size (the glass's, turned as the display is mounted).
    var width: Int { get }
    /// The picture's height in pixels.
    var height: Int { get }
    /// How many levels a pixel can show: 2 (on and off) or 16 (greyscale).
    var greyLevels: Int { get }
    /// Makes the glass show `bitmap`.
    func show(_ bitmap: Bitmap) throws(DeviceError)
    /// Makes the glass show `greymap` (on a display without grey levels: lit where the level is 8 or more).
    func show(_ greymap: Greymap) throws(DeviceError)
    /// Sets how bright lit pixels are, 0…1 (an OLED's contrast).
    func setBrightness(_ brightness: Double) throws(DeviceError)
    /// Turns the panel on or off; the picture stays in the display's memory.
    func setDisplayOn(_ on: Bool) throws(DeviceError)
}
