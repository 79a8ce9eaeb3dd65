/// How a transfer is clocked: SPI mode (clock polarity and phase), word size and requested speed.
public struct SPISettings: Sendable, Equatable {
    /// The SPI mode, 0…3: clock polarity and phase.
    public var mode: UInt8
    /// Bits in a word (8).
    public var bitsPerWord: UInt8
    /// The speed asked for, in Hz (the controller may give less: ``SPIClockModel``).
    public var speedHz: UInt32

    /// Settings for transfers at `speedHz` in `mode`.
    public init(mode: UInt8 = 0, bitsPerWord: UInt8 = 8, speedHz: UInt32) {
        self.mode = mode
        self.bitsPerWord = bitsPerWord
        self.speedHz = speedHz
    }
}

/// An SPI bus (one chip select) as a driver sees it: write a buffer in one message.
///
/// Like embedded-hal's `SpiBus`, thin enough to have a Linux implementation (spidev) and a simulated
/// one. Two facts of the real hardware are part of the protocol because drivers need them: the
/// largest message the kernel accepts (spidev's `bufsiz`) and the clock the controller will really
/// produce for a requested speed (controllers divide a source clock; WS2812 timing depends on it).
public protocol SPIBus: AnyObject, Sendable {
    /// A name for messages and captures, e.g. `spi0.0`.
    var name: String { get }
    /// The largest message in bytes (spidev's `bufsiz`, 4096 unless raised on the kernel command line).
    var maxTransferLength: Int { get }
    /// How the controller turns a requested speed into its real clock.
    var clockModel: SPIClockModel { get }
    /// Sends `bytes` as one message (one `SPI_IOC_MESSAGE`), never split.
    func write(_ bytes: [UInt8], settings: SPISettings) throws(DeviceError)
}

/// How an SPI controller derives its clock from a requested speed.
public enum SPIClockModel: Sendable, Equatable, CustomStringConvertible {
    /// The requested speed is what you get (unknown controllers, simulators that want it so).
    case exact
    /// The controller divides `sourceHz` by an even divisor, rounding the speed down: the Pi's
    /// BCM2835-family SPI (`cdiv = ⌈source/requested⌉`, made even; source = the core clock, 250 MHz
    /// on Pi 0–3, 500 MHz on Pi 4 with `core_freq=500`).
    case evenDivisor(sourceHz: UInt32)

    /// The Pi 0–3: a 250 MHz core clock divided by an even number.
    public static let raspberryPi3 = SPIClockModel.evenDivisor(sourceHz: 250_000_000)
    /// The Pi 4 with `core_freq=500`: a 500 MHz core clock divided by an even number.
    public static let raspberryPi4 = SPIClockModel.evenDivisor(sourceHz: 500_000_000)

    /// The clock the controller produces when asked for `requested` Hz.
    public func effectiveSpeed(forRequested requested: UInt32) -> UInt32 {
        switch self {
        case .exact:
            return requested
        case .evenDivisor(let source):
            guard requested > 0 else { return 0 }
            var divisor = (UInt64(source) + UInt64(requested) - 1) / UInt64(requested)
            divisor += divisor % 2
            divisor = max(2, min(65536, divisor))
            return UInt32(UInt64(source) / divisor)
        }
    }

    public var description: String {
        switch self {
        case .exact: "exact clock"
        case .evenDivisor(let source): "even divisors of \(source / 1_000_000) MHz"
        }
    }
}
