import HeadwaySurfaces

/// The bytes of an APA102 / SK9822 frame, shared by the SPI and the bit-banged drivers.
///
/// A start frame of 32 zero bits; per LED `0xE0 | brightness` (5-bit global brightness) then blue,
/// green, red; then an end frame of zero bytes long enough for the chain: every LED delays the data
/// by half a clock, so n LEDs need n/2 more clock edges, and SK9822 parts latch only on a further 32
/// zero bits. Clocked, so gaps do not matter and a frame may be sent in pieces.
public struct APA102Encoder: Sendable, Equatable {
    /// How many LEDs the chain has.
    public var count: Int
    /// 1…31, the chips' own current setting for every LED.
    public var globalBrightness: UInt8

    /// The frames of `count` LEDs at `globalBrightness` (clamped to 1…31).
    public init(count: Int, globalBrightness: UInt8 = 31) {
        self.count = count
        self.globalBrightness = min(31, max(1, globalBrightness))
    }

    /// Zero bytes after the LEDs: ⌈n/16⌉ for the n/2 delay edges plus 4 for SK9822's latch.
    public var endFrameBytes: Int { (count + 15) / 16 + 4 }
    /// Bytes in one frame: the start frame, four a LED, the end frame.
    public var frameLength: Int { 4 + 4 * count + endFrameBytes }

    /// The frame for `levels`, one per LED.
    public func encode(_ levels: [RGB8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: 4)
        frame.reserveCapacity(frameLength)
        for level in levels {
            frame.append(0xE0 | globalBrightness)
            frame.append(level.blue)
            frame.append(level.green)
            frame.append(level.red)
        }
        frame.append(contentsOf: repeatElement(0, count: endFrameBytes))
        return frame
    }
}

/// An APA102 / SK9822 chain on SPI (MOSI to DI, SCLK to CI).
public final class APA102Strip: LEDChainDevice {
    /// What each frame's bytes are.
    public let encoder: APA102Encoder
    /// The SPI clock asked for.
    public let speedHz: UInt32
    private let bus: any SPIBus

    /// A chain of `count` LEDs on `bus`, clocked at `speedHz`.
    public init(bus: any SPIBus, count: Int, globalBrightness: UInt8 = 31, speedHz: UInt32 = 8_000_000) throws(DeviceError) {
        guard count > 0 else { throw DeviceError(.unsupported, "an APA102 chain needs at least one LED") }
        self.bus = bus
        self.speedHz = speedHz
        encoder = APA102Encoder(count: count, globalBrightness: globalBrightness)
    }

    public var count: Int { encoder.count }

    public func show(_ levels: [RGB8]) throws(DeviceError) {
        guard levels.count == count else {
            throw DeviceError(.unsupported, "the APA102 chain has \(count) LEDs but was given \(levels.count) colours")
        }
        // Clocked data tolerates pauses, so a frame larger than the bus's buffer goes in pieces.
        let frame = encoder.encode(levels)
        var start = 0
        while start < frame.count {
            let end = min(frame.count, start + bus.maxTransferLength)
            try bus.write(Array(frame[start..<end]), settings: SPISettings(mode: 0, bitsPerWord: 8, speedHz: speedHz))
            start = end
        }
    }
}
