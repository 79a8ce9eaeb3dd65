/// A chip on a simulated I2C bus.
public protocol I2CTarget: AnyObject, Sendable {
    /// The 7-bit address the chip answers to.
    var address: UInt8 { get }
    /// Takes the bytes of one message the chip acknowledged (the address byte excluded).
    func receive(_ message: [UInt8])
    /// A STOP condition ended the transaction.
    func stop()
}
