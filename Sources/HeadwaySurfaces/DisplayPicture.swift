/// How a display's pixels are stored and sent: what kind of picture it is handed.
public enum PixelFormat: Sendable, Equatable {
    /// On/off pixels (the SSD130x and SH110x OLEDs): a ``Bitmap``.
    case mono
    /// 16 grey levels, 4 bits a pixel (the SSD1327): a ``Greymap``.
    case grey4
    /// Colour, 16 bits a pixel (5 red, 6 green, 5 blue: most TFTs).
    case rgb565
    /// Colour, 18 bits a pixel sent as three bytes (TFTs that take no 16-bit writes).
    case rgb666

    /// Whether pixels have levels between off and full.
    public var hasLevels: Bool { self != .mono }
    /// Whether pixels have colour.
    public var isColour: Bool { self == .rgb565 || self == .rgb666 }
}

/// A picture as a display is handed it, in the kind its pixel format takes: on/off pixels, 16
/// grey levels, or colour.
public enum DisplayPicture: Equatable, Sendable {
    /// On/off pixels, for a monochrome controller.
    case bitmap(Bitmap)
    /// 16 grey levels, for a greyscale controller (SSD1327).
    case greymap(Greymap)
    /// Colour, for a TFT controller (ST7789, ST7735, ILI9341).
    case colour(ColourPicture)

    /// The picture in the controller's RAM format (pages, rows of pixel pairs, or rows of colour
    /// pixels).
    public var bytes: [UInt8] {
        switch self {
        case .bitmap(let bitmap): bitmap.bytes
        case .greymap(let greymap): greymap.bytes
        case .colour(let colour): colour.bytes
        }
    }

    /// Whether no pixel is lit (a blank picture may turn the panel off).
    public var isBlank: Bool {
        switch self {
        case .bitmap(let bitmap): bitmap.isBlank
        case .greymap(let greymap): greymap.isBlank
        case .colour(let colour): colour.isBlank
        }
    }

    /// On the whole glass (the same picture when it already is the glass's size).
    public func placed(onWidth width: Int, height: Int, x: Int, y: Int) -> DisplayPicture {
        switch self {
        case .bitmap(let bitmap):
            bitmap.width == width && bitmap.height == height ? self : .bitmap(bitmap.placed(onWidth: width, height: height, x: x, y: y))
        case .greymap(let greymap):
            greymap.width == width && greymap.height == height ? self : .greymap(greymap.placed(onWidth: width, height: height, x: x, y: y))
        case .colour(let colour):
            colour.width == width && colour.height == height ? self : .colour(colour.placed(onWidth: width, height: height, x: x, y: y))
        }
    }

    /// The picture's width in pixels.
    public var width: Int {
        switch self {
        case .bitmap(let bitmap): bitmap.width
        case .greymap(let greymap): greymap.width
        case .colour(let colour): colour.width
        }
    }

    /// The picture's height in pixels.
    public var height: Int {
        switch self {
        case .bitmap(let bitmap): bitmap.height
        case .greymap(let greymap): greymap.height
        case .colour(let colour): colour.height
        }
    }
}
