/// One picture for an LED matrix or segment display, with how it blinks and how bright its
/// on/off dies are: what a matrix driver is handed.
public struct MatrixFrame: Sendable, Equatable {
    /// What the positions show.
    public enum Content: Sendable, Equatable {
        /// A matrix's positions.
        case pixels(MatrixLevels)
        /// A segment display's digits.
        case segments(SegmentPicture)
    }

    /// What the positions show.
    public var content: Content
    /// Whether the lit positions blink, and how fast (chips that blink do it themselves).
    public var blink: MatrixBlink
    /// The duty of on/off dies (``MatrixDies/onOff``, ``MatrixDies/redGreen``, segments), 0…1:
    /// their levels say only on or off, so the chip's dimming makes the light; 0 is dark. Dies with
    /// levels carry their light in the levels and ignore it.
    public var dimming: Double

    /// `content`, blinking as `blink` says, on/off dies at `dimming`.
    public init(_ content: Content, blink: MatrixBlink = .steady, dimming: Double = 1) {
        self.content = content
        self.blink = blink
        self.dimming = min(1, max(0, dimming))
    }

    /// Whether nothing is lit (or the dimming leaves on/off dies dark).
    public var isBlank: Bool {
        switch content {
        case .pixels(let levels): levels.isBlank
        case .segments(let picture): picture.isBlank || dimming == 0
        }
    }
}

/// How a matrix's lit positions blink: half of each period on, then half off, the rates the
/// HT16K33 offers in hardware (Display Setup Register, p. 11: 2 Hz, 1 Hz, 0.5 Hz).
public enum MatrixBlink: Sendable, Equatable, CaseIterable {
    /// No blinking.
    case steady
    /// Twice a second.
    case twoHertz
    /// Once a second.
    case oneHertz
    /// Once every two seconds.
    case halfHertz

    /// One on half and one off half, in seconds (0 when steady).
    public var period: Double {
        switch self {
        case .steady: 0
        case .twoHertz: 0.5
        case .oneHertz: 1
        case .halfHertz: 2
        }
    }

    /// Whether the lit positions are dark `elapsed` seconds after the blinking began (the on
    /// half comes first).
    public func isOff(after elapsed: Double) -> Bool {
        guard period > 0, elapsed > 0 else { return false }
        return elapsed.truncatingRemainder(dividingBy: period) >= period / 2
    }
}
