import Synchronization

/// 4-wire SPI with a D/C line, as display controllers take it (the SSD130x and SH110x OLEDs, the
/// MIPI DBI colour TFTs): MOSI, SCLK and CE from the SPI controller, and a D/C line on a GPIO that
/// says whether the bytes clocked in are a command (low) or data (high). The controller samples
/// D/C with each byte's last bit, so it is set before each message; it is set only when it
/// changes. What is a command and what is data is the controller's business: an OLED sends its
/// parameters as commands, a TFT as data. A RES# line, where the module brings it out, resets the
/// controller.
///
/// Bytes are sent in messages of at most the bus's `bufsiz` (spidev's largest message), each in
/// one call; chip select is asserted per message, which these controllers allow (CS high only
/// ends a byte stream).
public final class DataCommandSPI: Sendable {
    /// One run of bytes and what they are.
    public enum Part: Sendable, Equatable {
        /// Bytes sent with D/C low.
        case command(ArraySlice<UInt8>)
        /// Bytes sent with D/C high.
        case data(ArraySlice<UInt8>)
    }

    /// The SPI bus (its chip select is the module's CS).
    public let bus: any SPIBus
    /// Its speed and mode.
    public let settings: SPISettings
    private let dataCommand: any GPIOOutputLines
    private let resetLine: ResetLine?
    /// The D/C level last set, nil when unknown (at first, and after a failure).
    private let level = Mutex<Bool?>(nil)

    /// A controller on `bus` at `settings`, its D/C line requested as an output (high is data),
    /// its RES# line if wired.
    public init(bus: any SPIBus, settings: SPISettings, dataCommand: any GPIOOutputLines, reset: ResetLine?) {
        self.bus = bus
        self.settings = settings
        self.dataCommand = dataCommand
        resetLine = reset
    }

    /// Requests the D/C line (driven low) and the reset line (released) on `chip`, at `speedHz`
    /// in SPI mode 0. A line that cannot be had is refused naming the line, with the chip's reason.
    public convenience init(bus: any SPIBus, speedHz: UInt32, chip: any GPIOChip, dataCommand: UInt32, reset: UInt32?, delay: any Delay) throws(DeviceError) {
        let dcLine = try ResetLine.request(chip, dataCommand, role: "D/C", activeLow: false)
        let resetLine = try reset.map { offset throws(DeviceError) in try ResetLine(chip: chip, offset: offset, delay: delay) }
        self.init(bus: bus, settings: SPISettings(mode: 0, speedHz: speedHz), dataCommand: dcLine, reset: resetLine)
    }

    /// Sends `parts` in order; after a failure the D/C level is set again before the next bytes.
    public func send(_ parts: [Part]) throws(DeviceError) {
        try level.withLock { (level: inout Bool?) throws(DeviceError) in
            do throws(DeviceError) {
                for part in parts {
                    switch part {
                    case .command(let bytes):
                        try select(data: false, &level)
                        try write(bytes)
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

    /// Pulses RES#, if wired, and waits until the controller takes commands again.
    public func reset(_ timing: ResetTiming) throws(DeviceError) {
        try resetLine?.pulse(timing)
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
}
