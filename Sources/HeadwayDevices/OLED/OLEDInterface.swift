/// What a driver sends a controller: commands, or bytes for its display RAM.
package enum OLEDTransfer: Sendable, Equatable {
    /// Commands, each with its parameters.
    case commands([OLEDCommand])
    /// Bytes for the display RAM.
    case data(ArraySlice<UInt8>)
}

/// How commands and display data reach a controller: I2C with a control byte before each
/// message (`I2COLEDInterface`), or 4-wire SPI with a D/C line (`SPIOLEDInterface`). Buses are
/// orthogonal to controllers: every controller takes either, and the planner costs each plan in
/// the interface's own bytes on the wire.
package protocol OLEDInterface: Sendable {
    /// The bus, for messages (`i2c-1 at 0x3C`, `spi0.0`).
    var name: String { get }
    /// Sends `transfers` in order (on I2C as one combined transaction).
    func send(_ transfers: [OLEDTransfer]) throws(DeviceError)
    /// Resets the controller through its RES# line, if one is wired, and waits until it takes
    /// commands again (RAM and registers are back at their reset values).
    func reset(_ timing: ResetTiming) throws(DeviceError)
    /// Bytes on the wire for one run of commands of `count` bytes in all (each command whole).
    func commandCost(_ count: Int) -> Int
    /// How display data is framed on the wire.
    var dataFraming: OLEDDataFraming { get }
}

extension OLEDInterface {
    /// Bytes on the wire for `count` bytes of display data.
    package func dataCost(_ count: Int) -> Int { dataFraming.cost(count) }
}

/// How an interface frames display data: in messages of at most `bytesPerMessage` data bytes, each
/// adding `overhead` bytes on the wire (I2C: the address byte and the control byte; SPI: none).
/// A value, so that the planner costs its plans without a call through the interface.
package struct OLEDDataFraming: Sendable, Equatable {
    /// The most data bytes one message carries.
    package var bytesPerMessage: Int
    /// Bytes each message adds on the wire.
    package var overhead: Int

    /// Framing of `bytesPerMessage` data bytes a message, each adding `overhead`.
    package init(bytesPerMessage: Int, overhead: Int) {
        self.bytesPerMessage = bytesPerMessage
        self.overhead = overhead
    }

    /// Bytes on the wire for `count` bytes of display data.
    @inline(__always)
    package func cost(_ count: Int) -> Int {
        overhead == 0 ? count : count + overhead * ((count + bytesPerMessage - 1) / bytesPerMessage)
    }
}
