import CLinuxBuses
import HeadwayDevices
import HeadwaySystem

/// Whether something answers at an I2C address, asked the way i2cdetect asks (the address with
/// no data: nothing is written to the device). For `headwayd doctor`.
public enum I2CProbe {
    /// What an address said when probed.
    public enum Answer: Sendable, Equatable {
        /// A device acknowledged its address.
        case acknowledged
        /// Nothing acknowledged.
        case silent
        /// A kernel driver owns the address (`UU` in i2cdetect): i2c-dev may not use it.
        case ownedByKernelDriver
    }

    /// Probes `address` on the bus at `path` (`/dev/i2c-1`).
    public static func probe(bus path: String, address: UInt8) throws(DeviceError) -> Answer {
        let fd = SystemIO.open(path, for: .readWrite)
        guard fd >= 0 else { throw I2CErrno.opening(path, errno: SystemError.last.code) }
        defer { SystemIO.close(fd) }
        switch hw_i2c_probe(fd, UInt16(address)) {
        case 1: return .acknowledged
        case 0: return .silent
        default:
            let code = SystemError.last.code
            if code == Errno.busy { return .ownedByKernelDriver }
            throw DeviceError(.other, "probing \(hexByte(address)) on \(path) failed: \(SystemError(code))", errno: code)
        }
    }
}
