/// What an LED matrix, bar graph or segment display can show, as the style that draws on it sees
/// it: positions of LED dies, or a row of segment digits.
public enum MatrixFace: Sendable, Equatable {
    /// `width` × `height` positions (after the module's rotation), each with the dies `dies` says.
    case pixels(width: Int, height: Int, dies: MatrixDies)
    /// A row of `count` digits of `kind`, each with its decimal point, and a colon between the
    /// second and third digit when `colon` (a clock display's).
    case segments(count: Int, kind: SegmentKind, colon: Bool)

    /// Positions across (digits on a segment display).
    public var width: Int {
        switch self {
        case .pixels(let width, _, _): width
        case .segments(let count, _, _): count
        }
    }
}

/// What the dies at one position of a matrix can show.
public enum MatrixDies: Sendable, Equatable {
    /// One die, on or off; how bright lit dies are is the chip's one dimming setting.
    case onOff
    /// A red and a green die (both lit: yellow), each on or off, dimmed chip-wide.
    case redGreen
    /// One die of 256 levels (PWM).
    case levels
    /// A red, a green and a blue die of 256 levels each.
    case rgb

    /// Whether a position has levels between off and full (otherwise the chip's dimming makes
    /// the light).
    public var hasLevels: Bool { self == .levels || self == .rgb }
}

/// How a digit of a segment display is drawn.
public enum SegmentKind: Sendable, Equatable {
    /// Seven segments, A–G, and a decimal point.
    case seven
    /// Fourteen segments (A–F, G1, G2, H, J, K, L, M, N) and a decimal point: letters too.
    case fourteen
}
