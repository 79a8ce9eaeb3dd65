/// A colour TFT controller the simulator models from its datasheet, as it is marked on the chip.
///
/// Variants of one family share the command set and the frame memory; they differ in what the
/// datasheets give for the serial interface (``TFTControllerFacts``).
public enum TFTControllerModel: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Sitronix ST7789V (datasheet V1.3, 2014/03).
    case st7789v = "ST7789V"
    /// Sitronix ST7789V2 (datasheet V1.0, 2016/11; see ``TFTControllerFacts`` for what was not read).
    case st7789v2 = "ST7789V2"
    /// Sitronix ST7789VW (datasheet V1.0, 2017/09).
    case st7789vw = "ST7789VW"
    /// Sitronix ST7735S (datasheet V1.4, 2014/10).
    case st7735s = "ST7735S"
    /// Sitronix ST7735R (datasheet V0.2, 2009/08; read through its ST7735 and ST7735S siblings).
    case st7735r = "ST7735R"
    /// Ilitek ILI9341 (datasheet V1.11).
    case ili9341 = "ILI9341"

    /// The command set and frame memory the variant belongs to.
    public var family: TFTControllerFamily {
        switch self {
        case .st7789v, .st7789v2, .st7789vw: .st7789
        case .st7735s, .st7735r: .st7735
        case .ili9341: .ili9341
        }
    }

    public var description: String { rawValue }
}

/// Controllers that share a command set and a frame memory.
public enum TFTControllerFamily: String, Sendable {
    /// Sitronix ST7789 (V, V2, VW): 240x320 frame memory.
    case st7789 = "ST7789"
    /// Sitronix ST7735 (S, R): 132x162 frame memory.
    case st7735 = "ST7735"
    /// Ilitek ILI9341: 240x320 frame memory.
    case ili9341 = "ILI9341"

    /// The frame memory, in pixels, with MADCTL's MV = 0 (columns across, rows down).
    ///
    /// ST7789V V1.3 §8.11.1: "240x320x18-bit graphic type static RAM". ILI9341 V1.11 §1: 240RGB x
    /// 320, 172,800 bytes of GRAM. ST7735S V1.4 §1 and ST7735R V0.2 §1: "RAM of 132 x 162 x 18 bits";
    /// a module may select a smaller one with the GM pins (``ramSizes``).
    public var ramSize: TFTRAMSize {
        switch self {
        case .st7789, .ili9341: TFTRAMSize(width: 240, height: 320)
        case .st7735: TFTRAMSize(width: 132, height: 162)
        }
    }

    /// The frame memories a module's bonding can select. ST7735S V1.4 §6.3 (GM[1:0]): 132 x 162
    /// (00), 132 x 132 (01), 128 x 160 (11); ST7735 V1.2 §2 (GM[2:0]): 132 x 162 and 128 x 160.
    public var ramSizes: [TFTRAMSize] {
        switch self {
        case .st7789, .ili9341: [ramSize]
        case .st7735: [ramSize, TFTRAMSize(width: 132, height: 132), TFTRAMSize(width: 128, height: 160)]
        }
    }
}

/// A frame memory's size in pixels (columns with MV = 0, rows).
public struct TFTRAMSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns (MADCTL MV = 0).
    public let width: Int
    /// Rows (MADCTL MV = 0).
    public let height: Int

    /// A frame memory of `width` columns by `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Pixels in it.
    public var count: Int { width * height }

    public var description: String { "\(width)x\(height)" }
}
