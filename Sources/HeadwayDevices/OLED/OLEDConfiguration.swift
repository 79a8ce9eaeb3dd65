/// How an OLED module is built and how it should be driven.
public struct OLEDConfiguration: Sendable, Equatable {
    /// The display's controller chip.
    public let controller: OLEDController
    /// The module: its glass and how the glass is wired to the controller.
    public let module: OLEDModule
    /// The 7-bit I2C address: 0x3C (SA0 low) or 0x3D (ignored on SPI).
    public var address: UInt8
    /// How the module is mounted.
    public var rotation: OLEDRotation
    /// 0…255; the controller's contrast (segment current), Headway's brightness for displays.
    public var contrast: UInt8
    /// Lit pixels for dark ones and back.
    public var inverted: Bool
    /// Modules powered with an external panel supply instead of the internal charge pump (SSD1306,
    /// SSD1315; SSD1309 modules always are).
    public var externalVCC: Bool

    /// A module of `controller`, checked against the modules it is sold on.
    ///
    /// - Parameters:
    ///   - controller: the display's controller chip.
    ///   - width: the glass's width, as the controller's modules are sold (default: its first module's).
    ///   - height: the glass's height (default: its first module's).
    ///   - address: the I2C address (0x3C, or 0x3D with the module's address pad set).
    ///   - rotation: how the module is mounted.
    ///   - contrast: default: the controller's usual value.
    ///   - inverted: lit pixels for dark ones and back.
    ///   - externalVCC: the module has an external panel supply instead of the charge pump.
    public init(
        controller: OLEDController, width: Int? = nil, height: Int? = nil, address: UInt8 = 0x3C, rotation: OLEDRotation = .upright,
        contrast: UInt8? = nil, inverted: Bool = false, externalVCC: Bool = false
    ) throws(DeviceError) {
        let variant = controller.variant
        let wanted = (width ?? variant.modules[0].width, height ?? variant.modules[0].height)
        guard let module = variant.modules.first(where: { $0.width == wanted.0 && $0.height == wanted.1 }) else {
            throw DeviceError(.unsupported, "\(controller.rawValue) modules come in \(variant.sizes), not \(wanted.0)x\(wanted.1)")
        }
        guard (0x03...0x77).contains(address) else {
            throw DeviceError(.unsupported, "I2C address \(hexByte(address)) is outside the 7-bit range 0x03…0x77; OLEDs use 0x3C or 0x3D")
        }
        if rotation.swapsAxes, !variant.turnsByQuarters {
            throw DeviceError(.unsupported, "\(controller.rawValue) modules turn by 180° only (rotation: 180); a quarter turn is for the square or tall glass of SH1107 and SSD1327")
        }
        self.controller = controller
        self.module = module
        self.address = address
        self.rotation = rotation
        self.contrast = contrast ?? variant.defaultContrast
        self.inverted = inverted
        self.externalVCC = externalVCC
    }

    /// Whether the controller's re-map and scan are set to turn the RAM by 180°: a half turn of the
    /// picture on a module bonded the usual way, or an upright picture on a reversed one.
    var remapsTurned: Bool { rotation.turnsInHardware != module.reversed }

    /// The display offset for the picture as mounted.
    var displayOffset: UInt8 { rotation.turnsInHardware ? module.turnedDisplayOffset : module.displayOffset }

    /// The picture's size: the glass's, turned as the module is mounted.
    public var width: Int { rotation.swapsAxes ? module.height : module.width }
    /// The picture's height: the glass's, turned as mounted.
    public var height: Int { rotation.swapsAxes ? module.width : module.height }

    /// The controller's facts.
    package var variant: OLEDVariant { controller.variant }

    /// The first RAM column in bytes shown at the glass's left edge: the glass is bonded to fixed
    /// segment outputs, so turning the picture in hardware moves it to the other end of the RAM.
    var columnOffset: Int {
        let moves = rotation.turnsInHardware && !variant.columnsAreCommons
        let pixels = moves ? variant.ramWidth - module.width - module.columnOffset : module.columnOffset
        return variant.addressing.isGreyscale ? pixels / 2 : pixels
    }

    /// The first RAM row written (in the addressing's rows: pages, or pixel rows on SSD1327). The
    /// rows shown are picked by start line and multiplex, which a half turn leaves alone.
    var rowOffset: Int { variant.addressing.isGreyscale ? module.rowOffset : module.rowOffset / 8 }
}
