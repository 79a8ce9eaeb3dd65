import HeadwayDevices

/// An OLED module as sold: a controller, glass of a size, and how the two are bonded.
///
/// The bonding is not in any datasheet; what is published is the vendor's initialisation, which
/// shows the picture upright on the vendor's module. So each module records the commands of that
/// initialisation that place the picture (re-maps, scan direction, COM configuration, multiplex,
/// offset, start line) and where the vendor writes the picture in RAM, with the source; the bonding
/// is then the one under which those commands put RAM column `firstColumn + x`, line `firstRow + y`
/// at glass pixel (x, y), worked out by the controller model itself.
public struct OLEDModuleModel: Sendable {
    /// The module's controller.
    public let controller: OLEDController
    /// The glass's width.
    public let width: Int
    /// The glass's height.
    public let height: Int
    /// What the module is, for messages.
    public let name: String
    /// The vendor's layout commands, as sent with D/C# low.
    public let layoutCommands: [UInt8]
    /// The RAM column the vendor writes the glass's first column to (SSD1327: a column address of
    /// two pixels), and the RAM line of its first row.
    public let firstColumn: Int
    /// The RAM line the vendor writes the glass's first row to.
    public let firstRow: Int
    /// SSD1327: the vendor packs the even pixels (x = 0, 2, …) into the high nibble of each byte.
    public let evenPixelInHighNibble: Bool
    /// The panel voltage comes from the board (no charge pump / DC-DC needed).
    public let externalSupply: Bool
    /// Where the facts come from.
    public let source: String

    init(_ controller: OLEDController, _ width: Int, _ height: Int, name: String, layout: [UInt8], firstColumn: Int = 0, firstRow: Int = 0,
         evenPixelInHighNibble: Bool = false, externalSupply: Bool, source: String) {
        self.controller = controller
        self.width = width
        self.height = height
        self.name = name
        layoutCommands = layout
        self.firstColumn = firstColumn
        self.firstRow = firstRow
        self.evenPixelInHighNibble = evenPixelInHighNibble
        self.externalSupply = externalSupply
        self.source = source
    }

    /// The module with this controller and glass size, if one is modelled.
    public static func module(controller: OLEDController, width: Int, height: Int) -> OLEDModuleModel? {
        catalogue.first { $0.controller == controller && $0.width == width && $0.height == height }
    }

    /// The glass and its bonding: the pads that show the vendor's picture upright. A glass line no
    /// output shows under the vendor's layout is ``OLEDPanel/Electrode/unbonded`` (never so for the
    /// catalogue's modules; a test checks it).
    public var panel: OLEDPanel {
        var state = OLEDChipState(controller: controller)
        for byte in layoutCommands { state.take(byte, isData: false) }
        precondition(state.protocolErrors.isEmpty, "\(name): layout commands rejected: \(state.protocolErrors)")
        func common(_ pad: Int?) -> OLEDPanel.Electrode { pad.map { .common($0) } ?? .unbonded }
        func segment(_ segment: Int, below count: Int) -> OLEDPanel.Electrode { (0..<count).contains(segment) ? .segment(segment) : .unbonded }
        let columns: [OLEDPanel.Electrode]
        let rows: [OLEDPanel.Electrode]
        switch state {
        case .monochrome(let r) where r.geometry.columnsOnCommons:
            // SH1107: glass columns are RAM columns, driven by COM lines; rows are bits, on segments.
            columns = (0..<width).map { common(r.pad(showing: firstColumn + $0)) }
            rows = (0..<height).map { segment(r.segment(showing: firstRow + $0), below: r.geometry.segments) }
        case .monochrome(let r):
            columns = (0..<width).map { segment(r.segment(showing: firstColumn + $0), below: r.geometry.segments) }
            rows = (0..<height).map { common(r.pad(showing: firstRow + $0)) }
        case .greyscale(let r):
            columns = (0..<width).map { x in
                let column = firstColumn + x / 2
                return column < 64 ? .segment(r.segment(forColumn: column, highNibble: (x % 2 == 0) == evenPixelInHighNibble)) : .unbonded
            }
            rows = (0..<height).map { common(r.pad(showing: firstRow + $0)) }
        }
        return OLEDPanel(width: width, height: height, columns: columns, rows: rows, externalSupply: externalSupply)
    }

    /// A glass of a size no module is modelled in: the controller's first module's bonding,
    /// stretched or cut to `width`x`height`, so that a caller asking for the wrong size gets a
    /// protocol error and a picture rather than a crash.
    static func standIn(controller: OLEDController, width: Int, height: Int) -> OLEDModuleModel {
        let model = catalogue.first { $0.controller == controller }!
        return OLEDModuleModel(controller, width, height, name: "stand-in \(controller.rawValue) \(width)x\(height)", layout: model.layoutCommands,
                          firstColumn: model.firstColumn, firstRow: model.firstRow, evenPixelInHighNibble: model.evenPixelInHighNibble,
                          externalSupply: model.externalSupply, source: "none: no such module is modelled")
    }
}
