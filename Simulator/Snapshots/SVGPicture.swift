import HeadwayRender
import RealModule

/// SVG pictures of devices, for documentation: what a person would see.
public enum SVGPicture {
    private static let board = "#1b1d22"
    private static let unlit = "#2e3036"

    /// A strip as a row of LEDs on a dark board.
    public static func strip(_ light: [LinearColour], pitch: Int = 12) -> String {
        let width = light.count * pitch + pitch, height = pitch * 2
        var svg = header(width: width, height: height)
        svg += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"\(pitch / 2)\" fill=\"\(board)\"/>\n"
        for (index, led) in light.enumerated() {
            svg += circle(x: Double(pitch) * (Double(index) + 1), y: Double(pitch), radius: Double(pitch) * 0.38, light: led)
        }
        return svg + "</svg>\n"
    }

    /// A ring, LED 0 at 12 o'clock and indices rising clockwise.
    public static func ring(_ light: [LinearColour], pitch: Int = 12) -> String {
        let radius = max(Double(pitch) * 2, Double(light.count * pitch) / (2 * .pi))
        let size = Int(2 * radius) + pitch * 2
        let centre = Double(size) / 2
        var svg = header(width: size, height: size)
        svg += "<circle cx=\"\(centre)\" cy=\"\(centre)\" r=\"\(radius + Double(pitch) * 0.8)\" fill=\"\(board)\"/>\n"
        for (index, led) in light.enumerated() {
            let angle = 2 * Double.pi * Double(index) / Double(light.count)
            svg += circle(x: centre + radius * Double.sin(angle), y: centre - radius * Double.cos(angle), radius: Double(pitch) * 0.38, light: led)
        }
        return svg + "</svg>\n"
    }

    /// A display, each pixel a square `scale` units wide; lit runs of a row are merged into one rect.
    public static func display(_ bitmap: Bitmap, scale: Int = 3, ink: String = "#e8f4ff") -> String {
        glass(width: bitmap.width, height: bitmap.height, scale: scale, ink: ink) { x, y in bitmap[x, y] ? 15 : 0 }
    }

    /// A greyscale display: each run of equal level in a row one rect, at the ink's opacity for
    /// its level (light adds linearly on the glass; the viewer's blending is close enough to show it).
    public static func display(_ greymap: Greymap, scale: Int = 3, ink: String = "#e8f4ff") -> String {
        glass(width: greymap.width, height: greymap.height, scale: scale, ink: ink) { x, y in Int(greymap[x, y]) }
    }

    /// The glass with `level(x, y)` (0 … 15) at each pixel: each run of one level in a row is a rect.
    private static func glass(width pixelsWide: Int, height pixelsHigh: Int, scale: Int, ink: String, level: (Int, Int) -> Int) -> String {
        let margin = scale * 2
        let width = pixelsWide * scale + margin * 2, height = pixelsHigh * scale + margin * 2
        var svg = header(width: width, height: height)
        svg += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"\(scale * 2)\" fill=\"#050608\"/>\n<g fill=\"\(ink)\">\n"
        for y in 0..<pixelsHigh {
            var x = 0
            while x < pixelsWide {
                let shade = level(x, y)
                guard shade > 0 else { x += 1; continue }
                let start = x
                while x < pixelsWide, level(x, y) == shade { x += 1 }
                let opacity = shade == 15 ? "" : " fill-opacity=\"\(rounded(Double(shade) / 15))\""
                svg += "<rect x=\"\(margin + start * scale)\" y=\"\(margin + y * scale)\" width=\"\((x - start) * scale)\" height=\"\(scale)\"\(opacity)/>\n"
            }
        }
        return svg + "</g>\n</svg>\n"
    }

    private static func header(width: Int, height: Int) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
    }

    private static func circle(x: Double, y: Double, radius: Double, light: LinearColour) -> String {
        let colour = light.sRGB
        let lit = Int(colour.red) + Int(colour.green) + Int(colour.blue) >= 12
        let fill = lit ? colour.description : unlit
        let glow = lit ? " stroke=\"\(colour.description)\" stroke-opacity=\"0.35\" stroke-width=\"\(radius * 0.6)\"" : ""
        return "<circle cx=\"\(rounded(x))\" cy=\"\(rounded(y))\" r=\"\(rounded(radius))\" fill=\"\(fill)\"\(glow)/>\n"
    }

    private static func rounded(_ value: Double) -> String { NumberFormat.twoDecimals(value) }
}

enum NumberFormat {
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
