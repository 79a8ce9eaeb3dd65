/// A proportional, anti-aliased font at one pixel size, for the text of colour displays: each
/// glyph's coverage of its pixels (16 levels), its box against the baseline and its advance.
///
/// Why glyphs rendered once rather than a font engine at run time: the text of a 128–320 pixel
/// screen comes in a handful of sizes (``sizes``), so DejaVu Sans rendered by FreeType at those
/// sizes (Scripts/font/smooth_to_swift.py) is all it needs. Kept as 4-bit coverage they add about
/// 75 KB to the program, where loading FreeType and a Debian font at run time, as libcurl is
/// loaded, would add a dependency to the package (fonts-dejavu-core is 1.1 MB installed), a
/// failure path on a headless Pi without it, and a picture that changes with the FreeType and font
/// versions installed — the simulator, the snapshot tests and the kernel tests compare glass
/// pixel for pixel, on Debian 13 and elsewhere alike.
public struct SmoothFont: Sendable {
    /// One glyph: where its box sits and its coverage, row by row.
    struct Glyph: Sendable {
        /// Pixels the pen moves on.
        let advance: Int
        /// Columns from the pen to the box's left.
        let left: Int
        /// Rows from the line's top to the box's top.
        let top: Int
        let width: Int
        let height: Int
        /// Where its coverage starts in ``coverage`` (one byte a pixel, 0…15, row by row).
        let offset: Int
    }

    /// The size it was rendered at, in pixels (the em square).
    public let pixelSize: Int
    /// Rows from the line's top to the baseline.
    public let ascent: Int
    /// Rows below the baseline a line keeps for descenders.
    public let descent: Int
    private let glyphs: [UInt32: Glyph]
    /// The glyphs of printable ASCII (0x20…0x7E), by code − 0x20, for text that needs no lookup.
    private let ascii: [Glyph?]
    private let coverage: [UInt8]
    /// The rows, from the line's top, that any glyph draws on.
    let inkRows: Range<Int>

    /// The font packed in `encoded` (base64 of: size, ascent, descent, glyph count; a record per
    /// glyph; the coverage in nibbles), as Scripts/font/smooth_to_swift.py writes it.
    init(encoded: String) {
        let bytes = Self.base64(encoded)
        func u8(_ at: Int) -> Int { Int(bytes[at]) }
        func i8(_ at: Int) -> Int { Int(Int8(bitPattern: bytes[at])) }
        func u16(_ at: Int) -> Int { u8(at) | u8(at + 1) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        pixelSize = u8(0)
        ascent = u8(1)
        descent = u8(2)
        let count = u16(3)
        let recordSize = 13, bitmapStart = 5 + count * recordSize
        var glyphs: [UInt32: Glyph] = [:]
        var coverage: [UInt8] = []
        for index in 0..<count {
            let at = 5 + index * recordSize
            let width = u8(at + 7), height = u8(at + 8), source = bitmapStart + u32(at + 9)
            let glyph = Glyph(advance: u8(at + 4), left: i8(at + 5), top: i8(at + 6), width: width, height: height, offset: coverage.count)
            for pixel in 0..<width * height {
                let byte = bytes[source + pixel / 2]
                coverage.append(pixel % 2 == 0 ? byte >> 4 : byte & 0x0F)
            }
            glyphs[UInt32(u32(at))] = glyph
        }
        self.glyphs = glyphs
        self.coverage = coverage
        inkRows = (glyphs.values.map(\.top).min() ?? 0)..<(glyphs.values.map { $0.top + $0.height }.max() ?? 0)
        ascii = (UInt32(0x20)...0x7E).map { glyphs[$0] }
    }

    /// Rows a line of text takes.
    public var lineHeight: Int { ascent + descent }
    /// Rows from the line's top to the top of its figures (the box of "0").
    public var figureTop: Int { glyphs[0x30]?.top ?? 0 }
    /// How tall its figures are (the box of "0").
    public var figureHeight: Int { glyphs[0x30]?.height ?? ascent }

    /// Whether the font has a glyph of its own for `character` (a letter followed by combining
    /// marks it cannot draw, as in decomposed "é", counts as its letter).
    public func contains(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, glyphs[scalar.value] != nil else { return false }
        return character.unicodeScalars.dropFirst().allSatisfy { $0.properties.canonicalCombiningClass != .notReordered }
    }

    private func glyph(_ character: Character) -> Glyph? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        if scalar.value >= 0x20, scalar.value <= 0x7E { return ascii[Int(scalar.value) - 0x20] }
        return glyphs[scalar.value] ?? glyphs[0x3F]
    }

    /// The width in pixels of `text`: the sum of its advances ("?" for characters the font lacks).
    public func width(of text: String) -> Int {
        text.reduce(0) { $0 + (glyph($1)?.advance ?? 0) }
    }

    /// `text` cut to fit `maxWidth` pixels, ending in "…" when it had to be cut. Characters the
    /// font lacks are replaced by "?", control characters dropped, so the result draws as measured
    /// (labels come from whoever can reach the service).
    public func truncated(_ text: String, toFit maxWidth: Int) -> String {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
        if plain, width(of: text) <= maxWidth { return text }
        let printable = plain ? text : String(text.compactMap { character -> Character? in
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) { return nil }
            return contains(character) ? character : "?"
        })
        guard width(of: printable) > maxWidth else { return printable }
        let ellipsis = glyphs[0x2026]?.advance ?? 0
        var kept = "", used = 0
        for character in printable {
            let advance = glyph(character)?.advance ?? 0
            guard used + advance + ellipsis <= maxWidth else { break }
            kept.append(character)
            used += advance
        }
        return used + ellipsis <= maxWidth ? kept + "…" : ""
    }

    /// The coverage of `glyph`'s pixel (`x`, `y`) of its box, 0…15.
    fileprivate func coverage(_ glyph: Glyph, x: Int, y: Int) -> UInt8 { coverage[glyph.offset + y * glyph.width + x] }

    /// Decodes standard base64 (no line breaks).
    private static func base64(_ text: String) -> [UInt8] {
        var values = [UInt8](repeating: 0xFF, count: 128)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { values[Int(character)] = UInt8(index) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for character in text.utf8 where character != UInt8(ascii: "=") {
            buffer = buffer << 6 | UInt32(values[Int(character)])
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes
    }
}

extension SmoothFont {
    /// The sizes there are, smallest first: text in DejaVu Sans, figures (a percentage) in bold.
    public static let textSizes: [SmoothFont] = [sans11, sans14, sans18, sans24]
    /// Bold figures for a percentage: the digits, "%", "~" and a few signs.
    public static let figureSizes: [SmoothFont] = [figures28, figures40, figures56]
    /// Every size.
    public static var sizes: [SmoothFont] { textSizes + figureSizes }

    /// The largest text size whose lines are at most `height` pixels (the smallest when none is).
    public static func text(fittingLineHeight height: Int) -> SmoothFont {
        textSizes.last { $0.lineHeight <= height } ?? textSizes[0]
    }
}

extension SmoothFont {
    /// Calls `pixel` with each pixel `text` covers when drawn with the line's top at `y` and the
    /// pen from `x` (clipped to `width` x `height`), and its coverage (1…15); returns the pen's
    /// end. Characters the font lacks are drawn as "?".
    @inline(__always)
    func layOut(_ text: String, x: Int, y: Int, width: Int, height: Int, _ pixel: (_ x: Int, _ y: Int, _ coverage: UInt8) -> Void) -> Int {
        var pen = x
        for character in text {
            guard let glyph = glyph(character) else { continue }
            let left = pen + glyph.left, top = y + glyph.top
            let rows = max(0, -top)..<min(glyph.height, height - top), columns = max(0, -left)..<min(glyph.width, width - left)
            if !rows.isEmpty, !columns.isEmpty {
                coverage.withUnsafeBufferPointer { coverage in
                    for row in rows {
                        let start = glyph.offset + row * glyph.width
                        for column in columns {
                            let value = coverage[start + column]
                            if value != 0 { pixel(left + column, top + row, value) }
                        }
                    }
                }
            }
            pen += glyph.advance
        }
        return pen
    }
}

extension DisplaySurface {
    /// Draws `text` in `font` with the line's top at `y` and the pen starting at `x`, each pixel
    /// at the share of `shade` its glyph covers (where glyphs overlap, the more covered wins).
    /// Characters the font lacks are drawn as "?". Returns the x just past the last glyph.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, font: SmoothFont, shade: Shade = .text) -> Int {
        let levels = (0...15).map { shade.level(on: Self.self, coverage: Double($0) / 15) }
        return font.layOut(text, x: x, y: y, width: width, height: height) { px, py, coverage in
            let level = levels[Int(coverage)]
            if level > self.level(x: px, y: py) { self.setLevel(level, x: px, y: py, role: shade.role) }
        }
    }

    /// Draws `text` so that it ends at `maxX` (right-aligned).
    public mutating func draw(_ text: String, endingAt maxX: Int, y: Int, font: SmoothFont, shade: Shade = .text) {
        draw(text, x: maxX - font.width(of: text), y: y, font: font, shade: shade)
    }

    /// Draws `text` centred on `centerX`.
    public mutating func draw(_ text: String, centeredAt centerX: Int, y: Int, font: SmoothFont, shade: Shade = .text) {
        draw(text, x: centerX - font.width(of: text) / 2, y: y, font: font, shade: shade)
    }
}

extension RoleMap {
    /// Draws `text` as any display surface does (`draw(_:x:y:font:shade:)`), writing a role map's pixels in place.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, font: SmoothFont, shade: Shade = .text) -> Int {
        let role = shade.role.rawValue << 5, width = self.width, height = self.height
        return withUnsafeMutablePixels(rows: (y + font.inkRows.lowerBound)..<(y + font.inkRows.upperBound)) { pixels in
            font.layOut(text, x: x, y: y, width: width, height: height) { px, py, coverage in
                // 16 coverage levels onto 32: 15 → 31.
                let level = coverage &* 2 &+ 1
                let index = py &* width &+ px, old = pixels[index]
                if old >> 5 != role >> 5 || level > old & 0x1F { pixels[index] = role | level }
            }
        }
    }

    /// Draws `text` so that it ends at `maxX` (right-aligned).
    public mutating func draw(_ text: String, endingAt maxX: Int, y: Int, font: SmoothFont, shade: Shade = .text) {
        draw(text, x: maxX - font.width(of: text), y: y, font: font, shade: shade)
    }

    /// Draws `text` centred on `centerX`.
    public mutating func draw(_ text: String, centeredAt centerX: Int, y: Int, font: SmoothFont, shade: Shade = .text) {
        draw(text, x: centerX - font.width(of: text) / 2, y: y, font: font, shade: shade)
    }
}
