import HeadwaySurfaces
import Synchronization

/// A WS2812 / WS2812B / SK6812 (RGB or RGBW) chain on an SPI bus's MOSI line.
///
/// Each LED bit becomes 3, 4 or 8 SPI bits (``WS2812Encoding``). The timing is checked against the
/// clock the controller will really produce (``SPIClockModel``), and a clock whose pulses fall
/// outside the WS2812 windows is refused with the range that would work. Every frame is one SPI
/// message, with at least 300 µs of low before it (MOSI may rest high between messages) and after it
/// (the latch); a frame that does not fit the bus's buffer is refused — a WS2812 frame must never be
/// split, since the gap between messages would latch half a frame.
public final class WS2812Strip: LEDChainDevice {
    /// How the chain is built and clocked.
    public struct Configuration: Sendable, Equatable {
        /// How many LEDs the chain has.
        public var count: Int
        /// The order of the chip's colour channels on the wire.
        public var order: ColourOrder
        /// How LED bits become SPI bits.
        public var encoding: WS2812Encoding
        /// The speed to ask the controller for; the encoding's nominal speed by default.
        public var speedHz: UInt32

        /// A chain of `count` LEDs; the speed defaults to the encoding's nominal one.
        public init(count: Int, order: ColourOrder = .grb, encoding: WS2812Encoding = .threeBit, speedHz: UInt32? = nil) {
            self.count = count
            self.order = order
            self.encoding = encoding
            self.speedHz = speedHz ?? encoding.nominalSpeedHz
        }

        /// Zero bytes of reset before and after the LEDs at a controller clock of `hz`.
        public func resetBytes(atHz hz: UInt32) -> Int { Int((WS2812Timing.resetSeconds * Double(hz) / 8).rounded(.up)) }

        /// Bytes in one frame at a controller clock of `hz`: leading reset, the LEDs, trailing reset.
        public func frameBytes(atHz hz: UInt32) -> Int { 2 * resetBytes(atHz: hz) + count * order.channels * 8 * encoding.bitsPerLEDBit / 8 }
    }

    /// How the chain is built and clocked.
    public let configuration: Configuration
    public let count: Int
    /// The clock the controller really runs at for this strip.
    public let effectiveSpeedHz: UInt32
    private let bus: any SPIBus
    private let table: [[UInt8]]
    private let resetBytes: Int

    /// A chain on `bus`, its clock checked against the datasheet's windows (refused, with a speed that
    /// works, when the controller cannot meet them).
    public init(bus: any SPIBus, configuration: Configuration) throws(DeviceError) {
        guard configuration.count > 0 else { throw DeviceError(.unsupported, "a WS2812 chain needs at least one LED") }
        let encoding = configuration.encoding
        let effective = bus.clockModel.effectiveSpeed(forRequested: configuration.speedHz)
        let problems = encoding.violations(atHz: effective)
        guard problems.isEmpty else {
            throw DeviceError(.unsupported, Self.clockAdvice(bus: bus, configuration: configuration, effective: effective, problems: problems))
        }
        self.bus = bus
        self.configuration = configuration
        count = configuration.count
        effectiveSpeedHz = effective
        table = (0...255).map { encoding.encode(UInt8($0)) }
        resetBytes = configuration.resetBytes(atHz: effective)
        let frameBytes = frameLength
        guard frameBytes <= bus.maxTransferLength else {
            throw DeviceError(.unsupported, """
                \(count) LEDs need \(frameBytes) bytes per frame (\(encoding.bitsPerLEDBit) SPI bits per LED bit and \(2 * resetBytes) bytes \
                of reset), more than the \(bus.maxTransferLength) bytes \(bus.name) takes in one message (spidev's bufsiz). \
                Add spidev.bufsiz=\(Self.suggestedBufsiz(frameBytes)) to the kernel command line (cmdline.txt) and reboot\
                \(encoding == .threeBit ? "" : ", or use the 3-bit encoding")
                """)
        }
    }

    /// Bytes in one frame: leading reset, the LEDs, trailing reset.
    public var frameLength: Int { configuration.frameBytes(atHz: effectiveSpeedHz) }

    /// The SPI bytes for `levels`.
    public func encode(_ levels: [RGB8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: resetBytes)
        frame.reserveCapacity(frameLength)
        var channels: [UInt8] = []
        channels.reserveCapacity(4)
        for level in levels {
            channels.removeAll(keepingCapacity: true)
            configuration.order.append(level, to: &channels)
            for channel in channels { frame.append(contentsOf: table[Int(channel)]) }
        }
        frame.append(contentsOf: repeatElement(0, count: resetBytes))
        return frame
    }

    public func show(_ levels: [RGB8]) throws(DeviceError) {
        guard levels.count == count else {
            throw DeviceError(.unsupported, "the WS2812 chain has \(count) LEDs but was given \(levels.count) colours")
        }
        try bus.write(encode(levels), settings: SPISettings(mode: 0, bitsPerWord: 8, speedHz: configuration.speedHz))
    }

    /// The spidev bufsiz to suggest for frames of `bytes`: the next power of two from 4096.
    public static func suggestedBufsiz(_ bytes: Int) -> Int {
        var size = 4096
        while size < bytes { size *= 2 }
        return size
    }

    /// Says why a clock cannot work and which requested speed would.
    private static func clockAdvice(bus: any SPIBus, configuration: Configuration, effective: UInt32, problems: [String]) -> String {
        let encoding = configuration.encoding
        let valid = encoding.validSpeeds
        var text = "\(encoding.rawValue) WS2812 encoding at \(megahertz(Double(effective))) MHz"
        if effective != configuration.speedHz {
            text += " (\(bus.name) makes \(megahertz(Double(configuration.speedHz))) MHz into \(megahertz(Double(effective))) MHz: \(bus.clockModel))"
        }
        text += ": " + problems.joined(separator: "; ")
        text += ". It needs \(megahertz(valid.lowerBound))…\(megahertz(valid.upperBound)) MHz"
        // Look for a requested speed the controller turns into a valid clock.
        var candidate = UInt32(valid.lowerBound.rounded(.up))
        let step = max(1, UInt32((valid.upperBound - valid.lowerBound) / 200))
        while Double(candidate) <= valid.upperBound * 1.2 {
            let result = bus.clockModel.effectiveSpeed(forRequested: candidate)
            if encoding.violations(atHz: result).isEmpty {
                return text + "; ask for \(megahertz(Double(candidate))) MHz (giving \(megahertz(Double(result))) MHz)"
            }
            candidate += step
        }
        return text + "; \(bus.name) cannot produce such a clock, use another encoding"
    }
}

func megahertz(_ hz: Double) -> String {
    let thousandths = Int((hz / 1000).rounded())
    let fraction = thousandths % 1000
    let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
    return "\(thousandths / 1000).\(padded)"
}
