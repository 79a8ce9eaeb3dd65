/// An I2C bus as a driver sees it: write messages to a 7-bit address.
///
/// Kept as thin as embedded-hal's `I2c`, so the same driver runs on Linux's i2c-dev and on the
/// simulator's virtual bus. Every call is one transaction (START … STOP); a failure throws a
/// ``DeviceError`` whose kind says what went wrong (no device, permission, busy, unsupported,
/// timeout) and whose message names the bus and the address.
public protocol I2CBus: AnyObject, Sendable {
    /// A name for messages and captures, e.g. `i2c-1`.
    var name: String { get }
    /// The longest message this bus can send in one go, in bytes (the first byte included).
    /// Plain I2C adapters take thousands; SMBus-only adapters 33 (a command byte and 32 data bytes).
    var maxMessageLength: Int { get }
    /// Writes `messages` to `address` as one combined transaction (repeated START between
    /// messages, one STOP at the end). Each message must be 1…``maxMessageLength`` bytes.
    func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError)
}

extension I2CBus {
    /// Writes one message to `address`.
    public func write(_ message: [UInt8], to address: UInt8) throws(DeviceError) {
        try write([message], to: address)
    }
}

/// A byte as datasheets write it, for addresses and commands in messages: `0x3C`.
package func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
