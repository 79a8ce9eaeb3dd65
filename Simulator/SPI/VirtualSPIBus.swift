import HeadwayCore
import HeadwayDevices
import Synchronization

/// A chip on a simulated SPI bus (its chip select).
public protocol SPITarget: AnyObject, Sendable {
    /// Takes the bytes of one message, clocked at `hz` in SPI `mode`, most significant bit first.
    func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8)
}

/// A simulated spidev bus: refuses messages over `bufsiz` as spidev does (EMSGSIZE), clocks them at
/// the speed the modelled controller really produces, counts bytes and wire time, and captures every
/// message as `{"t":…,"bus":"spi0.0","hz":2352941,"mode":0,"write":"…"}`.
public final class VirtualSPIBus: SPIBus {
    public let name: String
    public let maxTransferLength: Int
    public let clockModel: SPIClockModel
    /// The simulation's clock, which stamps the transfers.
    public let clock: any ProgressClock

    private struct State {
        var target: (any SPITarget)?
        var statistics = BusStatistics()
        var capture: BusCapture?
        /// Messages still to fail, as a spidev transfer to an unplugged device does.
        var failures = 0
    }

    private let state = Mutex(State())

    /// A bus called `name` taking transfers of up to `bufsiz` bytes, clocked as `clockModel` divides,
    /// its transfers stamped on `clock`.
    public init(name: String = "spi0.0", bufsiz: Int = 4096, clockModel: SPIClockModel = .raspberryPi4, clock: any ProgressClock) {
        self.name = name
        maxTransferLength = bufsiz
        self.clockModel = clockModel
        self.clock = clock
    }

    /// Puts `target` on the bus (its chip select).
    public func attach(_ target: any SPITarget) { state.withLock { $0.target = target } }
    /// Records every transfer into `capture` (nil: stops).
    public func capture(to capture: BusCapture?) { state.withLock { $0.capture = capture } }
    /// What the bus has carried.
    public var statistics: BusStatistics { state.withLock { $0.statistics } }
    /// Closes the statistics' current frame.
    public func endFrame() { state.withLock { $0.statistics.endFrame() } }
    /// Fails the next `count` messages with an I/O error (EIO); nothing of them reaches the chip.
    public func fail(next count: Int) { state.withLock { $0.failures += count } }

    public func write(_ bytes: [UInt8], settings: SPISettings) throws(DeviceError) {
        guard bytes.count <= maxTransferLength else {
            throw DeviceError(.unsupported, "\(name): a message of \(bytes.count) bytes is larger than bufsiz \(maxTransferLength) (EMSGSIZE)", errno: 90)
        }
        guard settings.bitsPerWord == 8, settings.mode <= 3, settings.speedHz > 0 else {
            throw DeviceError(.unsupported, "\(name): mode \(settings.mode), \(settings.bitsPerWord) bits per word at \(settings.speedHz) Hz is not a valid setting", errno: 22)
        }
        let hz = clockModel.effectiveSpeed(forRequested: settings.speedHz)
        let now = clock.now
        let fails = state.withLock { state -> Bool in
            guard state.failures > 0 else { return false }
            state.failures -= 1
            return true
        }
        if fails { throw DeviceError(.other, "SPI transfer on \(name) failed: Input/output error (errno 5)", errno: 5) }
        let target = state.withLock { state -> (any SPITarget)? in
            state.statistics.record(bytes: bytes.count, seconds: Double(bytes.count * 8) / Double(hz))
            state.capture?.record([
                ("t", BusCapture.time(now)), ("bus", "\"\(name)\""), ("hz", "\(hz)"), ("mode", "\(settings.mode)"),
                ("write", "\"\(BusCapture.hex(bytes))\""),
            ])
            return state.target
        }
        target?.receive(bytes, hz: hz, mode: settings.mode)
    }
}
