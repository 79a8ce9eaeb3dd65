import HeadwayCore
import HeadwayRender
import Testing

@Suite("Colour pipeline")
struct ColourPipelineTests {
    @Test func budgetDimsAFrameThatWouldDrawTooMuch() {
        // 60 LEDs at full white: 60 × 3 × 20 mA + 60 mA idle = 3660 mA; the budget is 1000 mA.
        let budget = CurrentBudget(budgetMilliamps: 1000)
        let pipeline = ColourPipeline(budget: budget)
        let white = LEDFrame(count: 60, colour: LinearColour(red: 1, green: 1, blue: 1))
        let levels = pipeline.levels(for: white)
        let drawn = budget.current(of: levels)
        #expect(drawn <= 1000 && drawn > 970, "\(drawn) mA")
        #expect(levels.allSatisfy { $0 == levels[0] }, "every LED dimmed alike")
        // A frame within budget is left alone.
        let dim = LEDFrame(count: 60, colour: LinearColour(red: 0.1, green: 0, blue: 0))
        #expect(pipeline.levels(for: dim) == ColourPipeline().levels(for: dim))
    }

    @Test func ditheringShowsAOnePercentStepOnADimSixteenLEDRing() {
        // A dim ring (brightness 2 %, full blue is level 5): from 52 % to 53 % the LED the fill ends
        // in gets 0.16 of its light more, under half a level; rounded, the two look the same.
        let style = LEDIndicatorStyle.ring()
        let look = Appearance(track: nil, brightness: 0.02)
        func frame(_ fraction: Double) -> LEDFrame {
            var frame = LEDFrame(count: 16)
            let snapshot = ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: fraction, total: 1), fraction: fraction, elapsed: 0)
            style.render(ProgressStyleConfiguration(snapshot: snapshot, appearance: look), into: &frame)
            return frame
        }
        let plain = ColourPipeline()
        #expect(plain.levels(for: frame(0.52)) == plain.levels(for: frame(0.53)))
        let dithered = ColourPipeline(dithering: true)
        func average(_ fraction: Double) -> Double {
            var state = DitherState()
            let f = frame(fraction)
            let total = (0..<120).reduce(0) { sum, _ in sum + Int(dithered.levels(for: f, dither: &state)[8].blue) }
            return Double(total) / 120
        }
        let expected = { (fraction: Double) in Double(frame(fraction)[8].blue) * 255 }
        #expect(abs(average(0.53) - expected(0.53)) < 0.05)
        #expect(average(0.53) - average(0.52) > 0.5, "the step shows on average")
    }
}
