import Headway
import HeadwayLinux
import HeadwayService

/// `headwayd doctor`'s questions to this machine's devices, through the same libgpiod and i2c-dev
/// code the daemon drives them with; requests no line and writes nothing.
struct LinuxDoctorProbe: DoctorProbe {
    func gpioChips() -> [GPIOChipSummary] {
        GpiodChip.all().map { GPIOChipSummary(path: "/dev/" + $0.name, name: $0.name, label: $0.label, lines: $0.lineCount) }
    }

    func holder(chip path: String, line: UInt32) throws(DeviceError) -> String? {
        try GpiodChip(path).holder(of: line)
    }

    func i2c(bus path: String, address: UInt8) throws(DeviceError) -> I2CPresence {
        switch try I2CProbe.probe(bus: path, address: address) {
        case .acknowledged: .acknowledged
        case .silent: .silent
        case .ownedByKernelDriver: .ownedByKernelDriver
        }
    }
}
