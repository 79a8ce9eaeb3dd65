/// A colour TFT module as sold: a controller, glass of a size placed somewhere in its frame memory,
/// the panel's colour filter order and inversion, and where its lines go.
///
/// Where the glass sits is not in any datasheet. What vendors publish is how they write a picture
/// that shows upright: MADCTL, the window's offsets, and sometimes a turn of the picture in
/// software. So each module records that write (``reference``) with its source, and the glass is
/// the frame memory that write reaches, worked out by the controller model's own addressing. The
/// other rotations vendors publish (``rotations``) must then reach the same glass: the tests check
/// every one, which is how vendors' disagreements show.
public struct TFTModuleModel: Sendable {
    /// What the module is, for messages.
    public let name: String
    /// The module's controller.
    public let controller: TFTControllerModel
    /// The glass's width in its reference orientation.
    public let width: Int
    /// The glass's height in its reference orientation.
    public let height: Int
    /// The frame memory the module's bonding selects (ST7735: the GM pins; others: the family's).
    public let memory: TFTRAMSize
    /// The vendor's write that shows its picture upright on the glass.
    public let reference: TFTModuleRotation
    /// Every rotation a vendor publishes for the module, the reference among them.
    public let rotations: [TFTModuleRotation]
    /// The vendor sets MADCTL's BGR bit for right colours: the colour filter is blue-green-red in
    /// the order the source outputs count.
    public let bgrPanel: Bool
    /// The vendor sends INVON for right colours (a normally-black IPS panel): without it the
    /// glass shows every level inverted.
    public let needsInversion: Bool
    /// The backlight's switch, if it is on a GPIO line of the Pi.
    public let backlight: TFTBacklightWiring?
    /// The Pi's lines the vendor wires D/C, RES# and chip select to (`nil`: a breakout wired by
    /// whoever uses it).
    public let wiring: TFTModuleWiring?
    /// Where the facts come from.
    public let source: String

    init(_ name: String, _ controller: TFTControllerModel, width: Int, height: Int, memory: TFTRAMSize? = nil,
         reference: TFTModuleRotation, rotations: [TFTModuleRotation] = [], bgrPanel: Bool, needsInversion: Bool,
         backlight: TFTBacklightWiring?, wiring: TFTModuleWiring?, source: String) {
        self.name = name
        self.controller = controller
        self.width = width
        self.height = height
        self.memory = memory ?? controller.family.ramSize
        self.reference = reference
        self.rotations = rotations.isEmpty ? [reference] : rotations
        self.bgrPanel = bgrPanel
        self.needsInversion = needsInversion
        self.backlight = backlight
        self.wiring = wiring
        self.source = source
    }

    /// The frame memory position each glass pixel shows, row-major (`y * memory.width + x`); `nil`
    /// where the reference write does not reach the memory (never so for the catalogue's modules; a
    /// test checks it).
    public var glassMap: [Int?] {
        var map: [Int?] = []
        map.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                map.append(reference.ramPosition(ofPictureX: x, y: y, in: memory).map { $0.y * memory.width + $0.x })
            }
        }
        return map
    }
}

/// A way a vendor writes a picture on a module: MADCTL, the window it writes, and the turn it gives
/// the picture in software first.
public struct TFTModuleRotation: Sendable, Equatable {
    /// The vendor's name for it: its rotation in degrees.
    public let degrees: Int
    /// The MADCTL value the vendor sends.
    public let madctl: UInt8
    /// The column address the vendor's column 0 goes to (CASET's offset).
    public let columnOffset: Int
    /// The row address the vendor's row 0 goes to (RASET's offset).
    public let rowOffset: Int
    /// The window's width the vendor writes (host columns).
    public let windowWidth: Int
    /// The window's height (host rows).
    public let windowHeight: Int
    /// The turn the vendor gives its picture in software before sending it.
    public let pictureTurn: TFTPictureTurn
    /// Where it comes from.
    public let source: String

    init(_ degrees: Int, madctl: UInt8, columnOffset: Int = 0, rowOffset: Int = 0, window: (width: Int, height: Int),
         pictureTurn: TFTPictureTurn = .none, source: String) {
        self.degrees = degrees
        self.madctl = madctl
        self.columnOffset = columnOffset
        self.rowOffset = rowOffset
        windowWidth = window.width
        windowHeight = window.height
        self.pictureTurn = pictureTurn
        self.source = source
    }

    /// The picture's size before its software turn.
    public var pictureSize: (width: Int, height: Int) {
        pictureTurn.swapsSides ? (windowHeight, windowWidth) : (windowWidth, windowHeight)
    }

    /// The frame memory position the picture's pixel (`x`, `y`) is written to, `nil` if outside it.
    func ramPosition(ofPictureX x: Int, y: Int, in memory: TFTRAMSize) -> (x: Int, y: Int)? {
        let sent = pictureTurn.position(ofX: x, y: y, width: pictureSize.width, height: pictureSize.height)
        return TFTMemoryAccess(value: madctl).ramPosition(column: columnOffset + sent.x, page: rowOffset + sent.y, in: memory)
    }
}

/// A turn a vendor's library gives a picture before sending it, counterclockwise as PIL's
/// `Image.rotate` and numpy's `rot90` turn.
public enum TFTPictureTurn: Int, Sendable, Equatable {
    /// Sent as drawn.
    case none = 0
    /// Turned a quarter, counterclockwise.
    case quarter = 90
    /// Turned half round.
    case half = 180
    /// Turned three quarters, counterclockwise.
    case threeQuarters = 270

    var swapsSides: Bool { self == .quarter || self == .threeQuarters }

    /// Where pixel (`x`, `y`) of a `width` x `height` picture is after the turn.
    func position(ofX x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .none: (x, y)
        case .quarter: (y, width - 1 - x)
        case .half: (width - 1 - x, height - 1 - y)
        case .threeQuarters: (height - 1 - y, x)
        }
    }
}

/// A module's backlight switch on a GPIO line.
public struct TFTBacklightWiring: Sendable, Equatable {
    /// The line (BCM numbering).
    public let line: UInt32
    /// The backlight lights when the line is high.
    public let activeHigh: Bool
    /// The vendor drives it with PWM to dim it.
    public let pwm: Bool
}

/// The Pi's lines a module's controller is wired to, as its vendor wires them.
public struct TFTModuleWiring: Sendable, Equatable {
    /// The SPI chip select (spidev0.N).
    public let chipSelect: Int
    /// D/C (BCM numbering).
    public let dataCommand: UInt32
    /// RES#, if the module brings it to the Pi.
    public let reset: UInt32?
    /// The SPI clock the vendor's library asks for, in Hz.
    public let vendorSPIHz: UInt32
}
