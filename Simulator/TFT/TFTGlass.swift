import HeadwayDevices

/// What a TFT module's glass shows at one moment: its pixels as sRGB drive levels, row-major,
/// after the panel's colour order, inversion, display and sleep state and the backlight.
public struct TFTGlass: Sendable, Equatable {
    /// Pixels across, in the module's reference orientation (``TFTModuleModel/reference``).
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// The pixels, row by row from the top left; `RGB8.off` where the glass is dark.
    public let pixels: [RGB8]
    /// Whether the panel shows a picture and the backlight is on: sleep out, display on, backlight
    /// line on and brightness above 0.
    public let isLit: Bool
    /// The controller's protocol errors when the picture was taken (``VirtualTFT/protocolErrors``).
    public let protocolErrors: [String]

    /// A glass of `width` x `height` showing `pixels` (row-major; one per pixel).
    public init(width: Int, height: Int, pixels: [RGB8], isLit: Bool, protocolErrors: [String] = []) {
        precondition(pixels.count == width * height, "one pixel per glass position")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isLit = isLit
        self.protocolErrors = protocolErrors
    }

    /// A dark glass.
    public static func dark(width: Int, height: Int, protocolErrors: [String] = []) -> TFTGlass {
        TFTGlass(width: width, height: height, pixels: Array(repeating: .off, count: width * height), isLit: false,
                 protocolErrors: protocolErrors)
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGB8 { pixels[y * width + x] }

    /// Whether every pixel is dark.
    public var isDark: Bool { pixels.allSatisfy { $0 == .off } }
}
