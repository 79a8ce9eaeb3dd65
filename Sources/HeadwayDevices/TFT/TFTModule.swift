/// A colour TFT module as sold: its controller, its glass, where the glass sits in the frame
/// memory, the colour filter's order and whether the panel wants its outputs inverted.
///
/// Where the glass sits is in no datasheet; what vendors publish is how they write a picture that
/// shows upright (``VendorWrite``: MADCTL, the window's offsets, a turn in software). The driver
/// takes that write as the module's fact and works every rotation out from it
/// (``orientation(_:)``), so each row cites one published write. docs/tft-controllers.md has the
/// vendors' facts and where they disagree.
public struct TFTModule: Sendable, Equatable {
    /// How a vendor writes an upright picture: the MADCTL value it sends, the column and row
    /// address its picture's top-left pixel goes to, the window's size, and the counterclockwise
    /// turn (PIL's `Image.rotate`, numpy's `rot90`) it gives the picture before sending it.
    public struct VendorWrite: Sendable, Equatable {
        /// The MADCTL value sent.
        public let madctl: UInt8
        /// The column address the picture's left column goes to.
        public let columnOffset: Int
        /// The row address the picture's top row goes to.
        public let rowOffset: Int
        /// The window's width, in host columns.
        public let windowWidth: Int
        /// The window's height, in host rows.
        public let windowHeight: Int
        /// Degrees counterclockwise: 0, 90, 180 or 270.
        public let turn: Int

        /// A write of MADCTL `madctl`, its `window` from (`columnOffset`, `rowOffset`), the picture
        /// turned `turn` degrees counterclockwise first.
        public init(madctl: UInt8, columnOffset: Int = 0, rowOffset: Int = 0, window: (width: Int, height: Int), turn: Int = 0) {
            self.madctl = madctl
            self.columnOffset = columnOffset
            self.rowOffset = rowOffset
            windowWidth = window.width
            windowHeight = window.height
            self.turn = turn
        }
    }

    /// Its name in a configuration (`module: display-hat-mini`).
    public let name: String
    /// What it is sold as.
    public let title: String
    /// The controller on it.
    public let controller: TFTController
    /// The glass's width as the vendor shows it upright.
    public let width: Int
    /// The glass's height as the vendor shows it upright.
    public let height: Int
    /// The frame memory its bonding selects (the ST7735's GM pins; others: the family's).
    public let memory: TFTMemorySize
    /// The vendor's upright write.
    public let reference: VendorWrite
    /// The panel wants INVON for right colours (a normally-black IPS panel).
    public let inverted: Bool
    /// The vendor's SPI clock, for the docs and doctor (the driver stays within the controller's).
    public let vendorSPIHz: UInt32?
    /// Where the facts come from.
    public let source: String

    /// The glass's size as people write it.
    public var size: String { "\(width)x\(height)" }
    /// Whether the colour filter is blue-green-red in output order: the vendor sets MADCTL's BGR bit.
    public var bgr: Bool { reference.madctl & 0x08 != 0 }

    init(_ name: String, _ title: String, _ controller: TFTController, width: Int, height: Int, memory: TFTMemorySize? = nil,
         reference: VendorWrite, inverted: Bool, vendorSPIHz: UInt32? = nil, source: String) {
        self.name = name
        self.title = title
        self.controller = controller
        self.width = width
        self.height = height
        self.memory = memory ?? controller.family.memory
        self.reference = reference
        self.inverted = inverted
        self.vendorSPIHz = vendorSPIHz
        self.source = source
    }
}

/// How a picture is turned on the module's glass: clockwise quarter turns from the vendor's upright.
public enum TFTRotation: Int, Sendable, Equatable, CaseIterable {
    /// As the vendor shows it.
    case upright = 0
    /// A quarter turn clockwise.
    case quarter = 90
    /// Upside down.
    case half = 180
    /// Three quarters of a turn clockwise.
    case threeQuarters = 270

    /// Whether the picture's width runs along the glass's height.
    public var swapsSides: Bool { self == .quarter || self == .threeQuarters }
}

/// Where a picture goes in the frame memory for one rotation of a module: the MADCTL value that
/// lays the memory out so, and the window the picture fills in the host's addresses.
public struct TFTOrientation: Sendable, Equatable {
    /// MADCTL: MY, MX, MV and the colour order; ML and MH left at 0.
    public let madctl: UInt8
    /// The column address of the picture's left column.
    public let column: Int
    /// The row address of the picture's top row.
    public let row: Int
    /// The picture's width.
    public let width: Int
    /// The picture's height.
    public let height: Int
}

extension TFTModule {
    /// The frame memory position host address (`column`, `row`) reaches under `madctl`, nil outside
    /// the memory. MV = 0: the column address counts memory columns, the row address rows; MV = 1
    /// the reverse. MX counts memory columns from the right and MY memory rows from the bottom,
    /// whatever MV is (ST7735S V1.4 §9.11 "Direct to (131-Physical Column Pointer)"; ILI9341 V1.11
    /// §9.3; ST7789V V1.3 Figure 33 and §9.1.28).
    static func memoryPosition(madctl: UInt8, column: Int, row: Int, in memory: TFTMemorySize) -> (x: Int, y: Int)? {
        let my = madctl & 0x80 != 0, mx = madctl & 0x40 != 0, mv = madctl & 0x20 != 0
        let (across, down) = mv ? (row, column) : (column, row)
        let x = mx ? memory.columns - 1 - across : across
        let y = my ? memory.rows - 1 - down : down
        guard x >= 0, y >= 0, x < memory.columns, y < memory.rows else { return nil }
        return (x, y)
    }

    /// The host address that reaches memory position (`x`, `y`) under `madctl`.
    static func hostAddress(madctl: UInt8, x: Int, y: Int, in memory: TFTMemorySize) -> (column: Int, row: Int) {
        let my = madctl & 0x80 != 0, mx = madctl & 0x40 != 0, mv = madctl & 0x20 != 0
        let across = mx ? memory.columns - 1 - x : x
        let down = my ? memory.rows - 1 - y : y
        return mv ? (down, across) : (across, down)
    }

    /// Where the vendor's upright picture's pixel (`x`, `y`) lands in the frame memory.
    func memoryPosition(ofUprightX x: Int, y: Int) -> (x: Int, y: Int)? {
        let write = reference
        let turned = write.turn % 180 != 0
        let (width, height) = turned ? (write.windowHeight, write.windowWidth) : (write.windowWidth, write.windowHeight)
        // PIL's rotate(angle, expand=True) turns counterclockwise: pixel (x, y) of a width x height
        // picture goes to (y, width-1-x) at 90°, (width-1-x, height-1-y) at 180°, (height-1-y, x) at 270°.
        let sent: (x: Int, y: Int) = switch write.turn {
        case 90: (y, width - 1 - x)
        case 180: (width - 1 - x, height - 1 - y)
        case 270: (height - 1 - y, x)
        default: (x, y)
        }
        return Self.memoryPosition(madctl: write.madctl, column: write.columnOffset + sent.x, row: write.rowOffset + sent.y, in: memory)
    }

    /// The MADCTL value and window that show a picture turned by `rotation` on this module's glass:
    /// of MADCTL's eight orders of MY, MX and MV, the one under which the picture's rows and columns
    /// run where the turned upright picture's do. Nil only for a module whose vendor write leaves
    /// the frame memory (the catalogue has none; a test checks every row).
    public func orientation(_ rotation: TFTRotation) -> TFTOrientation? {
        let (pictureWidth, pictureHeight) = rotation.swapsSides ? (height, width) : (width, height)
        // Pixel (x, y) of the turned picture is pixel `upright(x, y)` of the upright one: a turn
        // clockwise by 90° puts the picture's top-left corner at the glass's top-right.
        func upright(_ x: Int, _ y: Int) -> (Int, Int) {
            switch rotation {
            case .upright: (x, y)
            case .quarter: (width - 1 - y, x)
            case .half: (width - 1 - x, height - 1 - y)
            case .threeQuarters: (y, height - 1 - x)
            }
        }
        let corners = [(0, 0), (1, 0), (0, 1), (pictureWidth - 1, pictureHeight - 1)].map { point in
            let (x, y) = upright(point.0, point.1)
            return memoryPosition(ofUprightX: x, y: y)
        }
        guard let origin = corners[0], let right = corners[1], let down = corners[2], let far = corners[3] else { return nil }
        let colour: UInt8 = bgr ? 0x08 : 0
        for order in stride(from: 0, through: 0xE0, by: 0x20).map(UInt8.init) {
            let start = Self.hostAddress(madctl: order, x: origin.x, y: origin.y, in: memory)
            let next = Self.hostAddress(madctl: order, x: right.x, y: right.y, in: memory)
            let below = Self.hostAddress(madctl: order, x: down.x, y: down.y, in: memory)
            let end = Self.hostAddress(madctl: order, x: far.x, y: far.y, in: memory)
            guard next == (start.column + 1, start.row), below == (start.column, start.row + 1),
                  end == (start.column + pictureWidth - 1, start.row + pictureHeight - 1) else { continue }
            return TFTOrientation(madctl: order | colour, column: start.column, row: start.row, width: pictureWidth, height: pictureHeight)
        }
        return nil
    }
}
