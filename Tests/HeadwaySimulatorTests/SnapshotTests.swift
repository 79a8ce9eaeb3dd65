import HeadwayRender
import HeadwayDevices
import HeadwaySimulator
import Testing

@Suite("Snapshot files")
struct SnapshotTests {
    @Test func pbmRoundTrips() throws {
        var bitmap = Bitmap(width: 13, height: 5)
        bitmap.draw("Hi", x: 0, y: 0)
        let decoded = try #require(Netpbm.bitmap(fromPBM: Netpbm.pbm(bitmap)))
        #expect(decoded == bitmap)
        #expect(Netpbm.bitmap(fromPBM: Array("P4\n8 8\n".utf8)) == nil, "a truncated raster is refused")
    }

    @Test func ppmHasOnePixelPerLED() {
        let bytes = Netpbm.ppm([LinearColour(red: 1, green: 0, blue: 0), .black])
        #expect(Array(bytes.prefix(11)) == Array("P6\n2 1\n255\n".utf8))
        #expect(Array(bytes.suffix(6)) == [255, 0, 0, 0, 0, 0])
    }

    @Test func svgDrawsEveryLEDAndLitRuns() {
        let ring = SVGPicture.ring(Array(repeating: LinearColour(red: 0, green: 1, blue: 0), count: 24))
        #expect(ring.components(separatedBy: "<circle").count - 1 == 25)  // the board and 24 LEDs
        var bitmap = Bitmap(width: 8, height: 2)
        bitmap.fill(PixelRect(x: 2, y: 1, width: 3, height: 1))
        let display = SVGPicture.display(bitmap, scale: 1)
        #expect(display.contains("<rect x=\"4\" y=\"3\" width=\"3\" height=\"1\"/>"))
    }
}
