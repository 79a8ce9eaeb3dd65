import CLinuxBuses
import HeadwayDevices
import HeadwaySystem
import Synchronization


/// An SPI bus through Linux's spidev (`/dev/spidevB.C`).
///
/// Every write is one `SPI_IOC_MESSAGE(1)`. The largest message is spidev's `bufsiz`, read from
/// `/sys/module/spidev/parameters/bufsiz` when the bus is opened (4096 when it cannot be read, the
/// kernel's default); drivers refuse frames that do not fit rather than splitting them.
public final class LinuxSPIBus: SPIBus {
    public let name: String
    /// The device node (`/dev/spidev0.0`).
    public let path: String
    public let maxTransferLength: Int
    public let clockModel: SPIClockModel

    private struct Handle {
        var fd: Int32
        var mode: UInt8?
    }

    private let handle: Mutex<Handle>

    /// Opens `/dev/spidev<bus>.<chipSelect>`.
    public convenience init(bus: Int, chipSelect: Int, clockModel: SPIClockModel = .exact) throws(DeviceError) {
        try self.init(path: "/dev/spidev\(bus).\(chipSelect)", clockModel: clockModel)
    }

    /// Opens the spidev node at `path`; `clockModel` is how the controller divides its clock (the
    /// speed really given), `bufsizPath` where spidev says the largest transfer it takes.
    public init(path: String, clockModel: SPIClockModel = .exact, bufsizPath: String = "/sys/module/spidev/parameters/bufsiz") throws(DeviceError) {
        self.path = path
        self.clockModel = clockModel
        let file = path.split(separator: "/").last.map(String.init) ?? path
        name = file.hasPrefix("spidev") ? "spi" + file.dropFirst(6) : file
        let fd = SystemIO.open(path, for: .readWrite)
        guard fd >= 0 else { throw SPIErrno.opening(path, errno: SystemError.last.code) }
        handle = Mutex(Handle(fd: fd))
        maxTransferLength = Self.readBufsiz(bufsizPath) ?? 4096
    }

    deinit {
        handle.withLock { SystemIO.close($0.fd) }
    }

    /// spidev's `bufsiz` module parameter, if readable.
    static func readBufsiz(_ path: String) -> Int? {
        guard let text = Files.firstLine(of: path), let value = Int(text.filter(\.isNumber)), value > 0 else { return nil }
        return value
    }

    public func write(_ bytes: [UInt8], settings: SPISettings) throws(DeviceError) {
        guard !bytes.isEmpty else { return }
        guard bytes.count <= maxTransferLength else {
            throw DeviceError(.unsupported, "a message of \(bytes.count) bytes does not fit spidev's buffer of \(maxTransferLength) bytes on \(path); add spidev.bufsiz=\(bytes.count > 32768 ? 65536 : 32768) to the kernel command line and reboot", errno: Errno.messageTooLong)
        }
        try handle.withLock { (handle: inout Handle) throws(DeviceError) in
            if handle.mode != settings.mode {
                guard hw_spi_set_mode(handle.fd, settings.mode) == 0 else { throw SPIErrno.transfer(path, errno: SystemError.last.code) }
                handle.mode = settings.mode
            }
            let result = bytes.withUnsafeBufferPointer { buffer in
                hw_spi_write(handle.fd, buffer.baseAddress, UInt32(buffer.count), settings.speedHz, settings.bitsPerWord)
            }
            guard result >= 0 else { throw SPIErrno.transfer(path, errno: SystemError.last.code) }
        }
    }
}

/// What a failed spidev call means and what to do about it.
enum SPIErrno {
    static func opening(_ path: String, errno code: Int32) -> DeviceError {
        DeviceNodeErrno.opening(path, errno: code, group: "spi", enable: "enable SPI (dtparam=spi=on in config.txt, or raspi-config)")
    }

    static func transfer(_ path: String, errno code: Int32) -> DeviceError {
        switch code {
        case Errno.messageTooLong:
            return DeviceError(.unsupported, "\(path) refused the message as larger than spidev's bufsiz; raise spidev.bufsiz on the kernel command line", errno: code)
        case Errno.invalid:
            return DeviceError(.unsupported, "\(path) cannot do this speed, mode or word size: \(SystemError(code))", errno: code)
        case Errno.noDevice, Errno.shutDown:
            return DeviceError(.notPresent, "\(path) went away", errno: code)
        case Errno.timedOut:
            return DeviceError(.timeout, "SPI transfer on \(path) timed out", errno: code)
        default:
            return DeviceError(.other, "SPI transfer on \(path) failed: \(SystemError(code))", errno: code)
        }
    }
}
