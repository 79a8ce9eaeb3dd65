/// A device could not be driven. Carries what kind of fault it was and a message a person can act on.
public struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// Nothing answered (unplugged, wrong address, wrong bus).
        case notPresent
        /// The process may not open the device (group membership, udev rules).
        case permission
        /// Something else owns it (a kernel driver, another process).
        case busy
        /// The bus or device cannot do what was asked.
        case unsupported
        case timeout
        case other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
