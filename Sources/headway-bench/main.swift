import Headway
import HeadwayDemo
import HeadwaySimulator

// Prints the numbers docs/performance.md records. Run in release mode:
//   swift run -c release headway-bench
// `headway-bench frames CONTROLLER COUNT` only renders, diffs and encodes COUNT frames of the bar
// screen on CONTROLLER's first module (ssd1306: 128x64, ssd1327: 128x128 in grey), for
// Scripts/bench-callgrind to count instructions per frame. `headway-bench peers` compares bytes on
// the wire with peers (`headway-bench matrices` for LED matrices); `headway-bench shift` measures what moving the picture costs;
// `headway-bench client SOCKET` what reporting from Swift through HeadwayClient costs; `headway-bench
// ci` counts headway-ci's requests an hour per source; `headway-bench estimates FOLDER…` replays
// recorded runs through the readers and the service's estimator (Scripts/bench-estimates). `headway-bench tft` compares colour TFTs'
// bytes on the wire with the peers' methods and measures a frame's CPU; `headway-bench tft-frames
// MODULE COUNT` renders, diffs and encodes COUNT bar-screen frames on MODULE (display-hat-mini …)
// for Scripts/bench-callgrind.

/// Plays the demo job at 30 frames a second of simulated time on `display` (whose bus, if any,
/// runs on `clock`); `frameDrawn` follows each frame.
func playDemo(on display: any DisplayDevice, clock: ManualClock, frameDrawn: () -> Void) throws {
    let indicator = ProgressIndicator(
        label: DemoScript.firstLabel, outputs: [DisplayOutput(display)], policy: DemoScript.policy, clock: clock)
    var pending = DemoScript.events[...]
    var time = 0.0
    while time <= DemoScript.duration {
        while let event = pending.first, event.time <= time {
            clock.set(to: max(clock.now, event.time))
            try event.apply(indicator)
            pending = pending.dropFirst()
        }
        clock.set(to: max(clock.now, time))
        try indicator.refresh()
        frameDrawn()
        time += 1.0 / 30
    }
}

/// The demo's bus statistics on a 128x64 SSD1306 at `hertz`.
func demoTraffic(hertz: Double) throws -> BusStatistics {
    let clock = ManualClock()
    let bus = VirtualI2CBus(clockHz: hertz, clock: clock)
    let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1306), bus: bus)
    try playDemo(on: oled.driver, clock: clock) { bus.endFrame() }
    return bus.statistics
}

/// Bus statistics of an indeterminate ring screen (the spinner) drawn at 30 frames a second.
func spinnerTraffic(hertz: Double) throws -> BusStatistics {
    let clock = ManualClock()
    let bus = VirtualI2CBus(clockHz: hertz, clock: clock)
    let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1306), bus: bus)
    for frame in 0..<90 {
        let snapshot = ProgressSnapshot(
            time: Double(frame) / 30, phase: .active, kind: .indeterminate, fraction: nil, label: "Queued",
            elapsed: Double(frame) / 30)
        var bitmap = Bitmap(width: 128, height: 64)
        RingScreenStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
        try oled.driver.show(.bitmap(bitmap))
        bus.endFrame()
    }
    // The first frame initialises the display and is sent whole; the rest are spinner steps.
    var steps = BusStatistics()
    for frame in bus.statistics.frames.dropFirst() { steps.add(frame) }
    return steps
}

/// An I2C bus that accepts everything and keeps nothing: isolates the CPU cost of the driver.
final class DiscardingBus: I2CBus {
    let name = "null"
    let maxMessageLength = 8192
    func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError) {}
}

/// The bar screen of frame `frame` of a job that steps through 1000 values again and again, on
/// `controller`'s first module at its depth (SSD1306: 128x64 on/off; SSD1327: 128x128 in grey).
func barScreen(frame: Int, on controller: OLEDController = .ssd1306) -> Picture {
    let fraction = Double(frame % 1000) / 1000
    let snapshot = ProgressSnapshot(
        time: Double(frame) / 30, phase: .active, kind: .determinate(value: fraction * 120, total: 120), fraction: fraction,
        label: "Compiling 120 files", timeRemaining: 42, elapsed: Double(frame) / 30)
    let module = controller.variant.modules[0]
    return Picture.drawn(BarScreenStyle(), snapshot, width: module.width, height: module.height, format: controller.variant.addressing.isGreyscale ? .grey4 : .mono)
}

/// Renders, diffs and encodes `frames` bar-screen frames on `controller` (its bus discards them).
func renderAndShow(frames: Int, on controller: OLEDController) throws {
    let driver = OLEDDisplay(bus: DiscardingBus(), configuration: try OLEDConfiguration(controller: controller))
    for frame in 0..<frames { try driver.show(barScreen(frame: frame, on: controller)) }
}

/// Microseconds of CPU per frame to render the bar screen and diff it against the last one.
func renderAndDiffMicroseconds(on controller: OLEDController = .ssd1306) throws -> Double {
    let frames = 3000
    let elapsed = try ContinuousClock().measure { try renderAndShow(frames: frames, on: controller) }
    return seconds(elapsed) / Double(frames) * 1e6
}

/// Where a frame's CPU goes: rendering the bar screen alone, and the driver's diff, plan and
/// messages alone (the pictures made beforehand), in microseconds per frame.
func frameCostBreakdown(on controller: OLEDController = .ssd1306) throws -> (render: Double, show: Double) {
    let frames = 3000
    let clock = ContinuousClock()
    var pictures: [Picture] = []
    pictures.reserveCapacity(frames)
    let rendering = clock.measure { for frame in 0..<frames { pictures.append(barScreen(frame: frame, on: controller)) } }
    let driver = OLEDDisplay(bus: DiscardingBus(), configuration: try OLEDConfiguration(controller: controller), resynchronisation: .onErrorsOnly)
    let showing = try clock.measure { for picture in pictures { try driver.show(picture) } }
    return (seconds(rendering) / Double(frames) * 1e6, seconds(showing) / Double(frames) * 1e6)
}

/// Bytes on the wire to move the bar screen from 50 % to 51 %, on `controller`'s first module at
/// its depth, over I2C.
func onePercentStep(_ controller: OLEDController) throws -> (full: Int, step: Int) {
    let (oled, _) = try simulatedModule(controller, on: .i2c)
    let module = controller.variant.modules[0]
    for fraction in [0.50, 0.51] {
        let snapshot = ProgressSnapshot(
            time: 10, phase: .active, kind: .determinate(value: fraction * 200, total: 200), fraction: fraction,
            label: "Compiling", timeRemaining: 42, elapsed: 10)
        try oled.driver.show(Picture.drawn(BarScreenStyle(), snapshot, width: module.width, height: module.height, format: oled.driver.pixelFormat))
        oled.i2cBus!.endFrame()
    }
    let frames = oled.i2cBus!.statistics.frames
    return (frames[0].bytes, frames[1].bytes)
}

/// An SPI bus that accepts everything: isolates the CPU cost of LED encoders.
final class DiscardingSPIBus: SPIBus {
    let name = "null"
    let maxTransferLength = 1 << 20
    let clockModel: SPIClockModel
    init(clockModel: SPIClockModel) { self.clockModel = clockModel }
    func write(_ bytes: [UInt8], settings: SPISettings) throws(DeviceError) {}
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// Encode time, bytes and wire time of one frame of `count` LEDs.
func ledFrame(count: Int, encoding: WS2812Encoding?) throws -> (encode: Double, bytes: Int, wire: Double) {
    var random = SystemRandomNumberGenerator()
    let levels = (0..<count).map { _ in RGB8(red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random), blue: .random(in: 0...255, using: &random)) }
    let rounds = 2000
    let clock = ContinuousClock()
    if let encoding {
        let strip = try WS2812Strip(bus: DiscardingSPIBus(clockModel: .raspberryPi4), configuration: .init(count: count, encoding: encoding))
        var frame: [UInt8] = []
        let elapsed = clock.measure { for _ in 0..<rounds { frame = strip.encode(levels) } }
        return (seconds(elapsed) / Double(rounds), frame.count, Double(frame.count * 8) / Double(strip.effectiveSpeedHz))
    }
    let encoder = APA102Encoder(count: count)
    var frame: [UInt8] = []
    let elapsed = clock.measure { for _ in 0..<rounds { frame = encoder.encode(levels) } }
    return (seconds(elapsed) / Double(rounds), frame.count, Double(frame.count * 8) / 8_000_000)
}

/// Everything docs/performance.md records.
func printReport() throws {
    print("OLED 128x64 SSD1306, the demo job drawn at 30 frames/s (frames with bus traffic only)")
    for hertz in [100_000.0, 400_000.0] {
        let stats = try demoTraffic(hertz: hertz)
        let bytes = stats.summary(\.bytes)!, seconds = stats.summary(\.seconds)!
        print("  \(Int(hertz / 1000)) kHz: \(stats.frames.count) frames; bytes/frame median \(bytes.median) max \(bytes.max); bus time/frame median \(milliseconds(seconds.median)) max \(milliseconds(seconds.max))")
    }
    print("Spinner (ring screen, indeterminate), per step")
    for hertz in [100_000.0, 400_000.0] {
        let stats = try spinnerTraffic(hertz: hertz)
        let bytes = stats.summary(\.bytes)!, seconds = stats.summary(\.seconds)!
        print("  \(Int(hertz / 1000)) kHz: bytes/frame median \(bytes.median) max \(bytes.max); bus time median \(milliseconds(seconds.median)) → \(Int(1 / seconds.median)) frames/s the bus allows (worst frame \(Int(1 / seconds.max)))")
    }
    // The whole picture: the window command (control byte and 6 bytes) and the data (control byte
    // and 1024 bytes) in one transaction, each message behind the address byte.
    let full = VirtualI2CBus(clockHz: 100_000, clock: ManualClock()).wireTime(messageLengths: [7, 1025])
    print("Full frame for comparison: 1034 bytes, \(milliseconds(full)) at 100 kHz, \(milliseconds(full / 4)) at 400 kHz")
    for controller in OLEDController.allCases {
        let (full, step) = try onePercentStep(controller)
        print("1 % bar step on \(controller.rawValue) \(controller.variant.modules[0].size): \(step) bytes (first frame with initialisation: \(full) bytes)")
    }
    print()
    try PeerComparison.report()
    print()
    print("CPU: render bar screen + diff + encode one frame: \(NumberText.compact(try renderAndDiffMicroseconds())) µs")
    let breakdown = try frameCostBreakdown()
    print("  of which: render \(NumberText.compact((breakdown.render * 10).rounded() / 10)) µs, diff + plan + messages \(NumberText.compact((breakdown.show * 10).rounded() / 10)) µs")
    print("CPU: render greyscale bar screen 128x128 + diff + encode one frame (SSD1327): \(NumberText.compact(try renderAndDiffMicroseconds(on: .ssd1327))) µs")
    let greyBreakdown = try frameCostBreakdown(on: .ssd1327)
    print("  of which: render \(NumberText.compact((greyBreakdown.render * 10).rounded() / 10)) µs, diff + plan + messages \(NumberText.compact((greyBreakdown.show * 10).rounded() / 10)) µs")
    print()

    print("LED frames (Pi 4 SPI clock; WS2812 wire time includes 2 × 300 µs of reset; APA102 at 8 MHz)")
    for count in [60, 300] {
        for encoding in [WS2812Encoding.threeBit, .fourBit, .eightBit] as [WS2812Encoding?] + [nil] {
            let frame = try ledFrame(count: count, encoding: encoding)
            let name = encoding.map { "WS2812 \($0.rawValue)" } ?? "APA102"
            let share = frame.encode / frame.wire * 100
            print("  \(count) LEDs \(name): encode \(NumberText.compact((frame.encode * 1e7).rounded() / 10)) µs, \(frame.bytes) bytes, wire \(milliseconds(frame.wire)), encode = \(NumberText.compact((share * 100).rounded() / 100)) % of wire time")
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "frames":
    guard arguments.count == 3, let controller = OLEDController(rawValue: arguments.dropFirst().first!), let count = Int(arguments.last!) else {
        fatalError("usage: headway-bench frames CONTROLLER COUNT")
    }
    try renderAndShow(frames: count, on: controller)
case "peers":
    try PeerComparison.report()
case "matrices":
    try MatrixComparison.report()
case "tft":
    try TFTBench.report()
case "tft-frames":
    guard arguments.count == 3, let count = Int(arguments.last!) else { fatalError("usage: headway-bench tft-frames MODULE COUNT") }
    try TFTBench.renderAndShow(frames: count, module: String(arguments.dropFirst().first!))
case "shift":
    try ShiftCost.report()
case "client":
    guard arguments.count == 2 else { fatalError("usage: headway-bench client SOCKET (a headway-sim serve listening there)") }
    try await ClientCost.report(socket: arguments.last!)
case "ci":
    try CIRequests.report()
case "estimates":
    guard arguments.count >= 2 else { fatalError("usage: headway-bench estimates FOLDER… (recordings of headway run --record)") }
    try EstimateReplay.main(Array(arguments.dropFirst()))
default:
    try printReport()
}
