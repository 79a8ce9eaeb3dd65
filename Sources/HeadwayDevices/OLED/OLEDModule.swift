/// A module as sold: the size of its glass and how the glass is bonded to the controller, as the
/// maker's own initialisation drives it. One row of a controller's ``OLEDVariant/modules``.
public struct OLEDModule: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The first RAM column (in pixels) shown at the glass's left edge, the picture upright.
    public var columnOffset: Int
    /// The first RAM row (in pixels) written for the glass's top row.
    public var rowOffset: Int
    /// The COM pins hardware configuration the glass is wired for (0xDA; monochrome Solomon and
    /// SH1106 controllers), or the display offset (0xD3 / 0xA2) it needs, by controller.
    public var comPins: UInt8
    public var displayOffset: UInt8

    public init(width: Int, height: Int, columnOffset: Int = 0, rowOffset: Int = 0, comPins: UInt8 = 0x12, displayOffset: UInt8 = 0) {
        self.width = width
        self.height = height
        self.columnOffset = columnOffset
        self.rowOffset = rowOffset
        self.comPins = comPins
        self.displayOffset = displayOffset
    }

    public var size: String { "\(width)x\(height)" }
}
