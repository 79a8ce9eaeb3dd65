import HeadwaySurfaces

/// An APA102 chain on two GPIO lines, data and clock, bit-banged (as Pimoroni's Blinkt! on GPIO 23
/// and 24). Each bit is put on the data line with the clock low, then latched by raising the clock;
/// every change is one call that sets both lines together.
public final class APA102BitBang: LEDChainDevice {
    /// What each frame's bytes are.
    public let encoder: APA102Encoder
    private let lines: any GPIOOutputLines

    /// - Parameters: `data` and `clock` are line offsets on `chip` (Blinkt!: 23 and 24).
    public init(chip: any GPIOChip, data: UInt32, clock: UInt32, count: Int, globalBrightness: UInt8 = 31) throws(DeviceError) {
        guard count > 0 else { throw DeviceError(.unsupported, "an APA102 chain needs at least one LED") }
        encoder = APA102Encoder(count: count, globalBrightness: globalBrightness)
        lines = try chip.requestOutputs([data, clock], activeLow: false, initial: [false, false])
    }

    public var count: Int { encoder.count }

    public func show(_ levels: [RGB8]) throws(DeviceError) {
        guard levels.count == count else {
            throw DeviceError(.unsupported, "the APA102 chain has \(count) LEDs but was given \(levels.count) colours")
        }
        for byte in encoder.encode(levels) {
            for bit in 0..<8 {
                let value = byte & (0x80 >> UInt8(bit)) != 0
                try lines.set([value, false])
                try lines.set([value, true])
            }
        }
        try lines.set([false, false])
    }
}
