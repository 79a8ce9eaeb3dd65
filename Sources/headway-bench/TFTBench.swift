import Headway
import HeadwayService
import HeadwaySimulator

/// Colour TFTs: bytes and wire time per frame for Headway's driver and each peer's published
/// method (``TFTPeerModel``) on the same pictures, and the CPU a frame costs.
enum TFTBench {
    /// The modules measured: one of each size and controller the presets cover.
    static let modules: [(module: TFTModule, rotation: TFTRotation)] = [
        (.displayHATMini, .upright), (.piTFT28, .upright), (.waveshare13, .upright), (.miniPiTFT114, .upright), (.waveshare144, .upright),
        (.st7735rMini160x80, .quarter),
    ]

    struct Tally {
        var total = 0, worst = 0, frames = 0

        mutating func add(_ bytes: Int) {
            total += bytes
            worst = max(worst, bytes)
            frames += 1
        }

        var text: String { frames == 0 ? "-" : "\(grouped(total)) (\(grouped(worst)))" }
        func wire(_ hz: Double) -> String { frames == 0 ? "-" : "\(milliseconds(Double(total * 8) / hz / Double(frames), unit: false)) (\(milliseconds(Double(worst * 8) / hz, unit: false)))" }
    }

    struct Result {
        let module: TFTModule
        let sequence: String
        let hz: Double
        var headway = Tally()
        var peers: [TFTPeerModel: Tally] = [:]
        var floor = Tally()
        var overAPeer = 0
    }

    static func configuration(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> TFTConfiguration {
        try TFTConfiguration(module: entry.module, rotation: entry.rotation)
    }

    /// The OLEDs' four sequences at the TFT's size, in colour.
    static func sequences(width: Int, height: Int) throws -> [PictureSequence] {
        [
            try PictureSequence.demo(width: width, height: height, format: .rgb565), PictureSequence.barSteps(width: width, height: height, format: .rgb565),
            PictureSequence.spinner(width: width, height: height, format: .rgb565), PictureSequence.finish(width: width, height: height, format: .rgb565),
        ]
    }

    static func measure(_ entry: (module: TFTModule, rotation: TFTRotation), _ sequence: PictureSequence) throws -> Result {
        let tft = try SimulatedTFT(configuration: try configuration(entry))
        var result = Result(module: entry.module, sequence: sequence.name, hz: Double(tft.driver.effectiveSpeedHz))
        var previous: ColourPicture?
        for picture in sequence.pictures {
            guard case .colour(let colour) = picture else { continue }
            try tft.driver.show(picture)
            let before = tft.bus.statistics.frames.count
            tft.bus.endFrame()
            let sent = tft.bus.statistics.frames.count > before ? tft.bus.statistics.frames.last!.bytes : 0
            defer { previous = colour }
            guard let old = previous else { continue }
            result.headway.add(sent)
            for peer in TFTPeerModel.allCases {
                guard let bytes = peer.bytes(from: old, to: colour, family: entry.module.controller.family) else { continue }
                result.peers[peer, default: Tally()].add(bytes)
                if sent > bytes { result.overAPeer += 1 }
            }
            result.floor.add(TFTPeerModel.floor(from: old, to: colour))
        }
        precondition(tft.chip.protocolErrors.isEmpty, "\(entry.module.name): \(tft.chip.protocolErrors.prefix(2))")
        return result
    }

    static func report() throws {
        print("Colour TFTs: bytes on the wire per frame, Headway against each peer's method and the floor")
        print("(frames after the first; in all, and the worst frame in brackets; '-': the method does not apply)")
        print()
        print("| module | sequence (frames) | Headway | Pimoroni st7789 | luma.lcd st7789 | luma.lcd diff | panel-mipi-dbi | floor |")
        print("|---|---|---|---|---|---|---|---|")
        var results: [Result] = []
        for entry in modules {
            let configuration = try configuration(entry)
            for sequence in try sequences(width: configuration.width, height: configuration.height) {
                let result = try measure(entry, sequence)
                results.append(result)
                let peers = TFTPeerModel.allCases.map { result.peers[$0]?.text ?? "-" }
                print("| \(entry.module.title) \(configuration.width)x\(configuration.height) | \(sequence.name) (\(result.headway.frames)) | \(result.headway.text) | \(peers.joined(separator: " | ")) | \(result.floor.text) |")
            }
        }
        print()
        print("Frames on which Headway sent more bytes than a peer's method: \(results.reduce(0) { $0 + $1.overAPeer })")
        print()
        print("Wire time per frame in ms, mean (worst frame), at the controller's fastest clock as a Pi 4 divides it")
        print()
        print("| module | sequence | SPI clock | Headway | Pimoroni st7789 | luma.lcd st7789 | luma.lcd diff | panel-mipi-dbi |")
        print("|---|---|---|---|---|---|---|---|")
        for result in results {
            let peers = TFTPeerModel.allCases.map { result.peers[$0]?.wire(result.hz) ?? "-" }
            print("| \(result.module.title) | \(result.sequence) | \(megahertz(result.hz)) | \(result.headway.wire(result.hz)) | \(peers.joined(separator: " | ")) |")
        }
        print()
        for result in results where result.sequence.hasPrefix("demo") {
            let full = result.peers[.pimoroni]!
            print("demo on the \(result.module.title): \(fixed(Double(full.total) / Double(max(1, result.headway.total)), 0))x fewer bytes than the full frame (RGB565)")
        }
        for result in results where result.sequence.hasPrefix("spinner") {
            let busy = Double(result.headway.total * 8) / result.hz / Double(max(1, result.headway.frames)) * 30
            print("spinner on the \(result.module.title) at 30 frames/s: the bus busy \(fixed(busy * 100, 1)) % of the time")
        }
        for entry in modules.prefix(2) {
            let (full, step) = try onePercentStep(entry)
            print("1 % bar step on the \(entry.module.title): \(grouped(step)) bytes, messages \(try messagesOfStep(entry)), floor \(try onePercentFloor(entry)), \(fixed(Double(step) / Double(full) * 100, 2)) % of a full frame (\(grouped(full)) bytes)")
        }
        for entry in modules {
            let (full, steps) = try everyPercentStep(entry)
            let sorted = steps.enumerated().sorted { $0.element < $1.element }
            let worst = sorted.suffix(4).reversed().map { "\(fixed(Double($0.element) / Double(full) * 100, 2)) % (\($0.offset) → \($0.offset + 1))" }
            print("every 1 % step, 0 → 100 %, on the \(entry.module.title): median \(fixed(Double(sorted[sorted.count / 2].element) / Double(full) * 100, 2)) %, worst \(worst.joined(separator: ", ")) of a full frame")
        }
        print()
        for entry in modules {
            let configuration = try configuration(entry)
            let (whole, show, bare) = try cpu(entry)
            print("CPU: render bar screen + diff + encode one frame on the \(entry.module.title) \(configuration.width)x\(configuration.height): \(fixed(whole, 1)) µs (of which diff, plan and messages \(fixed(show, 1)) µs; with care and resynchronisation off \(fixed(bare, 1)) µs)")
        }
    }

    static func messagesOfStep(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> Int {
        let tft = try SimulatedTFT(configuration: try configuration(entry))
        for percent in [50.0, 51.0] {
            let snapshot = ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: percent, total: 100), fraction: percent / 100,
                                            label: "Compiling widgets", timeRemaining: 42, elapsed: 10)
            try tft.driver.show(Picture.drawn(BarScreenStyle(), snapshot, width: tft.driver.width, height: tft.driver.height, format: .rgb565))
            tft.bus.endFrame()
        }
        return tft.bus.statistics.frames.last!.transactions
    }

    /// Bytes of the bar screen going from 50 % to 51 % on `entry` (the time left the same, as the
    /// OLEDs' step is measured), and of the whole picture.
    static func onePercentStep(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> (full: Int, step: Int) {
        let (full, steps) = try everyPercentStep(entry)
        return (full, steps[50])
    }

    /// Bytes of each step of the bar screen from 0 to 100 % (the time left the same), and of the
    /// whole picture.
    static func everyPercentStep(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> (full: Int, steps: [Int]) {
        let tft = try SimulatedTFT(configuration: try configuration(entry), resynchronisation: .onErrorsOnly)
        var steps: [Int] = []
        for percent in 0...100 {
            let snapshot = ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: Double(percent), total: 100), fraction: Double(percent) / 100,
                                            label: "Compiling widgets", timeRemaining: 42, elapsed: 10)
            try tft.driver.show(Picture.drawn(BarScreenStyle(), snapshot, width: tft.driver.width, height: tft.driver.height, format: .rgb565))
            tft.bus.endFrame()
            if percent > 0 { steps.append(tft.bus.statistics.frames.last!.bytes) }
        }
        return (11 + tft.driver.width * tft.driver.height * 2, steps)
    }

    /// The floor of the same step: one window and the changed pixels.
    static func onePercentFloor(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> Int {
        let configuration = try configuration(entry)
        let pictures = [50.0, 51.0].map { percent -> ColourPicture in
            let snapshot = ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: percent, total: 100), fraction: percent / 100,
                                            label: "Compiling widgets", timeRemaining: 42, elapsed: 10)
            guard case .colour(let picture) = Picture.drawn(BarScreenStyle(), snapshot, width: configuration.width, height: configuration.height, format: .rgb565) else { fatalError() }
            return picture
        }
        return TFTPeerModel.floor(from: pictures[0], to: pictures[1])
    }

    /// A moment of a job stepping through 1000 values, as the bar screen draws it.
    static func barJob(frame: Int) -> ProgressStyleConfiguration {
        let fraction = Double(frame % 1000) / 1000
        return ProgressStyleConfiguration(snapshot: ProgressSnapshot(
            time: Double(frame) / 30, phase: .active, kind: .determinate(value: fraction * 120, total: 120), fraction: fraction,
            label: "Compiling 120 files", timeRemaining: 42, elapsed: Double(frame) / 30))
    }

    /// A driver on a bus that discards everything: the CPU of the driver alone. `resynchronisation`:
    /// the service's (``Resynchronisation/standard``), or none, so that a frame costs exactly what changed.
    static func discardingDriver(_ entry: (module: TFTModule, rotation: TFTRotation), resynchronisation: Resynchronisation = .standard) throws -> TFTDisplay {
        let bus = DiscardingSPIBus(clockModel: .raspberryPi4)
        let link = DataCommandSPI(bus: bus, settings: SPISettings(speedHz: entry.module.controller.maxSPIHz), dataCommand: DiscardingLines(), reset: nil)
        return TFTDisplay(link: link, configuration: try configuration(entry), clock: ManualClock(), delay: NoDelay(), resynchronisation: resynchronisation)
    }

    /// Renders, diffs and encodes `frames` bar-screen frames through the display output, as the
    /// service draws (the bus discards them).
    static func renderAndShow(frames: Int, module name: String) throws {
        guard let entry = modules.first(where: { $0.module.name == name }) else { fatalError("no module \(name)") }
        let output = DisplayOutput(try discardingDriver(entry), style: BarScreenStyle(), care: OutputCare.standard.display)
        for frame in 0..<frames { try output.draw(barJob(frame: frame)) }
    }

    /// Microseconds a frame to render the bar screen, diff, plan and encode it through the display
    /// output as the service does by default (``OutputCare/standard``'s care: the picture drawn a
    /// pixel smaller and moved about, dimmed when unchanged; the driver resynchronising every 30 s,
    /// which falls within the 1000 frames at 30 a second), and of that the driver's diff, plan and
    /// messages alone; and the whole again with care and resynchronisation off.
    static func cpu(_ entry: (module: TFTModule, rotation: TFTRotation)) throws -> (whole: Double, show: Double, bare: Double) {
        let frames = 1000
        let clock = ContinuousClock()
        func measure(_ output: DisplayOutput) throws -> Double {
            try output.draw(barJob(frame: 0))
            return seconds(try clock.measure { for frame in 1...frames { try output.draw(barJob(frame: frame)) } }) / Double(frames) * 1e6
        }
        let care = OutputCare.standard.display
        let whole = try measure(DisplayOutput(try discardingDriver(entry), style: BarScreenStyle(), care: care))
        let bare = try measure(DisplayOutput(try discardingDriver(entry, resynchronisation: .onErrorsOnly), style: BarScreenStyle()))
        let recording = RecordingDisplay(width: try configuration(entry).width, height: try configuration(entry).height, format: .rgb565)
        let recorder = DisplayOutput(recording, style: BarScreenStyle(), care: care)
        for frame in 0...frames { try recorder.draw(barJob(frame: frame)) }
        let driver = try discardingDriver(entry)
        let pictures = recording.pictures
        try driver.show(pictures[0])
        let show = try clock.measure { for picture in pictures.dropFirst() { try driver.show(picture) } }
        return (whole, seconds(show) / Double(frames) * 1e6, bare)
    }
}

/// GPIO lines that take every level and keep none: a D/C line for a discarding bus.
final class DiscardingLines: GPIOOutputLines {
    let offsets: [UInt32] = [0]
    func set(_ values: [Bool]) throws(DeviceError) {}
}

/// Waits that take no time: the CPU of a driver's set-up without its datasheet waits.
struct NoDelay: Delay {
    func wait(_ seconds: Seconds) {}
}
