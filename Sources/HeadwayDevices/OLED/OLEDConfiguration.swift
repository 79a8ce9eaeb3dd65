/// How an OLED module is built and how it should be driven.
public struct OLEDConfiguration: Sendable, Equatable {
    public var controller: OLEDController
    public var width: Int
    public var height: Int
    /// The 7-bit I2C address: 0x3C (SA0 low) or 0x3D.
    public var address: UInt8
    /// Shows the picture turned by 180° (for modules mounted upside down).
    public var rotated: Bool
    /// 0…255; the controller's contrast (segment current), Headway's brightness for displays.
    public var contrast: UInt8
    public var inverted: Bool
    /// SSD1306 modules powered with an external panel supply instead of the internal charge pump.
    public var externalVCC: Bool

    /// The column of controller RAM that shows at the left edge of the glass.
    public let columnOffset: Int
    /// The COM pins hardware configuration (0xDA argument) the glass is wired for.
    public let comPins: UInt8

    /// The sizes each controller comes in: (width, height, column offset, COM pins).
    static let geometries: [OLEDController: [(width: Int, height: Int, offset: Int, comPins: UInt8)]] = [
        .ssd1306: [(128, 64, 0, 0x12), (128, 32, 0, 0x02), (64, 48, 32, 0x12)],
        .sh1106: [(128, 64, 2, 0x12)],
    ]

    public init(
        controller: OLEDController, width: Int = 128, height: Int = 64, address: UInt8 = 0x3C, rotated: Bool = false,
        contrast: UInt8 = 0xCF, inverted: Bool = false, externalVCC: Bool = false
    ) throws(DeviceError) {
        guard let geometry = Self.geometries[controller]?.first(where: { $0.width == width && $0.height == height }) else {
            let sizes = (Self.geometries[controller] ?? []).map { "\($0.width)x\($0.height)" }.joined(separator: ", ")
            throw DeviceError(.unsupported, "\(controller.rawValue) modules come in \(sizes), not \(width)x\(height)")
        }
        guard (0x03...0x77).contains(address) else {
            throw DeviceError(.unsupported, "I2C address \(hexByte(address)) is outside the 7-bit range 0x03…0x77; OLEDs use 0x3C or 0x3D")
        }
        self.controller = controller
        self.width = width
        self.height = height
        self.address = address
        self.rotated = rotated
        self.contrast = contrast
        self.inverted = inverted
        self.externalVCC = externalVCC
        columnOffset = geometry.offset
        comPins = geometry.comPins
    }

    public var pages: Int { (height + 7) / 8 }
}
