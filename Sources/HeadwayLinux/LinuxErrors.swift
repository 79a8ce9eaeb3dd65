import HeadwayDevices
import HeadwaySystem


/// Turns the error number of a failed I2C call into a ``DeviceError`` that says what it means for the
/// person at the board and what to do about it.
enum I2CErrno {
    static func opening(_ path: String, errno code: Int32) -> DeviceError {
        DeviceNodeErrno.opening(
            path, errno: code, group: "i2c",
            enable: "enable I2C (dtparam=i2c_arm=on in config.txt, or raspi-config) and load the i2c-dev module (modprobe i2c-dev)")
    }

    static func transfer(_ bus: String, address: UInt8, errno code: Int32) -> DeviceError {
        let target = "\(hexByte(address)) on /dev/\(bus)"
        switch code {
        case Errno.remoteIO, Errno.noSuchDeviceOrAddress, Errno.ioError:
            return DeviceError(.notPresent, "no device at \(target) (no acknowledge): check the wiring and the address (0x3C or 0x3D) with i2cdetect -y \(bus.split(separator: "-").last ?? "1")", errno: code)
        case Errno.permissionDenied, Errno.notPermitted:
            return DeviceError(.permission, "permission denied talking to \(target): add the user to the i2c group", errno: code)
        case Errno.busy:
            return DeviceError(.busy, "a kernel driver owns \(target) (e.g. the ssd1306 framebuffer overlay): remove that dtoverlay or use another address", errno: code)
        case Errno.timedOut:
            return DeviceError(.timeout, "\(target) timed out: the bus may be held low; check pull-ups and wiring", errno: code)
        case Errno.tryAgain:
            return DeviceError(.other, "lost arbitration on /dev/\(bus) talking to \(hexByte(address)): another master is active", errno: code)
        case Errno.notSupported, Errno.invalid, Errno.notATerminal:
            return DeviceError(.unsupported, "/dev/\(bus) cannot do this transfer for \(hexByte(address)): \(SystemError(code))", errno: code)
        case Errno.noDevice:
            return DeviceError(.notPresent, "/dev/\(bus) went away (adapter removed)", errno: code)
        default:
            return DeviceError(.other, "I2C transfer to \(target) failed: \(SystemError(code))", errno: code)
        }
    }

}

/// Errors opening a bus's device node, the same for every bus but for how to enable it and which
/// group grants access.
enum DeviceNodeErrno {
    static func opening(_ path: String, errno code: Int32, group: String, enable: String) -> DeviceError {
        switch code {
        case Errno.noSuchFile, Errno.noDevice, Errno.noSuchDeviceOrAddress:
            return DeviceError(.notPresent, "\(path) does not exist: \(enable)", errno: code)
        case Errno.permissionDenied, Errno.notPermitted:
            return DeviceError(.permission, "permission denied opening \(path): add the user to the \(group) group (sudo usermod -aG \(group) $USER, then log in again) or run the daemon with SupplementaryGroups=\(group)", errno: code)
        case Errno.busy:
            return DeviceError(.busy, "\(path) is busy: another program holds it exclusively", errno: code)
        default:
            return DeviceError(.other, "cannot open \(path): \(SystemError(code))", errno: code)
        }
    }
}
