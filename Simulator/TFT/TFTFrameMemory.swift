/// The frame memory: 18 bits a pixel, kept as 6-bit levels packed `red << 12 | green << 6 | blue`.
struct TFTFrameMemory: Sendable, Equatable {
    let size: TFTRAMSize
    private(set) var pixels: [UInt32]

    /// The memory as power-up leaves it. "Contents of memory is set randomly" (ST7789V V1.3
    /// §9.1.22, Default): a fixed pseudo-random pattern, so that a driver that lights the glass
    /// before writing it shows noise as the real module does, and every run shows the same noise.
    init(poweredUp size: TFTRAMSize) {
        self.size = size
        var state: UInt32 = 0x9E37_79B9
        pixels = (0..<size.count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return state & 0x3FFFF
        }
    }

    subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * size.width + x] }
        set { pixels[y * size.width + x] = newValue }
    }

    subscript(index: Int) -> UInt32 { pixels[index] }
}
