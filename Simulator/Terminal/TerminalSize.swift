/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Equatable, CustomStringConvertible {
    /// Columns of characters.
    public var columns: Int
    /// Rows of characters.
    public var rows: Int

    /// A terminal of `columns` × `rows`.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// What a terminal is taken to be when it does not say: the classic 80x24.
    public static let classic = TerminalSize(columns: 80, rows: 24)

    public var description: String { "\(columns)x\(rows)" }
}
