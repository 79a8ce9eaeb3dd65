import HeadwayCore

/// Faults a simulated bus can be told to produce, as a real bus would under them.
public enum BusFault: Sendable, Equatable {
    /// The next `count` transactions are not acknowledged at the address byte: nothing arrives.
    case nack(count: Int)
    /// The next `count` transactions break off half-way through their first message with an I/O
    /// error: the chip has received part of it.
    case ioError(count: Int)
    /// The device at `address` is gone (unplugged) until `until` on the bus's clock; when it comes
    /// back it has lost power, so it is reset to its power-on state.
    case disappear(address: UInt8, until: Seconds)
}
