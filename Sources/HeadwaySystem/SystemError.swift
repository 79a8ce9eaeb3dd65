#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call that failed: its error number, the C library's text for it, and what was being
/// done when that is worth saying (`cannot create /var/lib/headway`).
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error number (`errno`).
    package let code: Int32
    /// What failed, said before the reason.
    package let context: String?

    /// The error numbered `code`, with what failed.
    package init(_ code: Int32, context: String? = nil) {
        self.code = code
        self.context = context
    }

    /// The calling thread's last error.
    package static var last: SystemError { SystemError(errno) }

    /// The calling thread's last error, with what failed.
    package static func last(_ context: String) -> SystemError { SystemError(errno, context: context) }

    /// The C library's words for the error (strerror), without the number.
    package var text: String { words ?? "errno \(code)" }

    /// The words and the number, after the context when there is one.
    package var description: String {
        let reason = words.map { "\($0) (errno \(code))" } ?? "errno \(code)"
        return context.map { "\($0): \(reason)" } ?? reason
    }

    private var words: String? { strerror(code).map { String(cString: $0) } }
}

/// The error numbers Headway reasons about or gives advice for, by name.
package enum Errno {
    package static let notPermitted = EPERM
    package static let noSuchFile = ENOENT
    package static let noSuchProcess = ESRCH
    package static let ioError = EIO
    package static let noSuchDeviceOrAddress = ENXIO
    package static let tryAgain = EAGAIN
    package static let permissionDenied = EACCES
    package static let busy = EBUSY
    package static let noDevice = ENODEV
    package static let invalid = EINVAL
    package static let notATerminal = ENOTTY
    package static let messageTooLong = EMSGSIZE
    package static let notSupported = EOPNOTSUPP
    package static let shutDown = ESHUTDOWN
    package static let timedOut = ETIMEDOUT
    package static let remoteIO = EREMOTEIO
}
