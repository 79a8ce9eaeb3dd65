import HeadwayDevices
@testable import HeadwayLinux
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What can be checked of the i2c-dev backend without an I2C adapter: opening errors and the
/// meaning given to each errno. The real-kernel tests (QEMU) exercise transfers.
@Suite("Linux I2C bus")
struct LinuxI2CBusTests {
    @Test func missingBusSaysHowToEnableIt() {
        #expect {
            _ = try LinuxI2CBus(path: "/dev/i2c-97")
        } throws: { error in
            let error = error as! DeviceError
            return error.kind == .notPresent && error.errno == ENOENT && error.message.contains("dtparam=i2c_arm=on")
        }
    }

    @Test func aFileThatIsNotAnAdapterIsRefused() {
        #expect {
            _ = try LinuxI2CBus(path: "/dev/null")
        } throws: { error in
            let error = error as! DeviceError
            return error.kind == .unsupported && error.message.contains("not an I2C adapter")
        }
    }

    @Test func errnoMeanings() {
        let nack = I2CErrno.transfer("i2c-1", address: 0x3C, errno: EREMOTEIO)
        #expect(nack.kind == .notPresent && nack.message.hasPrefix("no device at 0x3C on /dev/i2c-1"))
        #expect(I2CErrno.transfer("i2c-1", address: 0x3C, errno: ENXIO).kind == .notPresent)
        #expect(I2CErrno.transfer("i2c-1", address: 0x3C, errno: EIO).kind == .notPresent)
        let busy = I2CErrno.transfer("i2c-1", address: 0x3C, errno: EBUSY)
        #expect(busy.kind == .busy && busy.message.contains("a kernel driver owns 0x3C"))
        let denied = I2CErrno.opening("/dev/i2c-1", errno: EACCES)
        #expect(denied.kind == .permission && denied.message.contains("i2c group"))
        #expect(I2CErrno.transfer("i2c-1", address: 0x3C, errno: ETIMEDOUT).kind == .timeout)
        #expect(I2CErrno.transfer("i2c-1", address: 0x3C, errno: EOPNOTSUPP).kind == .unsupported)
    }
}
