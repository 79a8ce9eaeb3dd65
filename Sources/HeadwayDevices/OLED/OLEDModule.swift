/// A module as sold: the size of its glass and how the glass is bonded to the controller, as the
/// maker's own initialisation drives it. One row of a controller's `OLEDVariant/modules`.
public struct OLEDModule: Sendable, Equatable {
    /// The glass upright: the picture the controller's RAM columns and rows map to without a turn.
    public var width: Int
    /// The glass's height, upright.
    public var height: Int
    /// The first RAM column (in pixels) shown at the glass's left edge, upright.
    public var columnOffset: Int
    /// The first RAM row (in pixels) written for the glass's top row.
    public var rowOffset: Int
    /// The COM pins hardware configuration the glass is wired for (0xDA; SSD130x and SH1106).
    public var comPins: UInt8
    /// The display offset the glass needs upright, and turned by 180° (0xD3 or 0xA2, by controller):
    /// a glass on fewer COM lines than the controller has is bonded to some of them.
    public var displayOffset: UInt8
    /// The display offset the glass needs turned by 180°.
    public var turnedDisplayOffset: UInt8
    /// Whether the glass is bonded the other way round from the family's usual modules: upright,
    /// the controller's re-map and scan are those that turn the others by 180° (the makers' own
    /// initialisations say which).
    public var reversed: Bool

    /// A module of each fact given; the offsets default to none.
    public init(
        width: Int, height: Int, columnOffset: Int = 0, rowOffset: Int = 0, comPins: UInt8 = 0x12, displayOffset: UInt8 = 0,
        turnedDisplayOffset: UInt8? = nil, reversed: Bool = false
    ) {
        self.width = width
        self.height = height
        self.columnOffset = columnOffset
        self.rowOffset = rowOffset
        self.comPins = comPins
        self.displayOffset = displayOffset
        self.turnedDisplayOffset = turnedDisplayOffset ?? displayOffset
        self.reversed = reversed
    }

    /// "128x64": its size as people write it.
    public var size: String { "\(width)x\(height)" }
}
