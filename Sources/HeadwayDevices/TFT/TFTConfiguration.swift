/// How a TFT module is driven: which module, how its picture is turned, its pixel format and the
/// panel settings a configuration may change from the module's.
public struct TFTConfiguration: Sendable, Equatable {
    /// The module.
    public let module: TFTModule
    /// How the picture is turned on the glass.
    public let rotation: TFTRotation
    /// RGB565 (2 bytes a pixel) or RGB666 (3 bytes).
    public let pixelFormat: PixelFormat
    /// INVON (an IPS panel) or INVOFF.
    public let inverted: Bool
    /// Where the picture goes in the frame memory for this rotation.
    public let orientation: TFTOrientation

    /// `module` turned by `rotation`, its pixels in `pixelFormat`; `inverted` and `bgr` change the
    /// module's inversion and colour order (for a panel that differs from its vendor's).
    public init(module: TFTModule, rotation: TFTRotation = .upright, pixelFormat: PixelFormat = .rgb565, inverted: Bool? = nil,
                bgr: Bool? = nil) throws(DeviceError) {
        guard pixelFormat.isColour else {
            throw DeviceError(.unsupported, "a TFT takes colour pixels (rgb565 or rgb666), not \(pixelFormat)")
        }
        guard var orientation = module.orientation(rotation) else {
            throw DeviceError(.unsupported, "the \(module.title) cannot show a picture turned by \(rotation.rawValue)°: its vendor's write leaves the frame memory")
        }
        if let bgr {
            orientation = TFTOrientation(madctl: orientation.madctl & ~0x08 | (bgr ? 0x08 : 0), column: orientation.column, row: orientation.row,
                                         width: orientation.width, height: orientation.height)
        }
        self.module = module
        self.rotation = rotation
        self.pixelFormat = pixelFormat
        self.inverted = inverted ?? module.inverted
        self.orientation = orientation
    }

    /// The picture's width: the glass's, turned as configured.
    public var width: Int { orientation.width }
    /// The picture's height.
    public var height: Int { orientation.height }
    /// The controller on the module.
    public var controller: TFTController { module.controller }
    /// Bytes a pixel on the wire.
    public var bytesPerPixel: Int { pixelFormat == .rgb565 ? 2 : 3 }
}
