/// Characters as the segments of a 7- or 14-segment digit, drawn for Headway. A 7-segment digit
/// shows digits and the letters that read on it (`done`, `FAIL`, `StOP`, `End`, `h`); a 14-segment
/// digit shows every capital. Lower and upper case are the same glyph, except on 7 segments where
/// only one reads (b, d, h, n, o, r, t, u: lower; A, C, E, F, G, H, J, L, P, S, U: upper). A
/// character a digit cannot show is blank.
public enum SegmentFont {
    /// The segments of `character` on a digit of `kind`.
    public static func segments(_ character: Character, _ kind: SegmentKind) -> SegmentSet {
        switch kind {
        case .seven: seven[Character(character.lowercased())] ?? []
        case .fourteen: fourteen[Character(character.uppercased())] ?? []
        }
    }

    /// What `picture` reads as: each digit the character drawn so (a digit no character draws as
    /// `?`), a lit point as `.`, the colon as `:`; trailing blanks dropped.
    public static func text(of picture: SegmentPicture, kind: SegmentKind) -> String {
        let glyphs = kind == .seven ? seven : fourteen
        var text = ""
        for (index, digit) in picture.digits.enumerated() {
            if index == 2, picture.colon { text += ":" }
            let bars = digit.subtracting(.dp)
            // Several characters may share a glyph (0 and O): the first in order reads.
            text += bars.isEmpty ? " " : glyphs.filter { $0.value == bars }.map(\.key).min().map { String($0) } ?? "?"
            if digit.contains(.dp) { text += "." }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// `text` on `count` digits of `kind`, left-aligned: a `.` lights the point of the digit before
    /// it (or takes a digit of its own after another point, or at the start), a `:` the colon when
    /// `colon`; what does not fit is cut.
    public static func picture(_ text: String, count: Int, kind: SegmentKind, colon: Bool) -> SegmentPicture {
        var picture = SegmentPicture(count: count)
        var index = 0
        for character in text {
            if character == ":" {
                if colon { picture.colon = true }
                continue
            }
            if character == ".", index > 0, index <= count, !picture.digits[index - 1].contains(.dp) {
                picture.digits[index - 1].insert(.dp)
                continue
            }
            guard index < count else { break }
            picture.digits[index] = character == "." ? .dp : segments(character, kind)
            index += 1
        }
        return picture
    }

    /// How many digits `text` takes (points and colons ride on digits).
    public static func width(of text: String) -> Int {
        var count = 0, pointTaken = true
        for character in text {
            switch character {
            case ":": continue
            case ".":
                if pointTaken { count += 1 }
                pointTaken = true
            default:
                count += 1
                pointTaken = false
            }
        }
        return count
    }

    private static let seven: [Character: SegmentSet] = [
        " ": [],
        "0": [.a, .b, .c, .d, .e, .f], "1": [.b, .c], "2": [.a, .b, .g, .e, .d], "3": [.a, .b, .g, .c, .d],
        "4": [.f, .g, .b, .c], "5": [.a, .f, .g, .c, .d], "6": [.a, .f, .g, .e, .d, .c], "7": [.a, .b, .c],
        "8": [.a, .b, .c, .d, .e, .f, .g], "9": [.a, .b, .c, .d, .f, .g],
        "a": [.a, .b, .c, .e, .f, .g], "b": [.c, .d, .e, .f, .g], "c": [.a, .d, .e, .f], "d": [.b, .c, .d, .e, .g],
        "e": [.a, .d, .e, .f, .g], "f": [.a, .e, .f, .g], "g": [.a, .c, .d, .e, .f], "h": [.c, .e, .f, .g],
        "i": [.e, .f], "j": [.b, .c, .d, .e], "l": [.d, .e, .f], "n": [.c, .e, .g], "o": [.c, .d, .e, .g],
        "p": [.a, .b, .e, .f, .g], "q": [.a, .b, .c, .f, .g], "r": [.e, .g], "s": [.a, .f, .g, .c, .d],
        "t": [.d, .e, .f, .g], "u": [.c, .d, .e], "y": [.b, .c, .d, .f, .g],
        "-": [.g], "_": [.d], "=": [.d, .g], "'": [.f], "\"": [.b, .f], "[": [.a, .d, .e, .f], "]": [.a, .b, .c, .d],
        "?": [.a, .b, .g, .e], "°": [.a, .b, .f, .g],
    ]

    private static let fourteen: [Character: SegmentSet] = [
        " ": [],
        "0": [.a, .b, .c, .d, .e, .f, .k, .l], "1": [.b, .c, .k], "2": [.a, .b, .g2, .g1, .e, .d], "3": [.a, .b, .g2, .c, .d],
        "4": [.f, .g1, .g2, .b, .c], "5": [.a, .f, .g1, .n, .d], "6": [.a, .f, .e, .d, .c, .g1, .g2], "7": [.a, .b, .c],
        "8": [.a, .b, .c, .d, .e, .f, .g1, .g2], "9": [.a, .b, .c, .d, .f, .g1, .g2],
        "A": [.a, .b, .c, .e, .f, .g1, .g2], "B": [.a, .b, .c, .d, .g2, .j, .m], "C": [.a, .d, .e, .f],
        "D": [.a, .b, .c, .d, .j, .m], "E": [.a, .d, .e, .f, .g1], "F": [.a, .e, .f, .g1], "G": [.a, .c, .d, .e, .f, .g2],
        "H": [.b, .c, .e, .f, .g1, .g2], "I": [.a, .d, .j, .m], "J": [.b, .c, .d, .e], "K": [.e, .f, .g1, .k, .n],
        "L": [.d, .e, .f], "M": [.b, .c, .e, .f, .h, .k], "N": [.b, .c, .e, .f, .h, .n], "O": [.a, .b, .c, .d, .e, .f],
        "P": [.a, .b, .e, .f, .g1, .g2], "Q": [.a, .b, .c, .d, .e, .f, .n], "R": [.a, .b, .e, .f, .g1, .g2, .n],
        "S": [.a, .c, .d, .f, .g1, .g2], "T": [.a, .j, .m], "U": [.b, .c, .d, .e, .f], "V": [.e, .f, .l, .k],
        "W": [.b, .c, .e, .f, .l, .n], "X": [.h, .k, .l, .n], "Y": [.h, .k, .m], "Z": [.a, .d, .k, .l],
        "-": [.g1, .g2], "+": [.g1, .g2, .j, .m], "*": [.g1, .g2, .h, .j, .k, .l, .m, .n], "/": [.k, .l], "\\": [.h, .n],
        "_": [.d], "=": [.g1, .g2, .d], "'": [.j], "\"": [.f, .j], "(": [.k, .n], ")": [.h, .l], "<": [.k, .n], ">": [.h, .l],
        "%": [.c, .f, .k, .l, .g1, .g2], "?": [.a, .b, .g2, .m], "!": [.b, .c], "#": [.b, .c, .d, .g1, .g2, .j, .m],
        "~": [.g1, .k], "[": [.a, .d, .e, .f], "]": [.a, .b, .c, .d], "…": [.d],
    ]
}
