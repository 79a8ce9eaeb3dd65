import HeadwayDevices
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A kernel LED device file such as the Pi 5's `/dev/leds0`.
public final class LinuxLEDDeviceFile: LEDDeviceFile {
    public let path: String
    private let fd: Mutex<Int32>

    public init(path: String = "/dev/leds0") throws(DeviceError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT:
                throw DeviceError(.notPresent, "\(path) does not exist: on a Raspberry Pi 5 add dtoverlay=ws2812-pio,gpio=18,num_leds=N to config.txt (kernel 6.12 or later) and reboot", errno: code)
            case EACCES, EPERM:
                throw DeviceError(.permission, "permission denied opening \(path): add a udev rule giving it to a group the daemon is in", errno: code)
            default:
                throw DeviceError(.other, "cannot open \(path): \(I2CErrno.describe(code))", errno: code)
            }
        }
        self.fd = Mutex(fd)
    }

    deinit { _ = fd.withLock { close($0) } }

    public func write(_ bytes: [UInt8]) throws(DeviceError) {
        try fd.withLock { (fd: inout Int32) throws(DeviceError) in
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                let code = errno
                throw DeviceError(written < 0 ? .other : .unsupported, "writing \(bytes.count) bytes to \(path) failed: \(written < 0 ? I2CErrno.describe(code) : "only \(written) written")", errno: written < 0 ? code : nil)
            }
        }
    }
}
