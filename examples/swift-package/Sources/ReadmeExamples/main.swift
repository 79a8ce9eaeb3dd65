import Foundation
import Headway
import HeadwaySimulator

// `ReadmeExamples`: runs README's snippets that need no board on the simulator's rig; exits 1 if
// one misbehaves. `ReadmeExamples copy SOURCE TARGET [PACE_MS]`: copies a folder, reporting its
// Progress to the service (Scripts/test-examples runs it against headway-sim serve and with none).
let arguments = CommandLine.arguments
if arguments.count >= 4, arguments[1] == "copy" {
    let pace = Duration.milliseconds(arguments.count > 4 ? Int(arguments[4]) ?? 0 : 0)
    let started = Date()
    let outcome = try await copyFolder(URL(fileURLWithPath: arguments[2]), to: URL(fileURLWithPath: arguments[3]), pace: pace)
    print("copied in \(String(format: "%.2f", Date().timeIntervalSince(started))) s: \(outcome.map(\.rawValue) ?? "not followed")")
    exit(outcome == .succeeded ? 0 : 1)
}
// A ring and an OLED as virtual chips, each behind its real driver.
let clock = MonotonicClock()
let ring = try SimulatedLEDChain.ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: clock))
try await showBackup(ring: ring.driver, oled: oled.driver)
let beacon = try beaconLightsTheRing()
print("README examples: showBackup ran on virtual devices; Beacon lit the virtual ring: \(beacon)")
if !beacon { fatalError("Beacon did not light the ring as expected") }
