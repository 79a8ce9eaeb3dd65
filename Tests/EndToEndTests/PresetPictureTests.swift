import Foundation
import Testing

extension EndToEnd {
/// Every HAT preset drawn by the simulator through its real drivers, as Boards/README.md shows it:
/// the committed pictures are what `headway-sim render` draws today (Scripts/render-boards).
@Suite("HAT presets rendered")
struct PresetPictureTests {
    static let boards = HeadwaySimTests.packageRoot.appendingPathComponent("Boards")

    @Test(arguments: [
        "adafruit-oled-bonnet", "adafruit-pioled", "pimoroni-blinkt", "respeaker-2-mics", "ssd1306-128x64", "ws2812-ring", "adafruit-bicolour-bargraph",
        "adafruit-8x8-matrix", "adafruit-7segment", "pimoroni-scroll-phat-hd", "pimoroni-led-shim", "max7219-4in1", "ws2812-matrix-8x8", "ws2812-matrix-32x8",
    ])
    func theCommittedPictureIsWhatTheSimulatorDraws(hat: String) throws {
        let out = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try SimulatedService.run(
            Binaries.url("headway-sim"),
            ["render", "--board", "raspberry-pi-4", "--hat", hat, "--value", "0.42", "--label", "Build #1042", "--out", out.path], directory: out)
        #expect(run.status == 0, "\(run.stderr)")
        let drawn = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".svg") }
        #expect(drawn.count == 1, "one output per HAT")
        for file in drawn {
            let committed = try String(contentsOf: Self.boards.appendingPathComponent("pictures/\(hat)-\(file)"), encoding: .utf8)
            #expect(try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8) == committed, "run Scripts/render-boards")
            // Something is lit: a fill other than the board's, the glass's and an unlit LED's.
            let fills = Set(committed.components(separatedBy: "fill=\"#").dropFirst().map { String($0.prefix(6)) })
            #expect(!fills.subtracting(["1b1d22", "2e3036", "050608"]).isEmpty, "something is lit")
        }
        #expect(try String(contentsOf: Self.boards.appendingPathComponent("README.md"), encoding: .utf8).contains("### `\(hat)`"), "listed in Boards/README.md")
    }
}
}
