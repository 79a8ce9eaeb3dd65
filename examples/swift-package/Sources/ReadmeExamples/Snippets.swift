// The Swift snippets of docs/swift.md and README.md, each between `// snippet <name>` and
// `// snippet end`, word for word (ReadmeTests compares them). What needs a Raspberry Pi is compiled here; what runs
// on virtual devices is run by main.swift.
import Foundation
import Headway
import HeadwayClient
import HeadwayFoundation
import HeadwayLinux
import HeadwaySimulator

/// The first snippet, with `ring` and `oled` handed in.
func showBackup(ring: any LEDChainDevice, oled: any DisplayDevice) async throws {
    // snippet show
    let indicator = ProgressIndicator(label: "Backup", outputs: [
        LEDOutput(ring, layout: .ring(start: 0, clockwise: true)),
        DisplayOutput(oled, style: BarScreenStyle()),
    ])
    try indicator.update(value: 12, total: 200)       // throws ProgressError for bad numbers
    try indicator.setLabel("Verifying")
    try indicator.finish(.succeeded)
    await indicator.run()                               // draws until the success signal is over
    // snippet end
}

/// The devices of a Raspberry Pi (compiled here; they need the board to run).
func openPiDisplays() throws -> [OLEDDisplay] {
    // snippet oled
    let bus = try LinuxI2CBus(number: 1)                                   // /dev/i2c-1
    let oled = OLEDDisplay(bus: bus, configuration: try OLEDConfiguration(controller: .ssd1306, width: 128, height: 64))
    let link = DisplayLink.spi(bus: "spi0.0", chip: "auto", dataCommand: 24, reset: 25, speedHz: 6_250_000)  // the header's lines
    let grey = try OLEDDisplay(on: LinuxBuses(), link: link, configuration: try OLEDConfiguration(controller: .ssd1327, width: 128, height: 128))
    // snippet end
    return [oled, grey]
}

/// The other devices of a Raspberry Pi.
func openPiDevices(indicator: ProgressIndicator) throws {
    // snippet leds
    let spi = try LinuxSPIBus(bus: 0, chipSelect: 0, clockModel: .raspberryPi4)  // /dev/spidev0.0
    let ring = try WS2812Strip(bus: spi, configuration: .init(count: 24))          // 3-bit encoding, GRB
    let header = try GpiodChip.first(labelledAnyOf: GpiodChip.raspberryPiHeaderLabels)
    let bar = try GPIOLEDs(chip: header, offsets: [5, 6, 13, 19, 26, 16, 20, 21])
    let button = try ButtonMonitor(chip: header, offset: 17, clock: MonotonicClock())
    for event in try button.poll(timeout: 0.05) { try indicator.handle(event) }  // pause / cancel
    // snippet end
    _ = (ring, bar)
}

// snippet style
/// Your own look: the whole ring in the tint while the job runs, green when it succeeded.
struct Beacon: ProgressStyle {
    func render(_ configuration: ProgressStyleConfiguration, into frame: inout LEDFrame) {
        switch configuration.snapshot.phase {
        case .active: frame.fill(configuration.appearance.tintLight)
        case .finished(.succeeded): frame.fill(LinearColour(configuration.appearance.success))
        default: frame.fill(.black)
        }
    }
}

/// Tried on a virtual WS2812 ring: the real driver's SPI bytes, decoded as the LEDs would.
func beaconLightsTheRing() throws -> Bool {
    let clock = ManualClock()
    let ring = try SimulatedLEDChain.ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
    let indicator = ProgressIndicator(outputs: [LEDOutput(ring.driver, style: Beacon())], clock: clock)
    clock.advance(by: 3)                         // past the grace delay
    try indicator.refresh()
    let tint = ColourPipeline().levels(for: LEDFrame(count: 1, colour: Appearance.standard.tintLight))[0]
    return ring.levels.allSatisfy { $0 == tint }      // every LED decoded in the tint
}
// snippet end

/// Reporting to the service from Swift: the client's snippet.
func reportBackup() async throws {
    // snippet client
    let client = HeadwayClient()                                   // the service's socket, or $HEADWAY_SOCKET
    let job = try await client.begin("backup", label: "Backup", total: 200)
    try job.update(value: 12)                                      // returns at once, service or not
    try await job.finish(.succeeded)                               // waits for delivery, 200 ms at most
    // snippet end
}

/// Copies every file of `source` into `target`, reporting a Foundation `Progress` to the service
/// as job "photos"; what the service made of it (nil: the copy was not followed to its end).
func copyFolder(_ source: URL, to target: URL, pace: Duration) async throws -> Outcome? {
    /// One file, by FileManager (a pause after each, as a slow disk would take).
    func copy(_ file: URL, into target: URL) async throws {
        try FileManager.default.copyItem(at: file, to: target.appendingPathComponent(file.lastPathComponent))
        try await Task.sleep(for: pace)
    }
    let files = try FileManager.default.contentsOfDirectory(at: source, includingPropertiesForKeys: nil)
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    // snippet progress
    let progress = Progress(totalUnitCount: Int64(files.count))
    async let shown = HeadwayClient().report(progress, as: "photos", label: "Copying photos")
    for file in files {
        try await copy(file, into: target)                         // FileManager.default.copyItem(at:to:)
        progress.completedUnitCount += 1
    }
    let outcome = try await shown                                  // .succeeded; .cancelled by a long press
    // snippet end
    return outcome
}
