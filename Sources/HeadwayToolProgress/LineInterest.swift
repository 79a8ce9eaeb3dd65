/// The lines a format reads on one of the tool's streams, told by their bytes before any line is
/// decoded: the rest of the output passes without being looked at further, so that a tool's
/// output reaches its reader at the speed of a pipe whatever it prints.
public struct LineInterest: Sendable {
    enum Kind: Sendable { case none, every, some }
    let kind: Kind
    /// A line with one of these is read (``LineMarks``: `#` is any ASCII digit).
    let marks: LineMarks
    /// A line ended by a carriage return (a meter's redraw, or the blank one that clears it) is read.
    let carriageReturns: Bool

    private init(_ kind: Kind, marks: [String] = [], carriageReturns: Bool = false) {
        self.kind = kind
        self.marks = LineMarks(marks)
        self.carriageReturns = carriageReturns
    }

    /// No line: the stream passes unread (to a file or a pipe, by splice(2) where the system can).
    public static let none = LineInterest(.none)
    /// Every line (a stream whose every line may change what the format reads next).
    public static let every = LineInterest(.every)

    /// The lines that hold one of `marks` (`#` standing for any ASCII digit), and with
    /// `carriageReturns` those ended by a carriage return. A format reads nothing in a line
    /// without them: the marks are a superset of what its patterns need.
    public static func lines(containing marks: [String], carriageReturns: Bool = false) -> LineInterest {
        LineInterest(marks.isEmpty && !carriageReturns ? .none : .some, marks: marks, carriageReturns: carriageReturns)
    }

    /// Whether no line is read.
    public var isNone: Bool { kind == .none }

    /// Whether the line `bytes[from..<to]`, ended by `end`, is read.
    func wants(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int, end: ToolLine.End) -> Bool {
        switch kind {
        case .none: false
        case .every: true
        case .some: (carriageReturns && end == .carriageReturn) || marks.found(in: bytes, from: from, to: to)
        }
    }

    /// Whether `bytes[from..<to]`, a piece of a line too long to read, may have been wanted (for
    /// the warning that it passed unread).
    func marked(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        switch kind {
        case .none: false
        case .every: true
        case .some: marks.found(in: bytes, from: from, to: to)
        }
    }
}
