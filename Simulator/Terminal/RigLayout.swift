import RealModule

/// Where each device of a rig goes in a terminal of a given size, and how big it is drawn: the
/// arithmetic of the live view, apart from any terminal so that it can be tested.
///
/// A frame is the title on the first row, the devices under it, then the status lines; it never
/// has more rows than the terminal, nor a line wider. Devices are packed left to right into
/// shelves, a new shelf under the tallest device of the last when the next does not fit beside.
/// Of the ways to draw the rig, the most faithful that fits is taken: displays at full
/// resolution before half and quarter (a braille dot then stands for 2x2 or 4x4 pixels), rings
/// as circles before rows, then room around the devices before none.
public struct RigLayout: Sendable, Equatable {
    /// How a device is drawn.
    public enum Form: Sendable, Equatable {
        /// A display in braille, each dot standing for `scale`x`scale` pixels, framed, with its
        /// name and resolution in the frame's top edge.
        case glass(scale: Int)
        /// A colour display in half blocks (a cell is two pixels, one above the other, in 24-bit
        /// colour), each standing for `scale`x`scale` pixels, framed like ``glass(scale:)``.
        case halfBlocks(scale: Int)
        /// A ring as a circle of LEDs, one cell each, its name centred under it.
        case circle(radius: Double)
        /// LEDs after a label `label` columns wide (the name and a space), `perRow` a row.
        case row(label: Int, perRow: Int)
        /// A matrix, framed, its name in the frame's top edge, an LED every `pitch` columns.
        case matrix(pitch: Int)
        /// A segment display, framed, its name in the frame's top edge, each digit drawn in
        /// characters.
        case digits
    }

    /// One device's place: `device` indexes the shapes laid out; `x` and `y` are the column and
    /// row of its top left cell in the frame.
    public struct Placement: Sendable, Equatable {
        /// Which of the shapes laid out.
        public var device: Int
        /// How it is drawn.
        public var form: Form
        /// The column of its top left cell.
        public var x: Int
        /// The row of its top left cell.
        public var y: Int
        /// Its width in cells.
        public var width: Int
        /// Its height in cells.
        public var height: Int
    }

    /// How the rig is drawn, from the most faithful to the most compact.
    struct Style: Sendable, Equatable {
        var scale: Int
        var circles: Bool
        /// Two columns between devices on a shelf and a blank row between shelves, and around
        /// the devices; otherwise one column and none.
        var spacious: Bool
    }

    static let styles: [Style] = [1, 2, 4].flatMap { scale in
        [true, false].flatMap { circles in [true, false].map { Style(scale: scale, circles: circles, spacious: $0) } }
    }

    /// Narrower than this, even a status line says too little to be worth a live view.
    public static let leastColumns = 20
    /// The fewest LEDs a row of a wrapped strip shows (all of them when there are fewer).
    static let leastPerRow = 8
    /// Names longer than this are cut in a row's label.
    static let longestLabel = 16

    /// The terminal laid out for.
    public let size: TerminalSize
    /// Each device's place.
    public let placements: [Placement]
    /// The braille dot's side in pixels for every display: 1, 2 or 4 (a colour display's half
    /// block's side is twice that: a half block is a quarter of a braille cell).
    public let displayScale: Int
    /// The first row of the status lines; they may use every row from there to the last.
    public let statusRow: Int

    /// The rows left for status lines (at least one).
    public var statusRows: Int { size.rows - statusRow }

    /// The most faithful layout of `shapes` in a terminal of `size`, or nil when even the most
    /// compact does not fit.
    public static func fit(_ shapes: [DeviceShape], in size: TerminalSize) -> RigLayout? {
        guard size.columns >= leastColumns else { return nil }
        for style in styles {
            guard let (placements, height) = pack(shapes, style: style, columns: size.columns) else { continue }
            let gap = style.spacious && height > 0 ? 1 : 0
            let statusRow = 1 + gap + height + gap
            if statusRow < size.rows {
                return RigLayout(
                    size: size, placements: placements.map { $0.moved(down: 1 + gap) }, displayScale: style.scale, statusRow: statusRow)
            }
        }
        return nil
    }

    /// The smallest terminal the most compact layout of `shapes` fits, as wide as `columns` when
    /// that is enough: what to ask for when a terminal is too small.
    public static func leastSize(for shapes: [DeviceShape], columns: Int) -> TerminalSize {
        let compact = styles[styles.count - 1]
        let narrowest = shapes.map { leastWidth($0, style: compact) }.max() ?? 0
        let width = max(columns, narrowest, leastColumns)
        let height = pack(shapes, style: compact, columns: width)?.height ?? 0
        return TerminalSize(columns: width, rows: 1 + height + 1)
    }

    /// Places `shapes` in shelves `columns` wide: their places (rows from 0) and the rows used,
    /// or nil when one of them cannot be drawn that narrow.
    static func pack(_ shapes: [DeviceShape], style: Style, columns: Int) -> (placements: [Placement], height: Int)? {
        let across = style.spacious ? 2 : 1, down = style.spacious ? 1 : 0
        var placements: [Placement] = []
        var x = 0, y = 0, shelf = 0
        func newShelf() {
            if shelf > 0 { y += shelf + down }
            x = 0
            shelf = 0
        }
        func place(_ device: Int, _ form: Form, width: Int, height: Int) {
            placements.append(Placement(device: device, form: form, x: x, y: y, width: width, height: height))
            x += width + across
            shelf = max(shelf, height)
        }
        for (device, shape) in shapes.enumerated() {
            if let (form, width, height) = box(shape, style: style) {
                guard width <= columns else { return nil }
                if x > 0, x + width > columns { newShelf() }
                place(device, form, width: width, height: height)
                continue
            }
            let count = shape.count
            let label = labelWidth(shape.name)
            if x > 0, x + label + count > columns { newShelf() }
            let perRow = min(count, columns - x - label)
            guard perRow >= min(count, leastPerRow) else { return nil }
            let rows = perRow == 0 ? 1 : (count + perRow - 1) / perRow
            place(device, .row(label: label, perRow: perRow), width: label + perRow, height: rows)
        }
        return (placements, shelf > 0 ? y + shelf : y)
    }

    /// The form and size of a device that is drawn as a box (a display, a ring as a circle); nil
    /// for one drawn as rows of LEDs.
    static func box(_ shape: DeviceShape, style: Style) -> (Form, width: Int, height: Int)? {
        switch shape.kind {
        case .display(let width, let height):
            let dots = (width: (width + style.scale - 1) / style.scale, height: (height + style.scale - 1) / style.scale)
            return (.glass(scale: style.scale), (dots.width + 1) / 2 + 2, (dots.height + 3) / 4 + 2)
        case .colourDisplay(let width, let height):
            let scale = 2 * style.scale
            let blocks = (width: (width + scale - 1) / scale, height: (height + scale - 1) / scale)
            return (.halfBlocks(scale: scale), blocks.width + 2, (blocks.height + 1) / 2 + 2)
        case .ring(let count) where style.circles:
            let radius = ringRadius(count: count)
            let ring = ringSize(radius: radius)
            return (.circle(radius: radius), max(ring.width, min(shape.name.count, longestLabel)), ring.height + 1)
        case .matrix(let width, let height):
            let pitch = style.scale == 1 ? 2 : 1
            return (.matrix(pitch: pitch), max(width * pitch - (pitch - 1), min(shape.name.count + 2, longestLabel)) + 2, height + 2)
        case .digits(let count, let fourteen, let colon):
            let art = fourteen ? DigitArt.fourteen : DigitArt.seven
            return (.digits, max(count * art.width + (colon ? 1 : 0), min(shape.name.count + 2, longestLabel)) + 2, art.height + 2)
        case .ring, .row:
            return nil
        }
    }

    /// The narrowest a device can be drawn in `style`.
    static func leastWidth(_ shape: DeviceShape, style: Style) -> Int {
        box(shape, style: style)?.width ?? labelWidth(shape.name) + min(shape.count, leastPerRow)
    }

    /// A row's label: the name (cut at ``longestLabel``) and a space.
    static func labelWidth(_ name: String) -> Int { min(name.count, longestLabel) + 1 }

    /// Grid size of a ring: the smallest ellipse (two columns per row, as terminal cells are tall)
    /// on which every LED gets a cell of its own.
    static func ringSize(radius: Double) -> (width: Int, height: Int) {
        (Int(2 * radius) + 1, Int(radius) + 1)
    }

    static func ringRadius(count: Int) -> Double {
        var radius = max(2, Double(count) / 4)
        while Set(ringPositions(count: count, radius: radius).map { $0.y * 1024 + $0.x }).count < count { radius += 1 }
        return radius
    }

    /// LED index i sits at angle i/count clockwise from 12 o'clock, as on a ring seen from its
    /// LED side.
    static func ringPositions(count: Int, radius: Double) -> [(x: Int, y: Int)] {
        (0..<count).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let x = radius + radius * Double.sin(angle), y = radius / 2 - radius / 2 * Double.cos(angle)
            return (Int(x.rounded()), Int(y.rounded()))
        }
    }
}

extension RigLayout.Placement {
    func moved(down rows: Int) -> Self {
        var moved = self
        moved.y += rows
        return moved
    }
}

extension DeviceShape {
    /// How many LEDs it has (none for a display).
    var count: Int {
        switch kind {
        case .display, .matrix, .digits, .colourDisplay: 0
        case .ring(let count), .row(let count): count
        }
    }
}
