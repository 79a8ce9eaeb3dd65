import HeadwayRender
import Testing

@Suite("Bitmaps and text")
struct BitmapTests {
    @Test func pixelsOutsideAreIgnoredAndReadAsOff() {
        var bitmap = Bitmap(width: 16, height: 16)
        bitmap[-1, 4] = true
        bitmap[16, 0] = true
        #expect(bitmap.isBlank && !bitmap[16, 0])
        bitmap[3, 3] = true
        #expect(!bitmap.isBlank && bitmap.litCount() == 1)
    }

    /// Filling works a page byte at a time; it must light exactly the pixels a pixel-by-pixel fill
    /// would, for rectangles crossing page boundaries anywhere.
    @Test func fillByPagesEqualsFillByPixels() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let rect = PixelRect(x: .random(in: -5...40, using: &random), y: .random(in: -5...40, using: &random), width: .random(in: 0...30, using: &random), height: .random(in: 0...30, using: &random))
            let on = Bool.random(using: &random)
            var fast = Bitmap(width: 37, height: 35)
            var slow = fast
            if !on {
                fast.fill(fast.bounds)
                slow.fill(slow.bounds)
            }
            fast.fill(rect, on: on)
            for y in rect.y..<rect.maxY where rect.height > 0 {
                for x in rect.x..<rect.maxX where rect.width > 0 { slow[x, y] = on }
            }
            #expect(fast == slow, "\(rect) \(on)")
        }
    }

    @Test func pagesHoldEightRowsLeastSignificantBitOnTop() {
        var bitmap = Bitmap(width: 4, height: 16)
        bitmap[2, 0] = true
        bitmap[2, 9] = true
        #expect(bitmap.bytes[2] == 0x01)
        #expect(bitmap.bytes[4 + 2] == 0x02)
    }

    @Test func everyPrintableASCIICharacterHasAGlyph() {
        let font = BitmapFont.fixed5x7
        for scalar in 0x20...0x7E {
            #expect(font.contains(Character(Unicode.Scalar(scalar)!)), "missing \(scalar)")
        }
        #expect(font.contains("…"))
        var bitmap = Bitmap(width: 40, height: 8)
        #expect(bitmap.draw("Hi!", x: 0, y: 0) == 15)
        #expect(bitmap.litCount() > 0)
    }

    @Test func fullRingIsSymmetric() {
        var bitmap = Bitmap(width: 64, height: 64)
        bitmap.arc(centerX: 32, centerY: 32, inner: 20, outer: 26, start: 0, sweep: 1)
        let left = bitmap.litCount(in: PixelRect(x: 0, y: 0, width: 32, height: 64))
        let right = bitmap.litCount(in: PixelRect(x: 32, y: 0, width: 32, height: 64))
        #expect(left == right && left > 0)
        var half = Bitmap(width: 64, height: 64)
        half.arc(centerX: 32, centerY: 32, inner: 20, outer: 26, start: 0, sweep: 0.5)
        #expect(half.litCount(in: PixelRect(x: 0, y: 0, width: 31, height: 64)) == 0)
    }

    @Test func coloursParseAndSayWhatIsWrong() throws {
        #expect(try Colour(hex: "#00B4ff") == Colour(red: 0, green: 0xB4, blue: 0xFF))
        #expect(throws: ColourError.malformedHex("#12345")) { try Colour(hex: "#12345") }
        #expect(ColourError.malformedHex("blue").description.contains("#rrggbb"))
        for byte in 0...255 {
            let colour = Colour(red: UInt8(byte), green: 0, blue: UInt8(255 - byte))
            #expect(LinearColour(colour).sRGB == colour)
        }
    }

    @Test func pipelineGamma() {
        let frame = LEDFrame(count: 1, colour: LinearColour(red: 0.25, green: 1, blue: 0))
        #expect(ColourPipeline().levels(for: frame) == [RGB8(red: 64, green: 255, blue: 0)])
        #expect(ColourPipeline(gamma: 2).levels(for: frame) == [RGB8(red: 128, green: 255, blue: 0)])
        #expect(ColourPipeline(gamma: 2).light(for: RGB8(red: 128, green: 0, blue: 0)).red > 0.25)
    }
}

