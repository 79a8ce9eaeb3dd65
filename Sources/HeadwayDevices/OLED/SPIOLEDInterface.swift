/// An OLED controller on 4-wire SPI (``DataCommandSPI``): its commands and their parameters go
/// with D/C low, display RAM bytes with D/C high.
package final class SPIOLEDInterface: OLEDInterface {
    /// The SPI link with its D/C and reset lines.
    package let link: DataCommandSPI

    /// An OLED module on `link`.
    package init(link: DataCommandSPI) { self.link = link }

    /// Requests the D/C line (driven low) and the reset line (released) on `chip`, at `speedHz`
    /// in SPI mode 0.
    package convenience init(bus: any SPIBus, speedHz: UInt32, chip: any GPIOChip, dataCommand: UInt32, reset: UInt32?, delay: any Delay) throws(DeviceError) {
        self.init(link: try DataCommandSPI(bus: bus, speedHz: speedHz, chip: chip, dataCommand: dataCommand, reset: reset, delay: delay))
    }

    package var name: String { link.bus.name }

    package func send(_ transfers: [OLEDTransfer]) throws(DeviceError) {
        try link.send(transfers.map { transfer in
            switch transfer {
            case .commands(let commands):
                var bytes: [UInt8] = []
                for command in commands { command.append(to: &bytes) }
                return .command(bytes[...])
            case .data(let bytes):
                return .data(bytes)
            }
        })
    }

    package func reset(_ timing: ResetTiming) throws(DeviceError) {
        try link.reset(timing)
    }

    /// Command bytes as they are: SPI adds no framing bytes.
    package func commandCost(_ count: Int) -> Int { count }
    package var dataFraming: OLEDDataFraming { OLEDDataFraming(bytesPerMessage: link.bus.maxTransferLength, overhead: 0) }
}
