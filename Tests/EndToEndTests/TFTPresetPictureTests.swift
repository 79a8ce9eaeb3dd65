import Foundation
import Testing

extension EndToEnd {
/// Every colour TFT HAT preset drawn by the simulator through its real driver, as Boards/README.md
/// shows it: the committed PNG is what `headway-sim render` draws today (Scripts/render-boards).
@Suite("TFT HAT presets rendered")
struct TFTPresetPictureTests {
    @Test(arguments: [
        "pimoroni-display-hat-mini", "adafruit-mini-pitft-1in14", "adafruit-mini-pitft-1in3", "waveshare-lcd-hat-1in3", "waveshare-lcd-hat-1in44",
        "adafruit-pitft-2in8",
    ])
    func theCommittedPictureIsWhatTheSimulatorDraws(hat: String) throws {
        let out = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try SimulatedService.run(
            Binaries.url("headway-sim"),
            ["render", "--board", "raspberry-pi-4", "--hat", hat, "--value", "0.42", "--label", "Build #1042", "--out", out.path], directory: out)
        #expect(run.status == 0, "\(run.stderr)")
        let drawn = try Data(contentsOf: out.appendingPathComponent("display.png"))
        let committed = try Data(contentsOf: PresetPictureTests.boards.appendingPathComponent("pictures/\(hat)-display.png"))
        #expect(drawn == committed, "run Scripts/render-boards")
        #expect(try String(contentsOf: PresetPictureTests.boards.appendingPathComponent("README.md"), encoding: .utf8).contains("### `\(hat)`"),
                "listed in Boards/README.md")
    }
}
}
