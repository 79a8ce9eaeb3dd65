import HeadwayDevices
import HeadwayLinux
import HeadwayRender
import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The SPI recorder's log and the bus under test.
struct RecordingSPI {
    let path = KernelDevices.spidev ?? ""
    let log = KernelDevices.spiLog ?? ""

    func clearLog() throws { try KernelDevices.write("clear\n", to: log) }
    func transfers() throws -> [RecordedTraffic.SPITransfer] { RecordedTraffic.spiTransfers(try KernelDevices.read(log)) }

    static func rainbow(_ count: Int) -> [RGB8] {
        (0..<count).map { (index: Int) -> RGB8 in
            RGB8(red: UInt8(truncatingIfNeeded: index * 37), green: UInt8(truncatingIfNeeded: 255 - index * 11), blue: UInt8(truncatingIfNeeded: index * 5))
        }
    }

    /// A WS2812 frame through the real spidev, checked in the log and decoded by the chain model.
    func showWS2812(count: Int) throws {
        try clearLog()
        let bus = try LinuxSPIBus(path: path)
        let strip = try WS2812Strip(bus: bus, configuration: .init(count: count))
        let levels = Self.rainbow(count)
        try strip.show(levels)
        let sent = try transfers()
        try #require(sent.count == 1, "a WS2812 frame is one message")
        #expect(sent[0].speedHz == 2_400_000)
        #expect(sent[0].bitsPerWord == 8)
        #expect(sent[0].mode == 0)
        #expect(sent[0].bytes.count == strip.frameLength)
        let asEncoded = sent[0].bytes == strip.encode(levels)
        #expect(asEncoded, "the bytes the driver encoded")
        let chain = VirtualWS2812Chain(count: count)
        chain.receive(sent[0].bytes, hz: sent[0].speedHz, mode: sent[0].mode)
        #expect(chain.violations.isEmpty, "\(chain.violations.prefix(3))")
        let decoded = chain.levels == levels
        #expect(decoded, "the chain model decodes the colours sent")
        print("WS2812, \(count) LEDs: \(sent[0].bytes.count) bytes at \(sent[0].speedHz) Hz, mode \(sent[0].mode), through \(path)")
    }
}

extension Kernel {
    /// The spidev backend on the recording controller.
    @Suite("SPI through spidev", .enabled(if: KernelDevices.spidev != nil && KernelDevices.spiLog != nil, KernelDevices.skipNote))
    struct SPI {
        let spi = RecordingSPI()

        @Test func bufsizIsReadFromTheKernel() throws {
            let bus = try LinuxSPIBus(path: spi.path)
            #expect(bus.maxTransferLength == KernelDevices.spidevBufsiz)
        }

        @Test func ws2812FrameGoesOutAsOneMessageAtTheEncodingsClock() throws {
            try spi.showWS2812(count: 24)
        }

        @Test func apa102FrameGoesOutWithItsSpeedModeAndBytes() throws {
            try spi.clearLog()
            let bus = try LinuxSPIBus(path: spi.path)
            let strip = try APA102Strip(bus: bus, count: 30, globalBrightness: 7, speedHz: 4_000_000)
            let levels = RecordingSPI.rainbow(30)
            try strip.show(levels)
            let sent = try spi.transfers()
            try #require(sent.count == 1)
            #expect(sent[0].speedHz == 4_000_000)
            #expect(sent[0].mode == 0 && sent[0].bitsPerWord == 8)
            let asEncoded = sent[0].bytes == strip.encoder.encode(levels)
            #expect(asEncoded, "the bytes the driver encoded")
            let chain = VirtualAPA102Chain(count: 30)
            chain.receive(sent[0].bytes, hz: sent[0].speedHz, mode: sent[0].mode)
            #expect(chain.violations.isEmpty, "\(chain.violations.prefix(3))")
            let shown = chain.frames
            let decoded = shown.map(\.level) == levels
            #expect(decoded, "each LED's colour")
            #expect(shown.allSatisfy { $0.brightness == 7 }, "each LED's 5-bit brightness")
        }

        @Test func theKernelClampsASpeedAboveTheControllersMaximum() throws {
            try spi.clearLog()
            let strip = try APA102Strip(bus: try LinuxSPIBus(path: spi.path), count: 4, speedHz: 40_000_000)
            try strip.show(RecordingSPI.rainbow(4))
            #expect(try spi.transfers().map(\.speedHz) == [20_000_000], "the recorder's max_speed_hz")
        }

        @Test(.enabled(if: KernelDevices.spidevBufsiz == 4096, "spidev booted with its default bufsiz"))
        func frameLargerThanBufsizIsRefusedWithTheFix() throws {
            try spi.clearLog()
            let bus = try LinuxSPIBus(path: spi.path)
            #expect {
                _ = try WS2812Strip(bus: bus, configuration: .init(count: 600))
            } throws: { error in
                let error = error as! DeviceError
                return error.kind == .unsupported
                    && error.message.contains("600 LEDs need 5580 bytes per frame")
                    && error.message.contains("more than the 4096 bytes spi0.0 takes in one message")
                    && error.message.contains("spidev.bufsiz=8192")
            }
            #expect {
                try bus.write([UInt8](repeating: 0, count: 5580), settings: SPISettings(speedHz: 2_400_000))
            } throws: { error in
                (error as! DeviceError).message.hasPrefix("a message of 5580 bytes does not fit spidev's buffer of 4096 bytes on \(spi.path)")
            }
            #expect(try spi.transfers().isEmpty, "nothing reached the controller")
        }
    }

    /// Run in a second boot, with `spidev.bufsiz=131072` on the kernel command line.
    @Suite("SPI with spidev.bufsiz raised", .enabled(if: (KernelDevices.spidevBufsiz ?? 0) > 4096, "needs a VM booted with spidev.bufsiz raised (Scripts/kernel-test)"))
    struct SPIBufsiz {
        @Test func theLargeFrameIsAcceptedOnceBufsizIsRaised() throws {
            let bus = try LinuxSPIBus(path: RecordingSPI().path)
            #expect(bus.maxTransferLength == KernelDevices.spidevBufsiz)
            try RecordingSPI().showWS2812(count: 600)
        }
    }
}
