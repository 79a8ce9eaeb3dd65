/// A colour picture as a TFT controller stores it, row by row from the top left: two bytes a
/// pixel for ``PixelFormat/rgb565`` (R5 G6 B5, most significant byte first) or three for
/// ``PixelFormat/rgb666`` (each colour's six bits in D7…D2), the bytes a 4-line serial interface
/// takes after RAMWR (ST7789V V1.3 §8.8.42 and §8.8.43; ILI9341 V1.11 §7.6.2). A driver can then
/// compare and send rows without repacking. Like ``Bitmap``, it is only a picture.
public struct ColourPicture: Sendable, Equatable {
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// How pixels are stored: ``PixelFormat/rgb565`` or ``PixelFormat/rgb666``.
    public let format: PixelFormat
    /// `width × height × bytesPerPixel` bytes.
    public private(set) var bytes: [UInt8]
    /// This content's generation: every picture drawn or changed takes a new one, so two pictures
    /// of one generation hold the same pixels (``PictureDamage``).
    package private(set) var generation = PictureGenerations.next()
    /// Where this picture may differ from the one it was drawn over, when it was drawn over one.
    package var damage: PictureDamage?

    /// A black picture of `width` × `height` pixels (both above 0) in `format` (a colour format).
    public init(width: Int, height: Int, format: PixelFormat = .rgb565) {
        precondition(width > 0 && height > 0, "a colour picture needs a positive size")
        precondition(format == .rgb565 || format == .rgb666, "a colour picture is RGB565 or RGB666")
        self.width = width
        self.height = height
        self.format = format
        bytes = Array(repeating: 0, count: width * height * (format == .rgb565 ? 2 : 3))
    }

    /// `roles` in colour: each pixel's byte (role and level) looked up in `lookup`, which holds
    /// `bytesPerPixel` bytes for each of the 256 byte values.
    public init(_ roles: RoleMap, format: PixelFormat, lookup: [UInt8]) {
        precondition(format == .rgb565 || format == .rgb666, "a colour picture is RGB565 or RGB666")
        let size = format == .rgb565 ? 2 : 3
        precondition(lookup.count == 256 * size, "one entry per byte value")
        width = roles.width
        height = roles.height
        self.format = format
        let count = roles.storage.count
        // Every byte is written below: no need to clear them first.
        bytes = [UInt8](unsafeUninitializedCapacity: count * size) { out, initialised in
            lookup.withUnsafeBufferPointer { table in
                roles.storage.withUnsafeBufferPointer { source in
                    guard let out = UnsafeMutableRawPointer(out.baseAddress), let table = UnsafeRawPointer(table.baseAddress),
                          let source = source.baseAddress else { return }
                    if size == 2 {
                        for index in 0..<count {
                            out.storeBytes(of: table.loadUnaligned(fromByteOffset: Int(source[index]) &* 2, as: UInt16.self), toByteOffset: index &* 2, as: UInt16.self)
                        }
                    } else {
                        for index in 0..<count {
                            let entry = Int(source[index]) &* 3
                            out.storeBytes(of: table.loadUnaligned(fromByteOffset: entry, as: UInt16.self), toByteOffset: index &* 3, as: UInt16.self)
                            out.storeBytes(of: table.load(fromByteOffset: entry &+ 2, as: UInt8.self), toByteOffset: index &* 3 &+ 2, as: UInt8.self)
                        }
                    }
                }
            }
            initialised = count * size
        }
    }

    /// Redraws `stretches` of `roles` through `lookup`, the map's top-left corner at `origin` of
    /// this picture (a map of the picture's size at (0, 0), or a smaller one placed on it), as
    /// ``init(_:format:lookup:)`` draws the whole: a frame mostly repeats an earlier one, whose
    /// picture then only needs the rows that changed since. The picture takes a new generation and
    /// no damage.
    package mutating func redraw(_ stretches: some Sequence<RowStretch>, from roles: RoleMap, at origin: (x: Int, y: Int) = (0, 0), lookup: [UInt8]) {
        precondition(origin.x >= 0 && origin.y >= 0 && origin.x + roles.width <= width && origin.y + roles.height <= height, "the map must fit where it is placed")
        let size = bytesPerPixel, source = roles.width, target = width
        precondition(lookup.count == 256 * size, "one entry per byte value")
        bytes.withUnsafeMutableBytes { out in
            lookup.withUnsafeBytes { table in
                roles.storage.withUnsafeBytes { map in
                    for stretch in stretches {
                        let from = stretch.row * source, to = (stretch.row + origin.y) * target + origin.x
                        for column in stretch.first...stretch.last {
                            let entry = Int(map[from &+ column]) &* size, index = (to &+ column) &* size
                            out.storeBytes(of: table.loadUnaligned(fromByteOffset: entry, as: UInt16.self), toByteOffset: index, as: UInt16.self)
                            if size == 3 { out[index &+ 2] = table[entry &+ 2] }
                        }
                    }
                }
            }
        }
        generation = PictureGenerations.next()
        damage = nil
    }

    /// The same picture in colour: each grey level (0…15) as that share of `colour`'s light is
    /// approximated by the level's share of each drive level (a greymap drawn for an OLED shown on
    /// a TFT).
    public init(_ greymap: Greymap, colour: RGB8 = RGB8(red: 255, green: 255, blue: 255), format: PixelFormat = .rgb565) {
        self.init(width: greymap.width, height: greymap.height, format: format)
        for y in 0..<height {
            for x in 0..<width {
                let level = UInt16(greymap[x, y])
                guard level > 0 else { continue }
                store(RGB8(red: UInt8(UInt16(colour.red) * level / 15), green: UInt8(UInt16(colour.green) * level / 15),
                           blue: UInt8(UInt16(colour.blue) * level / 15)), x: x, y: y)
            }
        }
    }

    /// The same picture in colour: lit pixels in `colour`.
    public init(_ bitmap: Bitmap, colour: RGB8 = RGB8(red: 255, green: 255, blue: 255), format: PixelFormat = .rgb565) {
        self.init(width: bitmap.width, height: bitmap.height, format: format)
        for y in 0..<height {
            for x in 0..<width where bitmap[x, y] { store(colour, x: x, y: y) }
        }
    }

    /// Bytes a pixel: 2 (RGB565) or 3 (RGB666).
    public var bytesPerPixel: Int { format == .rgb565 ? 2 : 3 }
    /// Bytes a row.
    public var bytesPerRow: Int { width * bytesPerPixel }
    /// The whole picture as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// Whether every pixel is black.
    public var isBlank: Bool { PixelBytes.isZero(bytes) }

    /// The bytes `format` stores `colour` as.
    public static func encode(_ colour: RGB8, as format: PixelFormat) -> [UInt8] {
        format == .rgb565
            ? [colour.red & 0xF8 | colour.green >> 5, (colour.green & 0x1C) << 3 | colour.blue >> 3]
            : [colour.red & 0xFC, colour.green & 0xFC, colour.blue & 0xFC]
    }

    /// The pixel at (`x`, `y`) as 8-bit levels (each stored level widened by repeating its top
    /// bits); outside the picture black, and writes there are ignored.
    public subscript(x: Int, y: Int) -> RGB8 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .off }
            let index = (y * width + x) * bytesPerPixel
            if format == .rgb565 {
                let high = bytes[index], low = bytes[index + 1]
                let red = high >> 3, green = (high & 0x07) << 3 | low >> 5, blue = low & 0x1F
                return RGB8(red: red << 3 | red >> 2, green: green << 2 | green >> 4, blue: blue << 3 | blue >> 2)
            }
            let widen = { (level: UInt8) in level | level >> 6 }
            return RGB8(red: widen(bytes[index]), green: widen(bytes[index + 1]), blue: widen(bytes[index + 2]))
        }
        set {
            store(newValue, x: x, y: y)
            generation = PictureGenerations.next()
            damage = nil
        }
    }

    /// Sets a pixel without taking a new generation: for drawing a new picture, which has its own.
    private mutating func store(_ colour: RGB8, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = (y * width + x) * bytesPerPixel
        for (offset, byte) in Self.encode(colour, as: format).enumerated() { bytes[index + offset] = byte }
    }

    /// This picture with its top-left corner at (`x`, `y`) of a black `width` × `height` one; it
    /// must fit there whole.
    public func placed(onWidth width: Int, height: Int, x: Int, y: Int) -> ColourPicture {
        precondition(x >= 0 && y >= 0 && x + self.width <= width && y + self.height <= height, "the picture must fit where it is placed")
        var out = ColourPicture(width: width, height: height, format: format)
        let from = bytesPerRow, to = out.bytesPerRow, shift = x * bytesPerPixel
        out.bytes.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                for row in 0..<self.height {
                    let start = (row + y) * to + shift
                    for column in 0..<from { target[start + column] = source[row * from + column] }
                }
            }
        }
        return out
    }

    /// The picture in 16 grey levels by its luma (ITU-R BT.601 weights on the drive levels), for a
    /// greyscale or on/off display.
    public func greymap() -> Greymap {
        var grey = Greymap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = self[x, y]
                let luma = (299 * Int(pixel.red) + 587 * Int(pixel.green) + 114 * Int(pixel.blue)) / 1000
                grey[x, y] = UInt8((luma * 15 + 127) / 255)
            }
        }
        return grey
    }
}

extension ColourPicture {
    /// The same size and pixels. Pictures are compared every frame: one of the same generation is
    /// the same, one drawn over the other differs at most in its damage, and otherwise they are
    /// compared a word at a time.
    public static func == (a: ColourPicture, b: ColourPicture) -> Bool {
        guard a.width == b.width, a.height == b.height, a.format == b.format else { return false }
        if a.generation == b.generation { return true }
        if let damage = b.damage, damage.base == a.generation {
            return PixelBytes.equal(a.bytes, b.bytes, in: damage.rows, bytesPerRow: a.bytesPerRow, bytesPerPixel: a.bytesPerPixel)
        }
        if let damage = a.damage, damage.base == b.generation {
            return PixelBytes.equal(a.bytes, b.bytes, in: damage.rows, bytesPerRow: a.bytesPerRow, bytesPerPixel: a.bytesPerPixel)
        }
        return PixelBytes.equal(a.bytes, b.bytes)
    }
}
