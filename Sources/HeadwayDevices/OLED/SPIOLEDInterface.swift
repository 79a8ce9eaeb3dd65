import Synchronization

/// A controller on 4-wire SPI: MOSI, SCLK and CE from the SPI controller, and a D/C# line on a GPIO
/// that says whether the bytes clocked in are commands (low) or display data (high); the
/// controller samples it with each byte's last bit, so it is set before each transfer. A RES#
/// line, where the module brings it out, resets the controller at start-up.
///
/// Transfers are sent in messages of at most the bus's `bufsiz` (spidev's largest message), each
/// in one call; chip select is asserted per message, which every controller here allows (CS# high
/// only ends a byte stream, it does not reset the command decoder).
public final class SPIOLEDInterface: OLEDInterface {
    /// The SPI bus the module is on.
    public let bus: any SPIBus
    /// Its speed and mode.
    public let settings: SPISettings
    private let dataCommand: any GPIOOutputLines
    private let resetLine: OLEDResetLine?
    /// The D/C# level last set, nil when unknown (at first, and after a failure).
    private let level = Mutex<Bool?>(nil)

    /// An OLED module on 4-wire SPI.
    ///
    /// - Parameters:
    ///   - bus: the SPI bus (its chip select is the module's CS#).
    ///   - settings: the bus's speed and mode for this module.
    ///   - dataCommand: the D/C# line, requested as an output (logical = physical: high is data).
    ///   - reset: the RES# line, or nil when the module's reset is not wired.
    public init(bus: any SPIBus, settings: SPISettings, dataCommand: any GPIOOutputLines, reset: OLEDResetLine?) {
        self.bus = bus
        self.settings = settings
        self.dataCommand = dataCommand
        resetLine = reset
    }

    /// Requests the D/C line (driven low) and the reset line (released) on `chip`, at `speedHz`
    /// in SPI mode 0. A line that cannot be had is refused naming the line, with the chip's reason.
    public convenience init(bus: any SPIBus, speedHz: UInt32, chip: any GPIOChip, dataCommand: UInt32, reset: UInt32?, delay: any Delay) throws(DeviceError) {
        let dcLine = try OLEDResetLine.request(chip, dataCommand, role: "D/C", activeLow: false)
        let resetLine = try reset.map { offset throws(DeviceError) in try OLEDResetLine(chip: chip, offset: offset, delay: delay) }
        self.init(bus: bus, settings: SPISettings(mode: 0, speedHz: speedHz), dataCommand: dcLine, reset: resetLine)
    }

    public var name: String { bus.name }

    public func send(_ transfers: [OLEDTransfer]) throws(DeviceError) {
        try level.withLock { (level: inout Bool?) throws(DeviceError) in
            do throws(DeviceError) {
                for transfer in transfers {
                    switch transfer {
                    case .commands(let commands):
                        try select(data: false, &level)
                        var bytes: [UInt8] = []
                        for command in commands { command.append(to: &bytes) }
                        try write(bytes[...])
                    case .data(let bytes):
                        try select(data: true, &level)
                        try write(bytes)
                    }
                }
            } catch {
                level = nil
                throw error
            }
        }
    }

    private func select(data: Bool, _ level: inout Bool?) throws(DeviceError) {
        guard level != data else { return }
        try dataCommand.set([data])
        level = data
    }

    private func write(_ bytes: ArraySlice<UInt8>) throws(DeviceError) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(bytes.endIndex, start + bus.maxTransferLength)
            try bus.write(Array(bytes[start..<end]), settings: settings)
            start = end
        }
    }

    public func reset(_ timing: OLEDResetTiming) throws(DeviceError) {
        try resetLine?.pulse(timing)
    }

    /// Command bytes as they are: SPI adds no framing bytes.
    public func commandCost(_ count: Int) -> Int { count }
    public var dataFraming: OLEDDataFraming { OLEDDataFraming(bytesPerMessage: bus.maxTransferLength, overhead: 0) }
}
