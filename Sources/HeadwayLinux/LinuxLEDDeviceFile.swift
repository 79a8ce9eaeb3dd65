import HeadwayDevices
import HeadwaySystem
import Synchronization


/// A kernel LED device file such as the Pi 5's `/dev/leds0`.
public final class LinuxLEDDeviceFile: LEDDeviceFile {
    /// The device node written.
    public let path: String
    private let fd: Mutex<Int32>

    /// Opens the LED device at `path` for writing.
    public init(path: String = "/dev/leds0") throws(DeviceError) {
        self.path = path
        let fd = SystemIO.open(path, for: .write)
        guard fd >= 0 else {
            let code = SystemError.last.code
            switch code {
            case Errno.noSuchFile:
                throw DeviceError(.notPresent, "\(path) does not exist: on a Raspberry Pi 5 add dtoverlay=ws2812-pio,gpio=18,num_leds=N to config.txt (kernel 6.12 or later) and reboot", errno: code)
            case Errno.permissionDenied, Errno.notPermitted:
                throw DeviceError(.permission, "permission denied opening \(path): add a udev rule giving it to a group the daemon is in", errno: code)
            default:
                throw DeviceError(.other, "cannot open \(path): \(SystemError(code))", errno: code)
            }
        }
        self.fd = Mutex(fd)
    }

    deinit { fd.withLock { SystemIO.close($0) } }

    public func write(_ bytes: [UInt8]) throws(DeviceError) {
        try fd.withLock { (fd: inout Int32) throws(DeviceError) in
            let failure: SystemError
            switch SystemIO.write(fd, bytes[...]) {
            case .written(bytes.count): return
            case .written(let count): throw DeviceError(.unsupported, "writing \(bytes.count) bytes to \(path) failed: only \(count) written", errno: nil)
            case .wouldBlock: failure = SystemError(Errno.tryAgain)
            case .failed(let error): failure = error
            }
            throw DeviceError(.other, "writing \(bytes.count) bytes to \(path) failed: \(failure)", errno: failure.code)
        }
    }
}
