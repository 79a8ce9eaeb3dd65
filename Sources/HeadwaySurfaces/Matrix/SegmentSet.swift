/// The lit segments of one digit, named as the MAX7219 datasheet (Table 6: A–G, DP) and
/// Adafruit's 14-segment backpack (G1, G2, H, J, K, L, M, N) name them: A the top bar, then
/// clockwise B, C, D, E, F; G the middle bar (G1 its left half, G2 its right); H, J, K the upper
/// diagonal, vertical and diagonal, L, M, N the lower ones, left to right.
public struct SegmentSet: OptionSet, Sendable, Hashable {
    /// One bit a segment, in the order of the constants below.
    public let rawValue: UInt16
    /// The segments whose bits `rawValue` sets.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The top bar.
    public static let a = SegmentSet(rawValue: 1 << 0)
    /// The upper right side.
    public static let b = SegmentSet(rawValue: 1 << 1)
    /// The lower right side.
    public static let c = SegmentSet(rawValue: 1 << 2)
    /// The bottom bar.
    public static let d = SegmentSet(rawValue: 1 << 3)
    /// The lower left side.
    public static let e = SegmentSet(rawValue: 1 << 4)
    /// The upper left side.
    public static let f = SegmentSet(rawValue: 1 << 5)
    /// The middle bar's left half (the whole bar on a 7-segment digit).
    public static let g1 = SegmentSet(rawValue: 1 << 6)
    /// The middle bar's right half (a 7-segment digit's G lights for either half).
    public static let g2 = SegmentSet(rawValue: 1 << 7)
    /// The upper left diagonal.
    public static let h = SegmentSet(rawValue: 1 << 8)
    /// The upper vertical.
    public static let j = SegmentSet(rawValue: 1 << 9)
    /// The upper right diagonal.
    public static let k = SegmentSet(rawValue: 1 << 10)
    /// The lower left diagonal.
    public static let l = SegmentSet(rawValue: 1 << 11)
    /// The lower vertical.
    public static let m = SegmentSet(rawValue: 1 << 12)
    /// The lower right diagonal.
    public static let n = SegmentSet(rawValue: 1 << 13)
    /// The decimal point.
    public static let dp = SegmentSet(rawValue: 1 << 14)
    /// A 7-segment digit's middle bar: either half of a 14-segment one.
    public static let g: SegmentSet = [.g1, .g2]

    /// Whether a 7-segment digit's G is lit (either half of the middle bar).
    public var hasMiddle: Bool { !intersection(.g).isEmpty }
}

/// What a segment display shows: each digit's segments, left to right, and the colon.
public struct SegmentPicture: Sendable, Equatable {
    /// Each digit's lit segments, the leftmost first.
    public var digits: [SegmentSet]
    /// Whether the colon is lit (displays that have one).
    public var colon: Bool

    /// `count` dark digits and the colon off.
    public init(count: Int) {
        digits = Array(repeating: [], count: max(0, count))
        colon = false
    }

    /// The digits and colon given.
    public init(digits: [SegmentSet], colon: Bool = false) {
        self.digits = digits
        self.colon = colon
    }

    /// Whether nothing is lit.
    public var isBlank: Bool { !colon && digits.allSatisfy(\.isEmpty) }
}
