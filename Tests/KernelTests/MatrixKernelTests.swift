import Foundation
import HeadwayCore
import HeadwayDevices
import HeadwayLinux
import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// The LED matrix drivers over the real i2c-dev and spidev: what the recorders logged, fed to
    /// the chips' datasheet models, shows the glass the simulator shows for the same frames.
    @Suite("LED matrices through i2c-dev and spidev", .enabled(
        if: KernelDevices.i2cRecorder != nil && KernelDevices.spidev != nil && KernelDevices.spiLog != nil, KernelDevices.skipNote))
    struct Matrices {
        let recorder = KernelDevices.i2cRecorder ?? ""
        let log = KernelDevices.i2cRecorderLog ?? ""
        let spi = RecordingSPI()

        /// Pseudo-random frames for `face`, the same every run.
        static func frames(_ face: MatrixFace, count: Int, seed: UInt64) -> [MatrixFrame] {
            var state = seed
            func next(_ bound: Int) -> Int {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Int(truncatingIfNeeded: state >> 33) % bound
            }
            return (0..<count).map { _ in
                switch face {
                case .pixels(let width, let height, let dies):
                    var levels = MatrixLevels(width: width, height: height)
                    for y in 0..<height {
                        for x in 0..<width where next(3) == 0 {
                            let level = UInt8(1 + next(255))
                            levels[x, y] = dies == .rgb ? RGB8(red: level, green: UInt8(next(256)), blue: UInt8(next(256))) : dies == .redGreen ? RGB8(red: 255 * UInt8(next(2)), green: 255, blue: 0) : RGB8(red: level, green: level, blue: level)
                        }
                    }
                    return MatrixFrame(.pixels(levels), blink: next(4) == 0 ? .oneHertz : .steady, dimming: Double(1 + next(16)) / 16)
                case .segments(let count, _, let colon):
                    let digits = (0..<count).map { _ in SegmentSet(rawValue: UInt16(next(1 << 15))) }
                    return MatrixFrame(.segments(SegmentPicture(digits: digits, colon: colon && next(2) == 0)))
                }
            }
        }

        /// The transactions the I2C recorder logged, replayed into `chip` (a transaction ends in a STOP).
        func replayI2C(into chip: any I2CTarget) throws {
            for transfer in RecordedTraffic.i2cTransfers(try KernelDevices.read(log)) {
                for message in transfer where !message.isRead && message.address == chip.address { chip.receive(message.bytes) }
                chip.stop()
            }
        }

        @Test(arguments: HT16K33Backpack.allCases)
        func ht16k33GlassIsTheSimulators(backpack: HT16K33Backpack) throws {
            try KernelDevices.write("clear\n", to: log)
            let clock = ManualClock()
            let configuration = HT16K33Display.Configuration(backpack: backpack, address: 0x70)
            let linux = HT16K33Display(bus: try LinuxI2CBus(path: recorder), configuration: configuration, clock: clock)
            let virtualBus = VirtualI2CBus(clock: clock)
            let module: HT16K33Module = switch backpack {
            case .bargraph24: .bargraph24
            case .matrix8x8: .matrix8x8()
            case .matrix8x8Bicolour: .matrix8x8Bicolour
            case .matrix16x8: .matrix16x8()
            case .segments4: .segments4()
            case .alnum4: .alnum4()
            }
            let simulated = VirtualHT16K33(address: 0x70, module: module, clock: clock)
            virtualBus.attach(simulated)
            let twin = HT16K33Display(bus: virtualBus, configuration: configuration, clock: clock)
            let decoded = VirtualHT16K33(address: 0x70, module: module, clock: clock)
            for frame in Self.frames(linux.face, count: 10, seed: 7) {
                try linux.show(frame)
                try twin.show(frame)
            }
            try replayI2C(into: decoded)
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors)")
            #expect(decoded.ram == simulated.ram && decoded.blinkHz == simulated.blinkHz && decoded.dimmingSixteenths == simulated.dimmingSixteenths)
            let same = decoded.glass(at: clock.now) == simulated.glass(at: clock.now)
            #expect(same, "the decoded glass is the simulator's")
        }

        @Test(arguments: IS31FL3731Board.allCases)
        func is31fl3731GlassIsTheSimulators(board: IS31FL3731Board) throws {
            try KernelDevices.write("clear\n", to: log)
            let clock = ManualClock()
            let configuration = IS31FL3731Matrix.Configuration(board: board, address: 0x74)
            let linux = IS31FL3731Matrix(bus: try LinuxI2CBus(path: recorder), configuration: configuration, clock: clock)
            let module: IS31FL3731Module = switch board {
            case .scrollPHATHD: .scrollPHATHD()
            case .ledSHIM: .ledSHIM
            case .charlieplex16x9: .charlieplex16x9()
            }
            let virtualBus = VirtualI2CBus(clock: clock)
            let simulated = VirtualIS31FL3731(address: 0x74, module: module, clock: clock)
            virtualBus.attach(simulated)
            let twin = IS31FL3731Matrix(bus: virtualBus, configuration: configuration, clock: clock)
            for frame in Self.frames(linux.face, count: 10, seed: 11) {
                try linux.show(frame)
                try twin.show(frame)
            }
            let decoded = VirtualIS31FL3731(address: 0x74, module: module, clock: clock)
            try replayI2C(into: decoded)
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors)")
            #expect(decoded.functionRegisters == simulated.functionRegisters)
            #expect((1...2).allSatisfy { decoded.frameRegisters($0) == simulated.frameRegisters($0) })
            let same = decoded.glass(at: clock.now) == simulated.glass(at: clock.now)
            #expect(same, "the decoded glass is the simulator's")
        }

        @Test(arguments: [(MAX7219Layout.fc16, 4), (.segments8, 2)])
        func max7219GlassIsTheSimulators(layout: MAX7219Layout, devices: Int) throws {
            try spi.clearLog()
            let clock = ManualClock()
            let configuration = MAX7219Chain.Configuration(layout: layout, devices: devices, speedHz: 2_000_000)
            let linux = MAX7219Chain(bus: try LinuxSPIBus(path: spi.path), configuration: configuration, clock: clock)
            let module: MAX7219Module = layout == .fc16 ? .fc16Matrix() : .segments8()
            let virtualBus = VirtualSPIBus(clockModel: .exact, clock: clock)
            let simulated = VirtualMAX7219Chain(devices: devices, module: module)
            virtualBus.attach(simulated)
            let twin = MAX7219Chain(bus: virtualBus, configuration: configuration, clock: clock)
            for frame in Self.frames(linux.face, count: 10, seed: 13) {
                try linux.show(frame)
                try twin.show(frame)
                clock.advance(by: 0.3)
            }
            let sent = try spi.transfers()
            #expect(sent.allSatisfy { $0.bytes.count == 2 * devices && $0.mode == 0 && $0.speedHz == 2_000_000 }, "a word per device, mode 0")
            let decoded = VirtualMAX7219Chain(devices: devices, module: module)
            for transfer in sent { decoded.receive(transfer.bytes, hz: transfer.speedHz, mode: transfer.mode) }
            #expect(decoded.protocolErrors.isEmpty, "\(decoded.protocolErrors)")
            #expect((0..<devices).allSatisfy { decoded.digitRegisters(ofDevice: $0) == simulated.digitRegisters(ofDevice: $0) })
            let same = decoded.glass == simulated.glass
            #expect(same, "the decoded glass is the simulator's")
        }

        /// A backpack that stops answering is reported; when it answers again it is set up anew.
        @Test func aBackpackThatNacksIsSetUpAgain() throws {
            let display = HT16K33Display(bus: try LinuxI2CBus(path: recorder), configuration: .init(backpack: .bargraph24), resynchronisation: .onErrorsOnly)
            let frames = Self.frames(display.face, count: 3, seed: 17)
            try display.show(frames[0])
            let nack = KernelDevices.i2cRecorderNack ?? ""
            try KernelDevices.write("1", to: nack)
            defer { try? KernelDevices.write("0", to: nack) }
            #expect {
                try display.show(frames[1])
            } throws: { ($0 as? DeviceError)?.kind == .notPresent }
            try KernelDevices.write("0", to: nack)
            try KernelDevices.write("clear\n", to: log)
            try display.show(frames[2])
            let chip = VirtualHT16K33(address: 0x70, module: .bargraph24, clock: ManualClock())
            try replayI2C(into: chip)
            #expect(chip.isOscillatorOn && chip.protocolErrors.isEmpty, "the whole set-up again: \(chip.protocolErrors)")
        }

        /// `headwayd --check` opens every chip and layout of a configuration file, and every matrix
        /// preset of the board whose header buses the VM has.
        @Test(.enabled(if: KernelDevices.binaries != nil)) func headwaydChecksEveryChipLayoutAndPreset() throws {
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("matrix-check-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var outputs = HT16K33Backpack.allCases.enumerated().map { index, backpack in
                "  - { name: ht\(index), driver: ht16k33, bus: \(recorder), address: \(0x70 + index), layout: \(backpack.rawValue) }"
            }
            // The IS31FL3731's addresses (0x74–0x77) meet the HT16K33's: they go on the other adapter.
            outputs += IS31FL3731Board.allCases.enumerated().map { index, board in
                "  - { name: is\(index), driver: is31fl3731, bus: \(KernelDevices.i2cStub ?? recorder), address: \(0x74 + index), layout: \(board.rawValue) }"
            }
            outputs.append("  - { name: row, driver: max7219, bus: \(spi.path), layout: fc16, chain: 4 }")
            let every = folder.appendingPathComponent("every.yaml")
            try ("outputs:\n" + outputs.joined(separator: "\n") + "\n").write(to: every, atomically: true, encoding: .utf8)
            let check = try GuestCommand.status(KernelDevices.binaries! + "/headwayd", ["--config", every.path, "--check"])
            #expect(check.status == 0 && check.output.contains("every.yaml: \(outputs.count) outputs and 0 buttons opened"), "\(check.output)")
            // The presets built into headwayd, on the board whose header buses the VM has too
            // (/dev/i2c-1 and /dev/spidev0.0: --check opens them and sends nothing).
            for hat in ["adafruit-bicolour-bargraph", "adafruit-8x8-matrix", "adafruit-7segment", "pimoroni-scroll-phat-hd", "pimoroni-led-shim",
                        "max7219-4in1", "ws2812-matrix-8x8", "ws2812-matrix-32x8"] {
                let run = try GuestCommand.status(KernelDevices.binaries! + "/headwayd", ["--board", "raspberry-pi-4", "--hat", hat, "--check"])
                #expect(run.status == 0 && run.output.contains("1 outputs and 0 buttons opened"), "\(hat): \(run.output)")
            }
        }
    }
}
