import HeadwayCore
import HeadwayDevices
import HeadwayLinux
import HeadwayRender
import HeadwaySimulator
import Synchronization
import Testing

/// What an OLED driver meant to send on SPI: each write with the D/C level it was made at.
final class IntendedSPITraffic: SPIBus, GPIOOutputLines, @unchecked Sendable {
    let name = "intended"
    let maxTransferLength: Int
    let clockModel = SPIClockModel.exact
    let offsets: [UInt32] = [0]
    private(set) var writes: [(dataCommand: Bool, bytes: [UInt8])] = []
    private var level = false

    init(maxTransferLength: Int) { self.maxTransferLength = maxTransferLength }

    func write(_ bytes: [UInt8], settings: SPISettings) throws(DeviceError) { writes.append((level, bytes)) }
    func set(_ values: [Bool]) throws(DeviceError) { level = values[0] }
}

extension Kernel {
    /// Every controller and module size through the kernel's real spidev (D/C and reset on
    /// gpio-sim, their levels logged with each transfer) and i2c-dev (the recording adapter): the
    /// exact bytes the driver meant, decoded by the datasheet models into the picture the simulator
    /// shows for the same frames.
    @Suite("OLED controllers through spidev and i2c-dev", .enabled(
        if: KernelDevices.spidev != nil && KernelDevices.spiDataCommandLine != nil && KernelDevices.spiResetLine != nil
            && KernelDevices.i2cRecorder != nil && KernelDevices.gpioLabel != nil,
        KernelDevices.skipNote))
    struct OLEDs {
        struct Module: CustomTestStringConvertible, Sendable {
            var controller: OLEDController
            var width: Int
            var height: Int
            var testDescription: String { "\(controller.rawValue) \(width)x\(height)" }
        }

        static let modules = OLEDController.allCases.flatMap { controller in
            controller.variant.modules.map { Module(controller: controller, width: $0.width, height: $0.height) }
        }

        /// Frames of a job: grey bands, a bar that grows and a moving block, different each `step`.
        static func picture(_ width: Int, _ height: Int, step: Int) -> Greymap {
            var picture = Greymap(width: width, height: height)
            for level in 0..<16 { picture.fill(PixelRect(x: level * width / 16, y: 0, width: width / 16, height: height / 4), level: UInt8(level)) }
            picture.fill(PixelRect(x: 2, y: height / 2, width: 10 + step * 9, height: 8), level: 15)
            picture.fill(PixelRect(x: (step * 13) % (width - 8), y: height - 10, width: 8, height: 8), level: UInt8(4 + step))
            return picture
        }

        static let frames = 5

        /// The glass the simulator shows after the same frames (on a virtual I2C bus: the glass
        /// does not depend on the bus).
        static func simulatedGlass(_ configuration: OLEDConfiguration) throws -> Greymap {
            let oled = SimulatedOLED(name: "oled", configuration: configuration, bus: VirtualI2CBus(clock: ManualClock()), resynchronisation: .onErrorsOnly)
            for step in 0..<frames { try oled.driver.show(.greymap(picture(configuration.width, configuration.height, step: step))) }
            #expect(oled.chip.protocolErrors.isEmpty, "\(oled.chip.protocolErrors.prefix(3))")
            return oled.glass
        }

        @Test(arguments: modules)
        func overSPIWithDataCommandAndReset(module: Module) throws {
            let spi = RecordingSPI()
            let configuration = try OLEDConfiguration(controller: module.controller, width: module.width, height: module.height)
            let dc = KernelDevices.spiDataCommandLine!, reset = KernelDevices.spiResetLine!
            try spi.clearLog()
            let bus = try LinuxSPIBus(path: spi.path)
            let speed = configuration.variant.maxSPIClockHz
            do {
                let chip = try GpiodChip(KernelDevices.gpioLabel!)
                let interface = try SPIOLEDInterface(bus: bus, speedHz: speed, chip: chip, dataCommand: dc, reset: reset, delay: LinuxDelay())
                let display = OLEDDisplay(interface: interface, configuration: configuration, resynchronisation: .onErrorsOnly)
                for step in 0..<Self.frames { try display.show(.greymap(Self.picture(module.width, module.height, step: step))) }
            }
            let intended = IntendedSPITraffic(maxTransferLength: bus.maxTransferLength)
            let intendedDisplay = OLEDDisplay(
                interface: SPIOLEDInterface(link: DataCommandSPI(bus: intended, settings: SPISettings(speedHz: speed), dataCommand: intended, reset: nil)), configuration: configuration,
                resynchronisation: .onErrorsOnly)
            for step in 0..<Self.frames { try intendedDisplay.show(.greymap(Self.picture(module.width, module.height, step: step))) }

            let sent = try spi.transfers()
            #expect(sent.count == intended.writes.count, "one transfer a write")
            let asMeant = sent.map { [$0.dataCommand == true ? 1 : 0] + $0.bytes } == intended.writes.map { [$0.dataCommand ? 1 : 0] + $0.bytes }
            #expect(asMeant, "every transfer's bytes and D/C level as the driver meant them")
            #expect(sent.allSatisfy { $0.reset == true }, "out of reset for every transfer")
            #expect(sent.allSatisfy { $0.speedHz == speed && $0.mode == 0 && $0.bytes.count <= bus.maxTransferLength })
            print("\(module.testDescription) on SPI: \(sent.count) transfers, \(sent.reduce(0) { $0 + $1.bytes.count }) bytes at \(speed) Hz through \(spi.path)")

            let decoded = RecordedTraffic.decodeOLED(sent, module.controller, width: module.width, height: module.height, dataCommand: dc, reset: reset)
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors.prefix(3))")
            let same = decoded.glass == (try Self.simulatedGlass(configuration))
            #expect(same, "the kernel's bytes show what the simulator shows")
        }

        @Test(arguments: modules)
        func overI2C(module: Module) throws {
            let log = KernelDevices.i2cRecorderLog ?? ""
            try KernelDevices.write("clear\n", to: log)
            let bus = try LinuxI2CBus(path: KernelDevices.i2cRecorder!)
            let configuration = try OLEDConfiguration(controller: module.controller, width: module.width, height: module.height)
            let display = OLEDDisplay(bus: bus, configuration: configuration, resynchronisation: .onErrorsOnly)
            let intendedBus = IntendedI2CTraffic(maxMessageLength: bus.maxMessageLength)
            let intended = OLEDDisplay(bus: intendedBus, configuration: configuration, resynchronisation: .onErrorsOnly)
            for step in 0..<Self.frames {
                try display.show(.greymap(Self.picture(module.width, module.height, step: step)))
                try intended.show(.greymap(Self.picture(module.width, module.height, step: step)))
            }
            let transfers = RecordedTraffic.i2cTransfers(try KernelDevices.read(log))
            let sent = transfers.map { $0.map(\.bytes) }
            #expect(sent == Kernel.I2C.asKernelTransfers(intendedBus.transactions), "the exact transactions the driver meant, one I2C_RDWR each")
            #expect(transfers.allSatisfy { $0.allSatisfy { $0.address == configuration.address && !$0.isRead } })
            #expect(sent.first?.first?.prefix(1) == [0x00], "set-up first, as a command stream")
            print("\(module.testDescription) on I2C: \(transfers.count) transfers, \(sent.joined().reduce(0) { $0 + $1.count }) bytes through \(KernelDevices.i2cRecorder!)")
            let decoded = RecordedTraffic.decodeOLED(transfers, controller: module.controller, width: module.width, height: module.height)
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors.prefix(3))")
            let same = decoded.glass == (try Self.simulatedGlass(configuration))
            #expect(same, "the kernel's bytes show what the simulator shows")
        }
    }
}
