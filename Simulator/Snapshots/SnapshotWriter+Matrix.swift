import HeadwayRender

extension SnapshotWriter {
    /// Writes an LED matrix's, bar graph's or segment display's glass as `NAME.ppm` (a pixel per
    /// LED; a segment display's digits drawn in pixels) and `NAME.svg`; returns the paths written.
    @discardableResult
    public func write(_ glass: LEDGlass, named name: String) throws -> [String] {
        try createDirectory()
        let raster = glass.digits.isEmpty ? GlassRaster.matrix(glass) : GlassRaster.digits(glass)
        let svg = glass.digits.isEmpty ? SVGPicture.matrix(glass) : SVGPicture.digits(glass)
        return [try save(Netpbm.ppm(raster.light, width: raster.width), as: "\(name).ppm"), try save(Array(svg.utf8), as: "\(name).svg")]
    }
}

/// A glass as pixels of light, row by row.
struct GlassRaster {
    let width: Int
    let light: [LinearColour]

    /// A pixel per position.
    static func matrix(_ glass: LEDGlass) -> GlassRaster {
        GlassRaster(width: glass.width, light: (0..<glass.height).flatMap { y in (0..<glass.width).map { x in glass.light(x: x, y: y) } })
    }

    /// Each digit in a cell of 9 × 12 pixels: the segments as strokes, the point at the lower right.
    static func digits(_ glass: LEDGlass) -> GlassRaster {
        let cellWidth = 9, height = 12
        let width = glass.digits.count * cellWidth
        var light = [LinearColour](repeating: .black, count: width * height)
        for digit in 0..<glass.digits.count {
            for (segment, pixels) in strokes {
                guard let shown = glass.light(of: segment, digit: digit) else { continue }
                for (x, y) in pixels { light[y * width + digit * cellWidth + x] = shown }
            }
        }
        if let colon = glass.light(of: .colon, digit: 1) {
            for y in [3, 8] { light[y * width + 2 * cellWidth - 1] = colon }
        }
        return GlassRaster(width: width, light: light)
    }

    /// Where each segment's pixels are in a digit's cell (7-segment digits use A–G and DP).
    static let strokes: [Segment: [(Int, Int)]] = [
        .a: (1...5).map { ($0, 0) }, .d: (1...5).map { ($0, 10) },
        .f: (1...4).map { (0, $0) }, .b: (1...4).map { (6, $0) },
        .e: (6...9).map { (0, $0) }, .c: (6...9).map { (6, $0) },
        .g: (1...5).map { ($0, 5) }, .g1: [(1, 5), (2, 5)], .g2: [(4, 5), (5, 5)],
        .h: [(1, 1), (1, 2), (2, 3), (2, 4)], .j: (1...4).map { (3, $0) }, .k: [(5, 1), (5, 2), (4, 3), (4, 4)],
        .l: [(2, 6), (2, 7), (1, 8), (1, 9)], .m: (6...9).map { (3, $0) }, .n: [(4, 6), (4, 7), (5, 8), (5, 9)],
        .dp: [(7, 10)],
    ]
}

extension Netpbm {
    /// `light` (row by row, `width` a row) as a binary PPM of sRGB.
    public static func ppm(_ light: [LinearColour], width: Int) -> [UInt8] {
        let height = width > 0 ? light.count / width : 0
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for pixel in light {
            let colour = pixel.sRGB
            bytes += [colour.red, colour.green, colour.blue]
        }
        return bytes
    }
}

extension SVGPicture {
    /// A matrix as rows of LEDs on a dark board, each in its light.
    public static func matrix(_ glass: LEDGlass, pitch: Int = 12) -> String {
        raster(GlassRaster.matrix(glass), pitch: pitch)
    }

    /// A segment display, its digits drawn a square per pixel of their strokes.
    public static func digits(_ glass: LEDGlass, pitch: Int = 4) -> String {
        raster(GlassRaster.digits(glass), pitch: pitch, dots: false)
    }

    private static func raster(_ raster: GlassRaster, pitch: Int, dots: Bool = true) -> String {
        let rows = raster.width > 0 ? raster.light.count / raster.width : 0
        let width = (raster.width + 1) * pitch, height = (rows + 1) * pitch
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        svg += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"\(pitch / 2)\" fill=\"#1b1d22\"/>\n"
        for (index, light) in raster.light.enumerated() {
            let colour = light.sRGB
            let lit = Int(colour.red) + Int(colour.green) + Int(colour.blue) >= 12
            guard dots || lit else { continue }
            let x = Double(pitch) * (Double(index % raster.width) + 1), y = Double(pitch) * (Double(index / raster.width) + 1)
            let fill = lit ? colour.description : "#2e3036"
            if dots {
                svg += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(Double(pitch) * 0.38)\" fill=\"\(fill)\"/>\n"
            } else {
                svg += "<rect x=\"\(x - Double(pitch) / 2)\" y=\"\(y - Double(pitch) / 2)\" width=\"\(pitch)\" height=\"\(pitch)\" fill=\"\(fill)\"/>\n"
            }
        }
        return svg + "</svg>\n"
    }
}
