import HeadwayDevices
import HeadwayLinux
import HeadwayRender
import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Keeps what a driver asked an I2C bus to send, transaction by transaction: the stream the
/// kernel must have passed on unchanged.
/// (Used from one test at a time, hence unchecked.)
final class IntendedI2CTraffic: I2CBus, @unchecked Sendable {
    let name = "intended"
    let maxMessageLength: Int
    private(set) var transactions: [[[UInt8]]] = []

    init(maxMessageLength: Int) { self.maxMessageLength = maxMessageLength }

    func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError) {
        transactions.append(messages)
    }
}

extension Kernel {
    /// The i2c-dev backend on the recording adapter (plain I2C) and on i2c-stub (SMBus only).
    @Suite("I2C through i2c-dev", .enabled(if: KernelDevices.i2cRecorder != nil && KernelDevices.i2cStub != nil, KernelDevices.skipNote))
    struct I2C {
        let recorder = KernelDevices.i2cRecorder ?? ""
        let log = KernelDevices.i2cRecorderLog ?? ""
        let nack = KernelDevices.i2cRecorderNack ?? ""

        /// A progress bar picture with a label-like pattern, different for each `step`.
        static func picture(step: Int) -> Bitmap {
            var bitmap = Bitmap(width: 128, height: 64)
            bitmap.fill(PixelRect(x: 4, y: 40, width: 120, height: 12), on: true)
            bitmap.fill(PixelRect(x: 6, y: 42, width: 116, height: 8), on: false)
            bitmap.fill(PixelRect(x: 6, y: 42, width: 10 + step * 9, height: 8), on: true)
            for x in stride(from: step, to: 128, by: 7) { bitmap[x, 10 + x % 9] = true }
            return bitmap
        }

        func clearLog() throws { try KernelDevices.write("clear\n", to: log) }

        func recordedTransfers() throws -> [[RecordedTraffic.I2CMessage]] {
            RecordedTraffic.i2cTransfers(try KernelDevices.read(log))
        }

        /// `I2C_RDWR` takes 42 messages at most, so the backend splits longer transactions there.
        static func asKernelTransfers(_ transactions: [[[UInt8]]]) -> [[[UInt8]]] {
            transactions.flatMap { messages in
                stride(from: 0, to: messages.count, by: 42).map { Array(messages[$0..<min(messages.count, $0 + 42)]) }
            }
        }

        /// How many bytes of two pictures differ (not the pictures: a failure should stay readable).
        static func differingBytes(_ a: Bitmap, _ b: Bitmap) -> Int {
            zip(a.bytes, b.bytes).filter { $0 != $1 }.count + abs(a.bytes.count - b.bytes.count)
        }

        @Test func smbusOnlyAdapterGetsBlockWritesThroughLibi2c() throws {
            let stub = KernelDevices.i2cStub!
            let bus = try LinuxI2CBus(path: stub)
            #expect(bus.mode == .smbusBlocks)
            #expect(bus.maxMessageLength == 33)
            let display = OLEDDisplay(bus: bus, configuration: try OLEDConfiguration(controller: .ssd1306))
            let picture = Self.picture(step: 3)
            try display.show(.bitmap(picture))

            // i2c-stub keeps each block in its register file at the command byte: the last data
            // block (control byte 0x40) holds the picture's last bytes.
            let intendedBus = IntendedI2CTraffic(maxMessageLength: 33)
            try OLEDDisplay(bus: intendedBus, configuration: try OLEDConfiguration(controller: .ssd1306)).show(.bitmap(picture))
            let lastData = intendedBus.transactions.joined().last { $0.first == 0x40 }!
            let number = stub.split(separator: "-").last!
            let dump = try GuestCommand.run("/usr/sbin/i2cget", ["-y", String(number), "0x3c", "0x40", "i", String(lastData.count - 1)])
            let stored = dump.split(separator: " ").compactMap { UInt8($0.dropFirst(2), radix: 16) }
            #expect(stored == Array(lastData.dropFirst()), "i2c-stub holds the last data block")
        }

        @Test func noAcknowledgeIsReportedAndTheDisplayIsSetUpAgainOnReturn() throws {
            let bus = try LinuxI2CBus(path: recorder)
            let display = OLEDDisplay(bus: bus, configuration: try OLEDConfiguration(controller: .ssd1306))
            try display.show(.bitmap(Self.picture(step: 1)))

            try KernelDevices.write("1", to: nack)
            defer { try? KernelDevices.write("0", to: nack) }
            #expect {
                try display.show(.bitmap(Self.picture(step: 2)))
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .notPresent && error.errno == ENXIO
                    && error.message.hasPrefix("no device at 0x3C on \(recorder) (no acknowledge)")
            }

            try KernelDevices.write("0", to: nack)
            try clearLog()
            let back = Self.picture(step: 4)
            try display.show(.bitmap(back))
            let transfers = try recordedTransfers()
            let setup = try OLEDConfiguration(controller: .ssd1306)
            let intendedBus = IntendedI2CTraffic(maxMessageLength: bus.maxMessageLength)
            try OLEDDisplay(bus: intendedBus, configuration: setup).show(.bitmap(back))
            let resent = transfers.map { $0.map(\.bytes) } == Self.asKernelTransfers(intendedBus.transactions)
            #expect(resent, "after the fault: the whole set-up and the whole picture again")
            let chip = RecordedTraffic.decodeOLED(transfers, controller: .ssd1306)
            #expect(chip.protocolErrors.isEmpty)
            #expect(Self.differingBytes(chip.picture, back) == 0)
        }

        @Test func missingBusSaysHowToEnableIt() throws {
            #expect {
                _ = try LinuxI2CBus(path: "/dev/i2c-63")
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .notPresent && error.errno == ENOENT
                    && error.message == "/dev/i2c-63 does not exist: enable I2C (dtparam=i2c_arm=on in config.txt, or raspi-config) and load the i2c-dev module (modprobe i2c-dev)"
            }
        }
    }
}
