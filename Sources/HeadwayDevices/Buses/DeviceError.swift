/// A device or bus could not be driven. Carries what kind of fault it was and a message a person can act on.
public struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of fault it was, so a caller can tell a missing device from one it may not open.
    public enum Kind: String, Sendable, Equatable {
        /// Nothing answered (unplugged, wrong address, wrong bus).
        case notPresent
        /// The process may not open the device (group membership, udev rules).
        case permission
        /// Something else owns it (a kernel driver, another process).
        case busy
        /// The bus or device cannot do what was asked.
        case unsupported
        /// The device did not answer in time.
        case timeout
        /// Any other fault; the message says which.
        case other
    }

    /// What kind of fault it was.
    public var kind: Kind
    /// What happened and what to do about it.
    public var message: String
    /// The operating system's error number, when the fault came from a system call.
    public var errno: Int32?

    /// A fault of `kind` saying `message`, with the system call's error number when there was one.
    public init(_ kind: Kind, _ message: String, errno: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
