import HeadwaySurfaces

/// WS2812s driven by the Raspberry Pi 5's kernel driver (`dtoverlay=ws2812-pio,gpio=18,num_leds=N`,
/// optionally `rgbw`): each pixel is 4 bytes `RR GG BB WW` written to `/dev/leds0`; the kernel does
/// the timing. The white byte is used for RGBW strips (the common part of red, green and blue).
/// The overlay's own gamma curve applies unless it is loaded with `brightness=0`.
public final class RP1LEDStrip: LEDChainDevice {
    public let count: Int
    /// Whether the strip has a white channel (the overlay's `rgbw`).
    public let rgbw: Bool
    private let file: any LEDDeviceFile

    /// A strip of `count` LEDs behind `file`.
    public init(file: any LEDDeviceFile, count: Int, rgbw: Bool = false) throws(DeviceError) {
        guard count > 0 else { throw DeviceError(.unsupported, "an LED strip needs at least one LED") }
        self.file = file
        self.count = count
        self.rgbw = rgbw
    }

    /// The bytes the kernel driver takes for `levels`: four a pixel.
    public func encode(_ levels: [RGB8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(levels.count * 4)
        for level in levels {
            let white = rgbw ? min(level.red, level.green, level.blue) : 0
            bytes += [level.red - white, level.green - white, level.blue - white, white]
        }
        return bytes
    }

    public func show(_ levels: [RGB8]) throws(DeviceError) {
        guard levels.count == count else {
            throw DeviceError(.unsupported, "the strip on \(file.path) has \(count) LEDs but was given \(levels.count) colours")
        }
        try file.write(encode(levels))
    }
}
