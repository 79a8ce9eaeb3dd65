/// An LED matrix, bar graph or segment display that a driver updates from whole frames.
///
/// Like a ``DisplayDevice``, the driver is the one owner of what the module shows: it compares each
/// frame with what it knows the chip holds and sends only the difference, or everything when it
/// cannot know (first use, after a bus error, now and then since nothing can be read back). It
/// blinks the frame as asked: in the chip where the chip can, else by its own clock.
public protocol LEDMatrixDevice: AnyObject, Sendable {
    /// What the module can show, turned as it is mounted.
    var face: MatrixFace { get }
    /// Makes the module show `frame` (its content must be of the face's kind and size).
    func show(_ frame: MatrixFrame) throws(DeviceError)
}

extension LEDMatrixDevice {
    /// A frame of the wrong kind or size, refused before anything is sent.
    func mismatch(_ frame: MatrixFrame) -> DeviceError? {
        switch (face, frame.content) {
        case (.pixels(let width, let height, _), .pixels(let levels)) where levels.width == width && levels.height == height: nil
        case (.segments(let count, _, _), .segments(let picture)) where picture.digits.count == count: nil
        case (.pixels(let width, let height, _), _):
            DeviceError(.unsupported, "a \(width)x\(height) matrix cannot show this frame (it is not \(width)x\(height) positions)")
        case (.segments(let count, _, _), _):
            DeviceError(.unsupported, "a display of \(count) digits cannot show this frame (it is not \(count) digits)")
        }
    }
}

/// How a matrix module is mounted: the picture turned on it by a quarter, half or three quarters of
/// a turn, clockwise. The driver turns every frame so that it reads upright as mounted.
public enum MatrixRotation: Int, Sendable, Equatable, CaseIterable {
    /// As its maker's library draws it.
    case upright = 0
    /// A quarter turn clockwise: the picture is as wide as the module is tall.
    case quarter = 90
    /// Upside down.
    case half = 180
    /// Three quarters of a turn clockwise.
    case threeQuarters = 270

    /// The picture's size on a module of `width` × `height` positions (as its maker draws it).
    public func faceSize(width: Int, height: Int) -> (width: Int, height: Int) {
        self == .quarter || self == .threeQuarters ? (height, width) : (width, height)
    }

    /// The module position (as its maker draws it, `width` × `height`) that shows the picture's
    /// position (`x`, `y`).
    public func modulePosition(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .upright: (x, y)
        // Turned a quarter clockwise, the module's left column is the picture's top row.
        case .quarter: (y, height - 1 - x)
        case .half: (width - 1 - x, height - 1 - y)
        case .threeQuarters: (width - 1 - y, x)
        }
    }
}

/// When a blink began and at what rate, for drivers whose chip cannot blink: they light and darken
/// the frame themselves, by their clock, whenever they are asked to show it.
struct BlinkClock: Sendable {
    private(set) var blink = MatrixBlink.steady
    private var since = 0.0

    /// Whether the lit positions are dark at `now` under `blink` (a new rate starts its cycle, on).
    mutating func isOff(_ blink: MatrixBlink, at now: Double) -> Bool {
        if blink != self.blink {
            self.blink = blink
            since = now
        }
        return blink.isOff(after: now - since)
    }
}
