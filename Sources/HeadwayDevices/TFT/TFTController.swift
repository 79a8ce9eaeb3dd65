import HeadwayCore

/// A colour TFT controller as it is marked on the chip: the driver's facts of each, from its
/// datasheet (docs/tft-controllers.md lists every fact with its source).
///
/// Variants of a family share the command set and the frame memory; they differ in the serial
/// interface's fastest write clock.
public enum TFTController: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Sitronix ST7789V (datasheet V1.3, 2014/03).
    case st7789v = "ST7789V"
    /// Sitronix ST7789V2: its V1.0 sheet was not in reach; its facts are the ST7789VW's, the sheet
    /// of the same revision family (Pimoroni drives it at 60 MHz, which only the VW's timing allows).
    case st7789v2 = "ST7789V2"
    /// Sitronix ST7789VW (datasheet V1.0, 2017/09).
    case st7789vw = "ST7789VW"
    /// Sitronix ST7735S (datasheet V1.4, 2014/10).
    case st7735s = "ST7735S"
    /// Sitronix ST7735R (datasheet V0.2, 2009/08, read with its ST7735 V1.2 and ST7735S V1.4 siblings).
    case st7735r = "ST7735R"
    /// Ilitek ILI9341 (datasheet V1.11).
    case ili9341 = "ILI9341"

    public var description: String { rawValue }

    /// The command set and frame memory it shares with its siblings.
    public var family: TFTFamily {
        switch self {
        case .st7789v, .st7789v2, .st7789vw: .st7789
        case .st7735s, .st7735r: .st7735
        case .ili9341: .ili9341
        }
    }

    /// The fastest 4-line serial write clock: 1 / the write cycle's minimum. ST7789V V1.3 §7.4.3
    /// Table 6: T_SCYCW ≥ 66 ns; ST7789VW V1.0 §7.4.3 Table 6: ≥ 16 ns; ST7735S V1.4 §8.4 and ST7735
    /// V1.2 Table 8.3.1: ≥ 66 ns; ILI9341 V1.11 §18.3.4: t_wc ≥ 100 ns.
    public var maxSPIHz: UInt32 {
        switch self {
        case .st7789v, .st7735s, .st7735r: 15_151_515
        case .st7789v2, .st7789vw: 62_500_000
        case .ili9341: 10_000_000
        }
    }
}

/// Controllers that share a command set and a frame memory: what `driver:` names.
public enum TFTFamily: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Sitronix ST7789 (V, V2, VW): 240 x 320.
    case st7789
    /// Sitronix ST7735 (S, R): 132 x 162.
    case st7735
    /// Ilitek ILI9341: 240 x 320.
    case ili9341

    public var description: String { rawValue.uppercased() }

    /// The frame memory with MADCTL's MV = 0, columns by rows. ST7789V V1.3 §8.11.1: 240x320x18
    /// bit; ILI9341 V1.11 §1: 240RGB x 320; ST7735S V1.4 §1: 132 x 162 (a module's GM pins may
    /// select 132 x 132 or 128 x 160, §6.3).
    public var memory: TFTMemorySize {
        switch self {
        case .st7789, .ili9341: TFTMemorySize(columns: 240, rows: 320)
        case .st7735: TFTMemorySize(columns: 132, rows: 162)
        }
    }

    /// COLMOD's parameter for `format` on the 4-line serial interface. ST7789V V1.3 §9.1.32 and
    /// ILI9341 V1.11 §8.2.33: D6…D4 the RGB interface's format, D2…D0 the control interface's
    /// (101: 16 bits, 110: 18 bits); ST7735S V1.4 §10.1.33 has only IFPF in D2…D0.
    func colourMode(_ format: PixelFormat) -> UInt8 {
        let bits: UInt8 = format == .rgb666 ? 0b110 : 0b101
        return self == .st7735 ? bits : bits << 4 | bits
    }

    /// How long to wait after SWRESET before SLPOUT: 120 ms on every family (ST7789V V1.3 §9.1.2,
    /// ILI9341 V1.11 §8.2.2: 5 ms before any command, 120 ms before SLPOUT; ST7735S V1.4 §10.1.2:
    /// 120 ms before any command). A little more, for the clock's rounding.
    static let afterSoftwareReset: Seconds = 0.125

    /// How long to wait after SLPOUT: 120 ms on the ST7735 (ST7735S V1.4 §10.1.12), 5 ms on the
    /// others (ST7789V V1.3 §9.1.12; ILI9341 V1.11 §8.2.12), who then need 120 ms before a SLPIN,
    /// which this driver never sends.
    var afterSleepOut: Seconds { self == .st7735 ? 0.125 : 0.01 }

    /// RES# held low at least T_RW = 10 µs (ST7789V V1.3 §7.4.5 Table 9; ST7735S V1.4 §9.17;
    /// ILI9341 V1.11 §15.4), then 120 ms before SLPOUT (note 7 of each).
    static let reset = ResetTiming(low: 20e-6, ready: 0.125)
}

/// A frame memory's size in pixels with MADCTL's MV = 0.
public struct TFTMemorySize: Sendable, Hashable, CustomStringConvertible {
    /// Columns (the column address's range).
    public let columns: Int
    /// Rows (the row address's range).
    public let rows: Int

    /// A frame memory of `columns` by `rows`.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }
}
