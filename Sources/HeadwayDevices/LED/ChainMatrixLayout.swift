/// How the LEDs of a chain are laid out as a matrix: panels of `width` × `height` LEDs, each wired
/// from a corner along rows or columns, every line the same way (progressive) or each back the way
/// the last came (serpentine), and panels tiled the same ways. These are the choices Adafruit's
/// NeoMatrix library names for NeoPixel matrices (adafruit/Adafruit_NeoMatrix
/// `Adafruit_NeoMatrix.h`: `NEO_MATRIX_TOP/BOTTOM`, `LEFT/RIGHT`, `ROWS/COLUMNS`,
/// `PROGRESSIVE/ZIGZAG`, and the same for `NEO_TILE_*`).
public struct ChainMatrixLayout: Sendable, Equatable {
    /// A corner of a panel (or of the tiling).
    public enum Corner: String, Sendable, CaseIterable {
        /// The top left corner.
        case topLeft = "top-left"
        /// The top right corner.
        case topRight = "top-right"
        /// The bottom left corner.
        case bottomLeft = "bottom-left"
        /// The bottom right corner.
        case bottomRight = "bottom-right"
    }

    /// Whether lines run across or down.
    public enum Lines: String, Sendable, CaseIterable {
        /// Lines run across, a row at a time.
        case rows
        /// Lines run down, a column at a time.
        case columns
    }

    /// How one panel's LEDs (or the panels of the tiling) follow each other.
    public struct Wiring: Sendable, Equatable {
        /// Where the first is.
        public var start: Corner
        /// Whether they run along rows or columns.
        public var lines: Lines
        /// Whether each line runs back the way the one before came.
        public var serpentine: Bool

        /// From `start` along `lines`, serpentine or not.
        public init(start: Corner = .topLeft, lines: Lines = .rows, serpentine: Bool = false) {
            self.start = start
            self.lines = lines
            self.serpentine = serpentine
        }

        /// The place in the order of position (`x`, `y`) of a `width` × `height` grid.
        func order(x: Int, y: Int, width: Int, height: Int) -> Int {
            let fromLeft = start == .topLeft || start == .bottomLeft
            let fromTop = start == .topLeft || start == .topRight
            let across = fromLeft ? x : width - 1 - x
            let down = fromTop ? y : height - 1 - y
            let (line, along, length) = lines == .rows ? (down, across, width) : (across, down, height)
            return line * length + (serpentine && line % 2 == 1 ? length - 1 - along : along)
        }
    }

    /// One panel's LEDs across.
    public var width: Int
    /// One panel's LEDs down.
    public var height: Int
    /// Panels across.
    public var panelsAcross: Int
    /// Panels down.
    public var panelsDown: Int
    /// How each panel's LEDs follow each other.
    public var wiring: Wiring
    /// How the panels follow each other.
    public var panelWiring: Wiring
    /// How the whole matrix is turned.
    public var rotation: MatrixRotation

    /// A tiling of `panelsAcross` × `panelsDown` panels of `width` × `height` LEDs.
    public init(
        width: Int, height: Int, panelsAcross: Int = 1, panelsDown: Int = 1, wiring: Wiring = Wiring(), panelWiring: Wiring = Wiring(), rotation: MatrixRotation = .upright
    ) {
        self.width = width
        self.height = height
        self.panelsAcross = panelsAcross
        self.panelsDown = panelsDown
        self.wiring = wiring
        self.panelWiring = panelWiring
        self.rotation = rotation
    }

    /// The LEDs the matrix takes of the chain.
    public var ledCount: Int { width * height * panelsAcross * panelsDown }

    /// The matrix as wired, before rotation: LEDs across and down.
    public var wiredSize: (width: Int, height: Int) { (width * panelsAcross, height * panelsDown) }

    /// The picture's size, turned as mounted.
    public var faceSize: (width: Int, height: Int) { rotation.faceSize(width: wiredSize.width, height: wiredSize.height) }

    /// The chain index of the LED that shows the picture's position (`x`, `y`).
    public func index(x: Int, y: Int) -> Int {
        let size = wiredSize
        let at = rotation.modulePosition(x: x, y: y, width: size.width, height: size.height)
        let panel = panelWiring.order(x: at.x / width, y: at.y / height, width: panelsAcross, height: panelsDown)
        return panel * width * height + wiring.order(x: at.x % width, y: at.y % height, width: width, height: height)
    }
}
