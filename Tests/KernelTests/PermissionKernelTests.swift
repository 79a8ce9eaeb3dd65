import HeadwayDevices
import HeadwayLinux
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// Run as a user without access to the device nodes (Scripts/kernel-test runs them as nobody):
    /// each bus says which group grants access.
    @Suite("Permission errors", .enabled(if: KernelDevices.unprivileged && KernelDevices.i2cRecorder != nil, "runs as an unprivileged user in the kernel-test VM"))
    struct Permission {
        @Test func runsWithoutPrivileges() {
            #expect(getuid() != 0 && geteuid() != 0)
        }

        @Test func i2cBusNamesTheI2CGroup() throws {
            let path = KernelDevices.i2cRecorder!
            #expect {
                _ = try LinuxI2CBus(path: path)
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .permission && error.errno == EACCES
                    && error.message == "permission denied opening \(path): add the user to the i2c group (sudo usermod -aG i2c $USER, then log in again) or run the daemon with SupplementaryGroups=i2c"
            }
        }

        @Test func spidevNamesTheSPIGroup() throws {
            let path = KernelDevices.spidev!
            #expect {
                _ = try LinuxSPIBus(path: path)
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .permission && error.errno == EACCES && error.message.contains("add the user to the spi group")
            }
        }

        @Test func gpioChipNamesTheGPIOGroup() throws {
            let chip = "/dev/" + KernelDevices.gpioSysfs!.split(separator: "/").last!
            #expect {
                _ = try GpiodChip(chip)
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .permission && error.message.contains("permission denied opening GPIO chip \(chip): add the user to the gpio group")
            }
        }
    }
}
