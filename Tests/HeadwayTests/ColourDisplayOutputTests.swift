import Headway
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import HeadwaySurfaces
import Testing

/// A colour display drawn frame after frame through the display output, each picture drawn over
/// an earlier one and sent by its damage: after every frame, the virtual controller's glass is
/// the whole drawing of that moment, as a fresh render makes it.
@Suite("Colour display output")
struct ColourDisplayOutputTests {
    static func job(_ step: Int) -> ProgressStyleConfiguration {
        let time = Double(step) / 10
        // Steps of 1 %, a stall, indeterminate work, a finish, and idle.
        let phase: JobPhase = switch step {
        case 40..<50: .stalled(silence: 60)
        case 90..<95: .finished(.succeeded)
        default: .active
        }
        let fraction: Double? = (60..<75).contains(step) ? nil : min(1, Double(step) / 90)
        if step >= 95 { return ProgressStyleConfiguration(snapshot: .idle(at: time)) }
        return ProgressStyleConfiguration(snapshot: ProgressSnapshot(
            time: time, phase: phase, kind: fraction.map { .determinate(value: $0 * 90, total: 90) } ?? .indeterminate, fraction: fraction,
            label: step < 30 ? "Nightly backup" : "Nightly backup of /srv", timeRemaining: fraction == nil ? nil : 90 - time, elapsed: time))
    }

    @Test(arguments: [("display-hat-mini", "bar"), ("waveshare-lcd-144", "ring"), ("mini-pitft-114", "bar")])
    func theGlassIsTheWholeDrawingAfterEveryFrame(_ module: String, _ style: String) throws {
        let configuration = try TFTConfiguration(module: try #require(TFTModule.named(module)))
        let tft = try SimulatedTFT(configuration: configuration)
        // The same module shown each fresh drawing, compared whole: what the glass should show.
        let reference = try SimulatedTFT(configuration: configuration)
        let look: any DisplayStyle = style == "ring" ? RingScreenStyle() : BarScreenStyle()
        let output = DisplayOutput(tft.driver, style: look)
        let (width, height) = (tft.driver.width, tft.driver.height)
        for step in 0..<100 {
            let job = Self.job(step)
            try output.draw(job)
            var roles = RoleMap(width: width, height: height)
            look.render(job, into: &roles)
            try reference.driver.show(.colour(ColourPalette(job).picture(roles, format: tft.driver.pixelFormat)))
            #expect(tft.glass.pixels == reference.glass.pixels, "step \(step): the glass differs from a fresh drawing")
        }
        #expect(tft.chip.protocolErrors.isEmpty, "\(tft.chip.protocolErrors.prefix(3))")
    }
}
