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

    /// With the care the service gives glass by default (the picture a few pixels smaller, moved
    /// about), every frame is the whole drawing at its place, and a frame that did not move keeps
    /// its damage in the glass's own rows: the driver compares and plans what changed, not the
    /// whole picture, and a move is not a change that stops the dimming.
    @Test(arguments: ["display-hat-mini", "mini-pitft-114"])
    func aMovedPictureIsTheWholeDrawingAndKeepsItsDamage(_ module: String) throws {
        let configuration = try TFTConfiguration(module: try #require(TFTModule.named(module)))
        let tft = try SimulatedTFT(configuration: configuration)
        let reference = try SimulatedTFT(configuration: configuration)
        let care = DisplayCare(shift: 2, shiftInterval: .seconds(1), dimAfter: .seconds(2.5), dimmedBrightness: 0.5, sleepsWhenBlank: false)
        let output = DisplayOutput(tft.driver, style: BarScreenStyle(), care: care)
        let (width, height, shift) = (tft.driver.width, tft.driver.height, output.care.shift)
        #expect(shift == 2)
        var damaged = 0, previous: (offset: (x: Int, y: Int), generation: UInt64, palette: ColourPalette)?
        for step in 0..<100 {
            let job = Self.job(step)
            try output.draw(job)
            var roles = RoleMap(width: width - shift, height: height - shift)
            BarScreenStyle().render(job, into: &roles)
            let offset = care.offset(at: job.snapshot.time)
            let drawn = ColourPalette(job).picture(roles, format: tft.driver.pixelFormat)
            try reference.driver.show(.colour(drawn.placed(onWidth: width, height: height, x: offset.x, y: offset.y)))
            #expect(tft.glass.pixels == reference.glass.pixels, "step \(step) at \(offset): the glass differs from the drawing placed there")
            guard case .picture(.colour(let shown), _, _)? = output.record.current.content else { Issue.record("step \(step): no colour picture"); continue }
            if let damage = shown.damage {
                damaged += 1
                #expect(damage.rows.allSatisfy { $0.row >= offset.y && $0.first >= offset.x && $0.last < offset.x + width - shift }, "step \(step): damage in the glass's rows")
            } else if let previous, previous.offset == offset, previous.palette == ColourPalette(job), previous.generation != shown.generation {
                Issue.record("step \(step): a frame drawn at the same place in the same colours lost its damage")
            }
            previous = (offset, shown.generation, ColourPalette(job))
        }
        #expect(damaged > 50, "\(damaged) of 100 frames carried their damage")
        // Unchanged from 9.5 s (the idle picture) while the picture moves every second: dimmed by 12 s.
        for time in stride(from: 10.0, through: 12.5, by: 0.5) { try output.draw(ProgressStyleConfiguration(snapshot: .idle(at: time))) }
        guard case .picture(_, let brightness, _)? = output.record.current.content else { Issue.record("no picture"); return }
        #expect(brightness == 0.5, "a move is not a change: the unchanging picture dims")
        #expect(tft.chip.protocolErrors.isEmpty, "\(tft.chip.protocolErrors.prefix(3))")
    }
}
