import Headway
import HeadwayYAML

/// Reading the keys LED matrix chips share: the I2C address in a chip's range, the rotation, a
/// layout that may be another chip's, and the `matrix:` layout of an LED chain.
extension DeviceSection {
    /// The chip's I2C address from `address:` (`range` the addresses its pins strap it to; the first
    /// when left out), refusing the 8-bit form and addresses the chip cannot have.
    func i2cAddress(in range: ClosedRange<UInt8>, default fallback: UInt8, chip: String, pins: String) throws(ConfigurationError) -> UInt8 {
        guard let value = try int("address", 0x00...0xFF) else { return fallback }
        let span = "\(hexByte(range.lowerBound))–\(hexByte(range.upperBound))"
        if value > 0x7F, range.contains(UInt8(value >> 1)) {
            throw error("address", "\(hexByte(UInt8(value))) is the 8-bit form (the address shifted left, with the write bit) of \(hexByte(UInt8(value >> 1))); write address: \(hexByte(UInt8(value >> 1)).lowercased())")
        }
        guard range.contains(UInt8(value)) else {
            throw error("address", "the \(chip) answers at \(span) (\(pins)), not \(hexByte(UInt8(value))); set the address its jumpers select")
        }
        return UInt8(value)
    }

    /// How the module is mounted (`rotation:` 0, 90, 180 or 270), when `turns` allows turning.
    func matrixRotation(turns: Bool = true, what: String) throws(ConfigurationError) -> MatrixRotation {
        let rotation = try choice("rotation", MatrixRotation.allCases.map { (String($0.rawValue), $0) }) ?? .upright
        guard turns || rotation == .upright else {
            throw error("rotation", "\(what) reads only one way up; leave rotation out")
        }
        return rotation
    }

    /// The required `layout:` among `layouts` of `chip`; a layout of another chip says which
    /// driver drives it.
    func matrixLayout<Layout>(_ layouts: [(String, Layout)], chip: String) throws(ConfigurationError) -> Layout {
        let names = layouts.map(\.0).joined(separator: ", ")
        let text = try string("layout")?.lowercased()
        guard let text else { throw error("layout", at: "driver", "missing: the module the \(chip) is on (\(names))") }
        if let match = layouts.first(where: { $0.0 == text }) { return match.1 }
        if let owner = MatrixLayoutNames.driver(of: text), owner != driver {
            throw error("layout", "\(text) is a layout of the \(owner.uppercased()), not of the \(chip): set driver: \(owner) (the \(chip)'s layouts are \(names))")
        }
        throw error("layout", "\"\(text)\" is not a layout of the \(chip); use one of \(names)")
    }

    /// An LED chain's `matrix:` layout, if it has one: panels of `width` × `height` LEDs wired from
    /// `start` along `lines`, `serpentine` or `progressive`, `panels` across and down wired the same
    /// ways, the whole turned by `rotation`. It must fit the chain's `count`.
    func chainMatrix(count: Int) throws(ConfigurationError) -> ChainMatrixLayout? {
        guard let node = map["matrix"] else { return nil }
        let context = "\(key).matrix"
        guard let matrix = node.mapping else {
            throw error("matrix", "must be a mapping (width, height, start, lines, wiring, rotation, panels…)")
        }
        let keys = ["width", "height", "start", "lines", "wiring", "rotation", "panels", "panel-start", "panel-lines", "panel-wiring"]
        try reader.allowOnly(keys, in: matrix, context: context)
        for field in ["layout", "start", "clockwise", "reversed"] where has(field) {
            throw error(field, "is for a strip or a ring; a chain with matrix: is drawn as a picture (set its wiring under matrix:)")
        }
        func required(_ field: String) throws(ConfigurationError) -> Int {
            guard let value = matrix[field] else { throw reader.error(node, "\(context).\(field)", "missing: the LEDs of one panel \(field == "width" ? "across" : "down")") }
            return try reader.int(value, "\(context).\(field)", 1...256)
        }
        func option<T>(_ field: String, _ options: [(String, T)]) throws(ConfigurationError) -> T? {
            try matrix[field].map { n throws(ConfigurationError) in try reader.choice(n, "\(context).\(field)", options) }
        }
        let corners = ChainMatrixLayout.Corner.allCases.map { ($0.rawValue, $0) }
        let lines = ChainMatrixLayout.Lines.allCases.map { ($0.rawValue, $0) }
        let wirings = [("progressive", false), ("serpentine", true), ("zigzag", true)]
        let width = try required("width"), height = try required("height")
        var across = 1, down = 1
        if let panels = matrix["panels"] {
            let text = try reader.string(panels, "\(context).panels")
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (1...64).contains(parts[0]), (1...64).contains(parts[1]) else {
                throw reader.error(panels, "\(context).panels", "\"\(text)\" is not ACROSSxDOWN (panels across and down, e.g. 4x1)")
            }
            (across, down) = (parts[0], parts[1])
        }
        let layout = ChainMatrixLayout(
            width: width, height: height, panelsAcross: across, panelsDown: down,
            wiring: .init(start: try option("start", corners) ?? .topLeft, lines: try option("lines", lines) ?? .rows, serpentine: try option("wiring", wirings) ?? false),
            panelWiring: .init(
                start: try option("panel-start", corners) ?? .topLeft, lines: try option("panel-lines", lines) ?? .rows, serpentine: try option("panel-wiring", wirings) ?? false),
            rotation: try option("rotation", MatrixRotation.allCases.map { (String($0.rawValue), $0) }) ?? .upright)
        guard layout.ledCount <= count else {
            let size = across * down == 1 ? "\(width)x\(height)" : "\(across)x\(down) panels of \(width)x\(height)"
            throw error("matrix", "\(size) is \(layout.ledCount) LEDs, more than the chain's count: \(count); set count: \(layout.ledCount), or the matrix's size to the LEDs there are")
        }
        return layout
    }
}

/// The layouts of every LED matrix chip, to say which driver a layout belongs to.
enum MatrixLayoutNames {
    static let byDriver: [(driver: String, layouts: [String])] = [
        ("ht16k33", HT16K33Backpack.allCases.map(\.rawValue) + ["matrix8x8-bicolor"]),
        ("is31fl3731", IS31FL3731Board.allCases.map(\.rawValue)),
        ("max7219", MAX7219Layout.allCases.map(\.rawValue)),
    ]

    /// The driver whose layout `name` is, if any.
    static func driver(of name: String) -> String? { byDriver.first { $0.layouts.contains(name) }?.driver }
}

extension DeviceDriver {
    /// An LED chain drawn as a strip or ring along `layout`, or, with a `matrix`, as a picture.
    static func chain(_ chain: any LEDChainDevice, layout: LEDLayout, matrix: ChainMatrixLayout?, clock: any ProgressClock) -> DeviceDriver {
        guard let matrix else { return .leds(chain, layout: layout) }
        return .matrix(LEDChainMatrix(chain, layout: matrix, clock: clock))
    }
}
