import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests that need a real Linux kernel's devices: gpio-sim, the recording I2C adapter and
/// SPI controller (Tests/KernelTests/VM/modules) and i2c-stub. Scripts/kernel-test boots a VM with
/// them and sets the `HEADWAY_KERNEL_*` variables; anywhere else these tests are skipped, saying so.
/// They share the devices, so they run one at a time.
@Suite(.serialized) enum Kernel {}

/// Where the guest's simulated devices are, from the environment.
enum KernelDevices {
    static func variable(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The gpio-sim bank's label, and the sysfs folder with its `sim_gpioN/{value,pull}` files.
    static var gpioLabel: String? { variable("HEADWAY_KERNEL_GPIO_LABEL") }
    static var gpioSysfs: String? { variable("HEADWAY_KERNEL_GPIO_SYSFS") }
    /// `/dev/i2c-N` of the recording adapter, its debugfs log and its `nack` parameter.
    static var i2cRecorder: String? { variable("HEADWAY_KERNEL_I2C_RECORDER") }
    static var i2cRecorderLog: String? { variable("HEADWAY_KERNEL_I2C_RECORDER_LOG") }
    static var i2cRecorderNack: String? { variable("HEADWAY_KERNEL_I2C_RECORDER_NACK") }
    /// `/dev/i2c-N` of i2c-stub (an SMBus-only adapter with a chip at 0x3c).
    static var i2cStub: String? { variable("HEADWAY_KERNEL_I2C_STUB") }
    /// `/dev/spidev0.0` on the recording controller, its log, and spidev's bufsiz in this boot.
    static var spidev: String? { variable("HEADWAY_KERNEL_SPIDEV") }
    static var spiLog: String? { variable("HEADWAY_KERNEL_SPI_LOG") }
    static var spidevBufsiz: Int? { variable("HEADWAY_KERNEL_SPIDEV_BUFSIZ").flatMap(Int.init) }
    /// A display's D/C and reset lines: offsets on the gpio-sim bank (`gpioLabel`) whose levels
    /// the SPI recorder logs with every transfer (`dc=`, `reset=`; `SPITransfer.dataCommand`, `.reset`).
    static var spiDataCommandLine: UInt32? { variable("HEADWAY_KERNEL_SPI_DC_LINE").flatMap { UInt32($0) } }
    static var spiResetLine: UInt32? { variable("HEADWAY_KERNEL_SPI_RESET_LINE").flatMap { UInt32($0) } }
    /// The folder with the host-built headwayd and headway.
    static var binaries: String? { variable("HEADWAY_KERNEL_BINARIES") }
    /// Set when the tests run as a user without access to the device nodes.
    static var unprivileged: Bool { variable("HEADWAY_KERNEL_UNPRIVILEGED") != nil }

    static let skipNote: Comment = "needs the kernel-test VM's devices: run Scripts/kernel-test"

    /// Reads a sysfs or debugfs file whole (they report a size of 0, so read until EOF).
    static func read(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KernelFileError(path: path, errno: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw KernelFileError(path: path, errno: errno) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to a sysfs, configfs or debugfs file.
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KernelFileError(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw KernelFileError(path: path, errno: errno) }
    }
}

/// gpio-sim's view of its lines: what a consumer drives, and the pull that simulates a button.
struct SimulatedLines {
    let sysfs = KernelDevices.gpioSysfs ?? ""

    /// The level of line `offset`: what a consumer drives, or its pull when nobody does.
    func level(_ offset: UInt32) throws -> Bool {
        try KernelDevices.read("\(sysfs)/sim_gpio\(offset)/value").hasPrefix("1")
    }

    func levels(_ offsets: [UInt32]) throws -> [Bool] { try offsets.map(level) }

    func pull(_ offset: UInt32, up: Bool) throws {
        try KernelDevices.write(up ? "pull-up" : "pull-down", to: "\(sysfs)/sim_gpio\(offset)/pull")
    }
}

struct KernelFileError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32
    var description: String { "\(path): \(String(cString: strerror(errno)))" }
}
