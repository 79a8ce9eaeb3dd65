import HeadwayDevices
import Synchronization


/// A kernel LED device file such as the Pi 5's `/dev/leds0`.
public final class LinuxLEDDeviceFile: LEDDeviceFile {
    /// The device node written.
    public let path: String
    private let fd: Mutex<Int32>

    /// Opens the LED device at `path` for writing.
    public init(path: String = "/dev/leds0") throws(DeviceError) {
        self.path = path
        let fd = Platform.open(path, Platform.writeOnly)
        guard fd >= 0 else {
            let code = Platform.lastError
            switch code {
            case Errno.noSuchFile:
                throw DeviceError(.notPresent, "\(path) does not exist: on a Raspberry Pi 5 add dtoverlay=ws2812-pio,gpio=18,num_leds=N to config.txt (kernel 6.12 or later) and reboot", errno: code)
            case Errno.permissionDenied, Errno.notPermitted:
                throw DeviceError(.permission, "permission denied opening \(path): add a udev rule giving it to a group the daemon is in", errno: code)
            default:
                throw DeviceError(.other, "cannot open \(path): \(Platform.describe(code))", errno: code)
            }
        }
        self.fd = Mutex(fd)
    }

    deinit { fd.withLock { Platform.close($0) } }

    public func write(_ bytes: [UInt8]) throws(DeviceError) {
        try fd.withLock { (fd: inout Int32) throws(DeviceError) in
            let written = Platform.write(fd, bytes)
            guard written == bytes.count else {
                let code = Platform.lastError
                throw DeviceError(written < 0 ? .other : .unsupported, "writing \(bytes.count) bytes to \(path) failed: \(written < 0 ? Platform.describe(code) : "only \(written) written")", errno: written < 0 ? code : nil)
            }
        }
    }
}
