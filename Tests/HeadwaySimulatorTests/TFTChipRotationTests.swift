import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// Every rotation the vendors publish must show their picture on the module's glass, turned and
/// not mirrored, in the right place: the Mini PiTFT 1.3" (240 x 240) and 1.14" (240 x 135) against
/// positions worked out by hand from the datasheets' MADCTL tables, and every module's every row
/// against the property that the glass shows the whole picture, turned by a multiple of 90°.
@Suite("Virtual TFT rotations")
struct TFTChipRotationTests {
    /// Writes `row`'s picture: black with a red mark at (2, 2), a green one at (width − 3, 2) and a
    /// blue one at (2, height − 3), turned as the vendor turns it, into the vendor's window.
    func writeMarks(_ row: TFTModuleRotation, on bench: TFTChipTestBench) throws {
        let (width, height) = row.pictureSize
        var picture = Array(repeating: (UInt8(0), UInt8(0), UInt8(0)), count: width * height)
        picture[2 * width + 2] = (63, 0, 0)
        picture[2 * width + width - 3] = (0, 63, 0)
        picture[(height - 3) * width + 2] = (0, 0, 63)
        try write(picture, width: width, height: height, row: row, on: bench)
    }

    /// Sends `picture` (row-major, `width` x `height`) as `row` sends it: MADCTL, the picture turned
    /// counterclockwise as the vendor's library turns it, the window at the vendor's offsets.
    func write(_ picture: [(UInt8, UInt8, UInt8)], width: Int, height: Int, row: TFTModuleRotation, on bench: TFTChipTestBench) throws {
        var sent = Array(repeating: (UInt8(0), UInt8(0), UInt8(0)), count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (sentX, sentY): (Int, Int)
                switch row.pictureTurn {
                case .none: (sentX, sentY) = (x, y)
                case .quarter: (sentX, sentY) = (y, width - 1 - x)
                case .half: (sentX, sentY) = (width - 1 - x, height - 1 - y)
                case .threeQuarters: (sentX, sentY) = (height - 1 - y, x)
                }
                sent[sentY * row.windowWidth + sentX] = picture[y * width + x]
            }
        }
        try bench.command(0x36, [row.madctl])
        try bench.window(column: row.columnOffset, row: row.rowOffset, width: row.windowWidth, height: row.windowHeight)
        try bench.data(TFTChipTestBench.bytes666(sent))
    }

    /// Where the red, green and blue marks show on the glass.
    func marks(on glass: TFTGlass) -> (red: [Int], green: [Int], blue: [Int]) {
        var found: (red: [Int], green: [Int], blue: [Int]) = ([], [], [])
        for y in 0..<glass.height {
            for x in 0..<glass.width {
                switch glass[x, y] {
                case RGB8(red: 255, green: 0, blue: 0): found.red = [x, y]
                case RGB8(red: 0, green: 255, blue: 0): found.green = [x, y]
                case RGB8(red: 0, green: 0, blue: 255): found.blue = [x, y]
                default: break
                }
            }
        }
        return found
    }

    func bench(for module: TFTModuleModel) throws -> TFTChipTestBench {
        let bench = try TFTChipTestBench(module)
        try bench.initialiseAsVendor(colmod: 0x66)
        return bench
    }

    // The 240 x 240 glass is frame memory columns 0…239, rows 0…239 (the installer's rotation 0,
    // MADCTL 00h). 90°, MADCTL A0h (MY, MV), x-offset 80: column address c = 80 + x lands on row
    // 319 − c, row address y on column y, so picture (x, y) shows at glass (y, 239 − x). 180°, C0h
    // (MY, MX), y-offset 80: glass (239 − x, 239 − y). 270°, 60h (MX, MV): glass (239 − y, x).
    // RGB_Display's 180°: C0h, y-offset 80, the picture turned by 180° first: glass (x, y).
    @Test(arguments: [
        (0, [2, 2], [237, 2], [2, 237]),
        (1, [2, 237], [2, 2], [237, 237]),
        (2, [237, 237], [2, 237], [237, 2]),
        (3, [237, 2], [237, 237], [2, 2]),
        (4, [2, 2], [237, 2], [2, 237]),
    ])
    func theMiniPiTFT13sRotationsLandWhereTheDatasheetsSay(_ index: Int, _ red: [Int], _ green: [Int], _ blue: [Int]) throws {
        let module = TFTModuleModel.miniPiTFT13
        let bench = try bench(for: module)
        try writeMarks(module.rotations[index], on: bench)
        let found = marks(on: bench.chip.glass)
        #expect(found.red == red && found.green == green && found.blue == blue, "rotation row \(index): \(found)")
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    // The 240 x 135 glass: RGB_Display's MADCTL C0h at x_offset 53, y_offset 40 puts column address
    // c on memory column 239 − c (186 … 52) and row address r on row 319 − r (279 … 40), the
    // 240 x 135 picture turned by 90° first: glass (x, y) is memory column 186 − y, row 40 + x.
    // The installer's rows write 136 columns from 52 (one more than the glass has): rotation 0,
    // MADCTL 00h: picture (x, y) at memory (52 + x, 40 + y), glass (y, 134 − x); 90°, A0h, x-offset
    // 40, y-offset 52: memory (52 + y, 279 − x), glass (239 − x, 134 − y); 180°, C0h: memory
    // (187 − x, 279 − y), glass (239 − y, x − 1); 270°, 60h: memory (187 − y, 40 + x), glass (x, y − 1).
    @Test(arguments: [
        (0, [2, 2], [237, 2], [2, 132]),
        (1, [2, 132], [2, 1], [237, 132]),
        (2, [237, 132], [2, 132], [237, 1]),
        (3, [237, 1], [237, 132], [2, 1]),
        (4, [2, 1], [237, 1], [2, 132]),
    ])
    func theMiniPiTFT114sRotationsLandWhereTheDatasheetsSay(_ index: Int, _ red: [Int], _ green: [Int], _ blue: [Int]) throws {
        let module = TFTModuleModel.miniPiTFT114
        let bench = try bench(for: module)
        try writeMarks(module.rotations[index], on: bench)
        let found = marks(on: bench.chip.glass)
        #expect(found.red == red && found.green == green && found.blue == blue, "rotation row \(index): \(found)")
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
    }

    /// A picture whose every pixel says where it is: x in the red level and the top bits of green,
    /// y in the rest of green and in blue (x < 512, y < 512).
    static func coordinates(width: Int, height: Int) -> [(UInt8, UInt8, UInt8)] {
        (0..<(width * height)).map { index in
            let x = index % width, y = index / width
            return (UInt8(x & 0x3F), UInt8(x >> 6 | (y & 0x07) << 3), UInt8(y >> 3))
        }
    }

    /// The picture position a glass pixel of a `coordinates` picture shows, or nil.
    static func position(_ pixel: RGB8) -> (x: Int, y: Int) {
        let red = Int(pixel.red >> 2), green = Int(pixel.green >> 2), blue = Int(pixel.blue >> 2)
        return (red | (green & 0x07) << 6, green >> 3 | blue << 3)
    }

    /// Every vendor rotation of every module, as "NAME#INDEX". (A closure in the `@Test` attribute
    /// itself crashes Debian 13's Swift 6.0.3 compiler.)
    static let vendorRotations = TFTModuleModel.catalogue.flatMap { module in module.rotations.indices.map { "\(module.name)#\($0)" } }

    @Test(arguments: vendorRotations)
    func everyVendorRotationShowsTheWholePictureTurnedNotMirrored(_ case: String) throws {
        let parts = `case`.split(separator: "#")
        let module = try #require(TFTModuleModel.named(String(parts[0])))
        let row = module.rotations[try #require(Int(parts[1]))]
        let bench = try bench(for: module)
        // Paint the whole memory with a position no picture has (x = 511), so stale memory shows.
        try bench.command(0x36, [0x00])
        try bench.window(column: 0, row: 0, width: module.memory.width, height: module.memory.height)
        try bench.data(TFTChipTestBench.bytes666(Array(repeating: (63, 63, 0), count: module.memory.count)))
        let (width, height) = row.pictureSize
        try write(Self.coordinates(width: width, height: height), width: width, height: height, row: row, on: bench)
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
        let glass = bench.chip.glass
        // Every glass pixel shows a picture pixel; the steps along the glass's rows and columns are
        // a turn (determinant +1, not a mirror) the same everywhere.
        let origin = Self.position(glass[0, 0])
        let right = Self.position(glass[1, 0])
        let down = Self.position(glass[0, 1])
        let across = (right.x - origin.x, right.y - origin.y)
        let downward = (down.x - origin.x, down.y - origin.y)
        #expect(abs(across.0) + abs(across.1) == 1 && abs(downward.0) + abs(downward.1) == 1, "\(module.name) row \(row.degrees)°: steps \(across) \(downward)")
        #expect(across.0 * downward.1 - across.1 * downward.0 == 1, "\(module.name) row \(row.degrees)°: the picture is mirrored")
        var shown = 0
        for y in 0..<glass.height {
            for x in 0..<glass.width {
                let position = Self.position(glass[x, y])
                let expected = (origin.x + x * across.0 + y * downward.0, origin.y + x * across.1 + y * downward.1)
                if position == expected, (0..<width).contains(position.x), (0..<height).contains(position.y) { shown += 1 }
            }
        }
        #expect(shown == glass.width * glass.height, "\(module.name) row \(row.degrees)°: \(glass.width * glass.height - shown) glass pixels show no picture pixel")
        // The picture fits the glass, or overhangs it by the one column vendors' windows add.
        #expect(width * height - shown <= max(width, height), "\(module.name) row \(row.degrees)°: \(width * height - shown) picture pixels hidden")
    }
}
