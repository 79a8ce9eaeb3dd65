import HeadwayRender

/// Pictures as braille characters: each character cell shows 2x4 dots. At full resolution a dot
/// is a pixel; scaled down, a dot stands for a square of pixels and shows the brightest of them,
/// so that no lit pixel (a thin stroke, a bar's edge) disappears from a smaller view.
enum Braille {
    /// The dots of a braille cell: where each lies in the 2x4 pixels, its bit, and its place in
    /// an ordered-dither matrix (0…7: the order in which dots light as a grey gets brighter).
    private static let dots: [(dx: Int, dy: Int, bit: UInt32, order: Int)] = [
        (0, 0, 0x01, 0), (0, 1, 0x02, 6), (0, 2, 0x04, 2), (1, 0, 0x08, 4), (1, 1, 0x10, 3), (1, 2, 0x20, 5), (0, 3, 0x40, 7), (1, 3, 0x80, 1),
    ]

    /// The braille character for the 2x4 pixels at (`column`, `row`) in character cells.
    static func character(_ picture: Bitmap, column: Int, row: Int) -> Character {
        var bits: UInt32 = 0
        for dot in dots where picture[column * 2 + dot.dx, row * 4 + dot.dy] { bits |= dot.bit }
        return Character(Unicode.Scalar(0x2800 + bits)!)
    }

    /// The braille character for the 2x4 grey pixels at (`column`, `row`), and the mean level of
    /// the dots it lights: every pixel above 0 lights its dot, or, `dithered`, a pixel lights its dot
    /// when its level passes the dot's place in the dither matrix (level 15 lights all 8).
    static func character(_ glass: Greymap, column: Int, row: Int, dithered: Bool) -> (Character, UInt8) {
        var bits: UInt32 = 0
        var sum = 0, lit = 0
        for dot in dots {
            let level = glass[column * 2 + dot.dx, row * 4 + dot.dy]
            let threshold = dithered ? Double(dot.order) * 15 / 8 : 0
            guard Double(level) > threshold else { continue }
            bits |= dot.bit
            sum += Int(level)
            lit += 1
        }
        return (Character(Unicode.Scalar(0x2800 + bits)!), lit == 0 ? 0 : UInt8(sum / lit))
    }

    /// `picture` with each `scale`x`scale` square of pixels made one pixel, lit when any of them is.
    static func scaled(_ picture: Bitmap, by scale: Int) -> Bitmap {
        guard scale > 1 else { return picture }
        var small = Bitmap(width: (picture.width + scale - 1) / scale, height: (picture.height + scale - 1) / scale)
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture[x, y] { small[x / scale, y / scale] = true }
        }
        return small
    }

    /// `glass` with each `scale`x`scale` square of pixels made one pixel at the brightest level
    /// among them.
    static func scaled(_ glass: Greymap, by scale: Int) -> Greymap {
        guard scale > 1 else { return glass }
        var small = Greymap(width: (glass.width + scale - 1) / scale, height: (glass.height + scale - 1) / scale)
        for y in 0..<glass.height {
            for x in 0..<glass.width {
                let level = glass[x, y]
                if level > small[x / scale, y / scale] { small[x / scale, y / scale] = level }
            }
        }
        return small
    }
}
