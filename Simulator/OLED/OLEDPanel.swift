/// The glass of an OLED module: how many pixels it has and which controller outputs drive them.
///
/// Each pixel sits where one segment (SEG) line crosses one common (COM) line; the module maker
/// bonds the glass's columns and rows to the controller's output pads. Usually columns go to
/// segments and rows to COM pads; on SH1107 modules it is the other way round, because that
/// controller's RAM columns drive the COM lines. The controller model decides from the registers it
/// really received what each crossing shows, so a driver that sends a wrong COM configuration,
/// offset or re-map gets the garbled, shifted or flipped picture a real module would show.
/// ``OLEDModuleModel`` works out the bonding of each module as sold.
public struct OLEDPanel: Sendable, Equatable {
    /// A controller output pad a glass line is bonded to.
    public enum Electrode: Sendable, Equatable {
        /// A segment (column) output.
        case segment(Int)
        /// A common (row) output.
        case common(Int)
        /// Bonded to no output: the line stays dark (a stand-in glass larger than the controller drives).
        case unbonded
    }

    /// The glass's width in pixels.
    public let width: Int
    /// The glass's height in pixels.
    public let height: Int
    /// The pad each glass column (x) is bonded to.
    public let columns: [Electrode]
    /// The pad each glass row (y) is bonded to.
    public let rows: [Electrode]
    /// Whether the panel's high voltage comes from the board, so the controller's own charge pump
    /// or DC-DC converter need not run.
    public let externalSupply: Bool

    /// A glass whose `columns` and `rows` are bonded to these outputs, powered by an external supply
    /// or the charge pump.
    public init(width: Int, height: Int, columns: [Electrode], rows: [Electrode], externalSupply: Bool) {
        precondition(columns.count == width && rows.count == height, "one electrode per glass line")
        func all(_ lines: [Electrode], _ segment: Bool) -> Bool {
            lines.allSatisfy {
                switch $0 {
                case .segment: segment
                case .common: !segment
                case .unbonded: true
                }
            }
        }
        precondition((all(columns, true) && all(rows, false)) || (all(columns, false) && all(rows, true)),
                     "a pixel sits where a segment line crosses a common line")
        self.width = width
        self.height = height
        self.columns = columns
        self.rows = rows
        self.externalSupply = externalSupply
    }

    /// Whether every glass line is bonded to an output.
    public var isFullyBonded: Bool { !(columns + rows).contains(.unbonded) }

    /// The segment and COM pad that drive pixel (`x`, `y`), `nil` if either line is unbonded.
    func electrodes(x: Int, y: Int) -> (segment: Int, pad: Int)? {
        switch (columns[x], rows[y]) {
        case (.segment(let segment), .common(let pad)), (.common(let pad), .segment(let segment)): (segment, pad)
        default: nil
        }
    }
}
