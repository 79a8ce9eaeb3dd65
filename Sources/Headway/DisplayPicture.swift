/// A picture of either depth, as a display output handles it: on/off pixels, or 16 grey levels
/// (SSD1327).
public enum DisplayPicture: Equatable, Sendable {
    /// On/off pixels, for a monochrome controller.
    case bitmap(Bitmap)
    /// 16 grey levels, for a greyscale controller (SSD1327).
    case greymap(Greymap)

    /// The picture in the controller's RAM format (pages, or rows of pixel pairs).
    public var bytes: [UInt8] {
        switch self {
        case .bitmap(let bitmap): bitmap.bytes
        case .greymap(let greymap): greymap.bytes
        }
    }

    /// Whether no pixel is lit (a blank picture may turn the panel off).
    public var isBlank: Bool {
        switch self {
        case .bitmap(let bitmap): bitmap.isBlank
        case .greymap(let greymap): greymap.isBlank
        }
    }

    /// On the whole glass (the same picture when it already is the glass's size).
    public func placed(onWidth width: Int, height: Int, x: Int, y: Int) -> DisplayPicture {
        switch self {
        case .bitmap(let bitmap):
            bitmap.width == width && bitmap.height == height ? self : .bitmap(bitmap.placed(onWidth: width, height: height, x: x, y: y))
        case .greymap(let greymap):
            greymap.width == width && greymap.height == height ? self : .greymap(greymap.placed(onWidth: width, height: height, x: x, y: y))
        }
    }

    /// Sends the picture to `device`, which diffs it against what its glass shows.
    public func show(on device: any DisplayDevice) throws(DeviceError) {
        switch self {
        case .bitmap(let bitmap): try device.show(bitmap)
        case .greymap(let greymap): try device.show(greymap)
        }
    }
}
