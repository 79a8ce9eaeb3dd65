import Foundation
import HeadwayDevices
@testable import HeadwayLinux
import Testing

@Suite("Linux SPI bus")
struct LinuxSPIBusTests {
    @Test func missingDeviceSaysHowToEnableSPI() {
        #expect {
            _ = try LinuxSPIBus(bus: 9, chipSelect: 9)
        } throws: { error in
            let error = error as! DeviceError
            return error.kind == .notPresent && error.message.contains("/dev/spidev9.9") && error.message.contains("dtparam=spi=on")
        }
    }

    @Test func bufsizIsReadFromTheModuleParameter() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bufsiz-\(UUID().uuidString)").path
        try "65536\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(LinuxSPIBus.readBufsiz(path) == 65536)
        #expect(LinuxSPIBus.readBufsiz("/nonexistent/bufsiz") == nil)
    }

    @Test func permissionAdviceNamesTheGroup() {
        #expect(SPIErrno.opening("/dev/spidev0.0", errno: EACCES).message.contains("spi group"))
        #expect(SPIErrno.transfer("/dev/spidev0.0", errno: EMSGSIZE).message.contains("spidev.bufsiz"))
    }
}
