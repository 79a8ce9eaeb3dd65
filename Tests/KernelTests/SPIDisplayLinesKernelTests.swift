import HeadwayDevices
import HeadwayLinux
import Testing

extension Kernel {
    /// An SPI display's D/C and reset lines: gpio-sim lines (`HEADWAY_KERNEL_SPI_DC_LINE`,
    /// `HEADWAY_KERNEL_SPI_RESET_LINE`) whose levels the SPI recorder reads while it clocks each
    /// transfer and logs beside the bytes (`dc=`, `reset=`). Here the lines are driven by hand
    /// through the GPIO backend; an SPI OLED driver's kernel tests belong beside this one.
    @Suite("SPI display lines (D/C, reset)", .enabled(
        if: KernelDevices.spidev != nil && KernelDevices.spiLog != nil && KernelDevices.gpioLabel != nil
            && KernelDevices.spiDataCommandLine != nil && KernelDevices.spiResetLine != nil,
        KernelDevices.skipNote))
    struct SPIDisplayLines {
        let spi = RecordingSPI()

        @Test func eachTransferCarriesTheLevelsOfDCAndReset() throws {
            let chip = try GpiodChip(KernelDevices.gpioLabel!)
            let bus = try LinuxSPIBus(path: spi.path)
            let settings = SPISettings(speedHz: 8_000_000)
            // Every pair of levels, with bytes that tell the transfers apart.
            let steps: [(dc: Bool, reset: Bool, bytes: [UInt8])] = [
                (false, false, [0x01]), (false, true, [0xae, 0xd5, 0x80]), (true, true, [0x40, 0x41]), (true, false, [0x02]),
            ]
            try spi.clearLog()
            do {
                let lines = try chip.requestOutputs([KernelDevices.spiDataCommandLine!, KernelDevices.spiResetLine!], activeLow: false, initial: [false, false])
                try withExtendedLifetime(lines) {
                    for step in steps {
                        try lines.set([step.dc, step.reset])
                        try bus.write(step.bytes, settings: settings)
                    }
                }
            }
            // Released, gpio-sim's lines fall back to their pull (down): a display's reset line
            // is low, holding it in reset, once the program that drove it lets go.
            try bus.write([0x03], settings: settings)

            let sent = try spi.transfers()
            try #require(sent.count == steps.count + 1, "one transfer a write: \(sent)")
            #expect(sent.map(\.bytes) == steps.map(\.bytes) + [[0x03]])
            #expect(sent.map(\.dataCommand) == steps.map(\.dc) + [false])
            #expect(sent.map(\.reset) == steps.map(\.reset) + [false])
            #expect(sent.allSatisfy { $0.speedHz == 8_000_000 && $0.bitsPerWord == 8 && $0.mode == 0 })
        }
    }
}

/// The SPI recorder's log lines, parsed (no VM needed).
@Suite struct RecordedSPITrafficTests {
    @Test func theDisplayLinesAreReadWhereLogged() {
        let log = """
            speed=8000000 bits=8 mode=0 len=3 dc=0 reset=1: ae d5 80
            speed=8000000 bits=8 mode=0 len=2 dc=1 reset=1: 40 41
            speed=2400000 bits=8 mode=3 len=1 dc=- reset=?: ff
            speed=2400000 bits=8 mode=0 len=1: 00

            """
        #expect(RecordedTraffic.spiTransfers(log) == [
            .init(speedHz: 8_000_000, bitsPerWord: 8, mode: 0, bytes: [0xae, 0xd5, 0x80], dataCommand: false, reset: true),
            .init(speedHz: 8_000_000, bitsPerWord: 8, mode: 0, bytes: [0x40, 0x41], dataCommand: true, reset: true),
            .init(speedHz: 2_400_000, bitsPerWord: 8, mode: 3, bytes: [0xff], dataCommand: nil, reset: nil),
            .init(speedHz: 2_400_000, bitsPerWord: 8, mode: 0, bytes: [0x00]),
        ])
    }
}
