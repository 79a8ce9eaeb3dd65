import HeadwayCore
import HeadwayDevices
import HeadwayLinux
import HeadwayRender
import HeadwaySimulator
import Testing

extension Kernel {
    /// Every TFT module through the kernel's real spidev, D/C, reset and the backlight on gpio-sim
    /// lines: the exact bytes the driver meant, at the D/C levels it meant them, decoded by the
    /// controller's datasheet model into the glass the simulator shows for the same frames.
    @Suite("TFT controllers through spidev", .enabled(
        if: KernelDevices.spidev != nil && KernelDevices.spiDataCommandLine != nil && KernelDevices.spiResetLine != nil
            && KernelDevices.gpioLabel != nil && KernelDevices.gpioSysfs != nil,
        KernelDevices.skipNote))
    struct TFTs {
        /// A free line of the test bank for the backlight.
        static let backlightLine: UInt32 = 22
        static let frames = 4

        /// Frames of a job in colour: a grid of colours, a bar that grows, a block that moves.
        static func picture(_ width: Int, _ height: Int, step: Int) -> ColourPicture {
            var picture = ColourPicture(width: width, height: height)
            let colours = [RGB8(red: 255, green: 0, blue: 0), RGB8(red: 0, green: 255, blue: 0), RGB8(red: 0, green: 0, blue: 255), RGB8(red: 255, green: 255, blue: 255)]
            for y in 0..<height / 4 { for x in 0..<width { picture[x, y] = colours[x * 4 / width] } }
            for y in height / 2..<(height / 2 + 8) { for x in 2..<min(width, 10 + step * 9) { picture[x, y] = RGB8(red: 0, green: 160, blue: 255) } }
            let block = (step * 13) % max(1, width - 8)
            for y in (height - 10)..<(height - 2) { for x in block..<(block + 8) { picture[x, y] = RGB8(red: 255, green: 144, blue: 0) } }
            return picture
        }

        /// The modules, each turned a quarter (the other rotations are the simulator's tests').
        static let modules = TFTModule.catalogue.map(\.name)

        @Test(arguments: modules)
        func theGlassIsWhatTheSimulatorShows(_ name: String) throws {
            let module = try #require(TFTModule.named(name))
            let configuration = try TFTConfiguration(module: module, rotation: .quarter)
            let dc = KernelDevices.spiDataCommandLine!, reset = KernelDevices.spiResetLine!
            let spi = RecordingSPI()
            try spi.clearLog()
            let bus = try LinuxSPIBus(path: spi.path)
            // The recorder's controller runs at most 20 MHz: the slower of that and the datasheet's.
            let speed = min(module.controller.maxSPIHz, 10_000_000)
            let lines = SimulatedLines()
            do {
                let chip = try GpiodChip(KernelDevices.gpioLabel!)
                let link = try DataCommandSPI(bus: bus, speedHz: speed, chip: chip, dataCommand: dc, reset: reset, delay: LinuxDelay())
                let display = TFTDisplay(link: link, configuration: configuration, backlight: try TFTBacklight(chip: chip, line: Self.backlightLine),
                                         delay: LinuxDelay(), resynchronisation: .onErrorsOnly)
                for step in 0..<Self.frames { try display.show(.colour(Self.picture(configuration.width, configuration.height, step: step))) }
                #expect(try lines.level(Self.backlightLine), "the backlight is on once the first picture is shown")
                try display.setDisplayOn(false)
                #expect(try !lines.level(Self.backlightLine), "and off with the panel")
                try display.setDisplayOn(true)
            }
            let intended = IntendedSPITraffic(maxTransferLength: bus.maxTransferLength)
            let meant = TFTDisplay(link: DataCommandSPI(bus: intended, settings: SPISettings(speedHz: speed), dataCommand: intended, reset: nil),
                                   configuration: configuration, delay: SimulatedDelay(clock: ManualClock()), resynchronisation: .onErrorsOnly)
            for step in 0..<Self.frames { try meant.show(.colour(Self.picture(configuration.width, configuration.height, step: step))) }
            try meant.setDisplayOn(false)
            try meant.setDisplayOn(true)

            let sent = try spi.transfers()
            #expect(sent.count == intended.writes.count, "one transfer a write")
            let asMeant = sent.map { [$0.dataCommand == true ? 1 : 0] + $0.bytes } == intended.writes.map { [$0.dataCommand ? 1 : 0] + $0.bytes }
            #expect(asMeant, "every transfer's bytes and D/C level as the driver meant them")
            #expect(sent.allSatisfy { $0.reset == true }, "out of reset for every transfer")
            #expect(sent.allSatisfy { $0.speedHz == speed && $0.mode == 0 && $0.bytes.count <= bus.maxTransferLength })
            print("\(module.title) on SPI: \(sent.count) transfers, \(sent.reduce(0) { $0 + $1.bytes.count }) bytes at \(speed) Hz through \(spi.path)")

            let decoded = RecordedTraffic.decodeTFT(sent, module, dataCommand: dc, reset: reset)
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors.prefix(3))")
            let simulated = try SimulatedTFT(configuration: configuration, clockModel: .exact, speedHz: speed)
            for step in 0..<Self.frames { try simulated.driver.show(.colour(Self.picture(configuration.width, configuration.height, step: step))) }
            #expect(simulated.chip.protocolErrors.isEmpty)
            let same = decoded.glass.pixels == simulated.glass.pixels && decoded.glass.isLit
            #expect(same, "the kernel's bytes show what the simulator shows")
        }
    }
}

extension RecordedTraffic {
    /// Feeds recorded SPI transfers to the datasheet model of `module`, D/C and reset at the
    /// levels logged with each transfer, and returns it.
    static func decodeTFT(_ transfers: [SPITransfer], _ module: TFTModule, dataCommand: UInt32, reset: UInt32) -> VirtualTFT {
        let clock = ManualClock()
        let lines = VirtualGPIOChip(label: "gpio-sim", clock: clock)
        let chip = VirtualTFT(module: TFTModuleModel.twin(of: module)!)
        chip.wireSPI(dc: dataCommand, reset: reset, backlight: nil, on: lines, clock: clock)
        lines.setLevels([reset], physical: [true])
        for transfer in transfers {
            // The log has no times: 200 ms between transfers keeps every wait the datasheets ask
            // for (the real ones were at least as long); none of them is a longest time.
            clock.advance(by: 0.2)
            lines.setLevels([dataCommand, reset], physical: [transfer.dataCommand ?? false, transfer.reset ?? true])
            chip.receive(transfer.bytes, hz: transfer.speedHz, mode: transfer.mode)
        }
        return chip
    }
}
