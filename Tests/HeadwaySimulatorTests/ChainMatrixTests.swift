import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// WS2812 chains laid out as matrices: the driver's map from the picture to the chain against the
/// twin's walk along the panels' wiring, every corner, line direction, wiring, tiling and turn.
@Suite("LED chains as matrices")
struct ChainMatrixTests {
    static let layouts: [ChainMatrixLayout] = {
        var layouts: [ChainMatrixLayout] = []
        for corner in ChainMatrixLayout.Corner.allCases {
            for lines in ChainMatrixLayout.Lines.allCases {
                for serpentine in [false, true] {
                    let wiring = ChainMatrixLayout.Wiring(start: corner, lines: lines, serpentine: serpentine)
                    layouts.append(ChainMatrixLayout(width: 5, height: 3, wiring: wiring))
                    layouts.append(ChainMatrixLayout(width: 4, height: 2, panelsAcross: 2, panelsDown: 3, wiring: wiring, panelWiring: .init(start: .bottomRight, lines: .columns, serpentine: true)))
                }
            }
        }
        for rotation in MatrixRotation.allCases {
            layouts.append(ChainMatrixLayout(width: 8, height: 4, wiring: .init(start: .topRight, lines: .columns, serpentine: true), rotation: rotation))
        }
        return layouts
    }()

    @Test func everyLayoutPutsThePictureWhereThePanelShowsIt() throws {
        for layout in Self.layouts {
            let clock = ManualClock()
            let bus = VirtualSPIBus(clock: clock)
            let count = layout.ledCount + 3
            let twin = RigDevice.ws2812("panel", count: count, layout: .strip, on: bus)
            guard case .leds(let levels, _) = twin.view else { Issue.record("a WS2812 twin is LEDs"); return }
            let matrix = RigDevice.chainMatrix("panel", layout: layout, levels: levels, problems: { twin.problems })
            guard case .matrix(let glass) = matrix.view else { Issue.record("a chain matrix twin is glass"); return }
            let driver = LEDChainMatrix(try WS2812Strip(bus: bus, configuration: .init(count: count)), layout: layout, clock: clock)
            var random = MatrixTestBench.Random(state: UInt64(layout.ledCount))
            for _ in 0..<3 {
                let frame = MatrixTestBench.randomFrame(driver.face, &random)
                try driver.show(frame)
                let wrong = MatrixTestBench.differences(glass(), frame, face: driver.face)
                #expect(wrong == 0, "\(layout)")
            }
            #expect(levels()[layout.ledCount...].allSatisfy { $0 == .off }, "LEDs past the matrix stay dark")
            #expect(twin.problems.isEmpty)
        }
    }

    /// A chain cannot blink: the driver sends it dark in the off half of each period, by its clock.
    @Test func aBlinkingFrameIsSentDarkAndLight() throws {
        let clock = ManualClock()
        let bus = VirtualSPIBus(clock: clock)
        let twin = RigDevice.ws2812("panel", count: 64, layout: .strip, on: bus)
        guard case .leds(let levels, _) = twin.view else { return }
        let driver = LEDChainMatrix(try WS2812Strip(bus: bus, configuration: .init(count: 64)), layout: ChainMatrixLayout(width: 8, height: 8), clock: clock)
        var random = MatrixTestBench.Random(state: 53)
        let frame = MatrixTestBench.randomFrame(driver.face, &random, blink: .halfHertz)
        try driver.show(frame)
        #expect(levels().contains { $0 != .off })
        clock.advance(by: 1.2)
        try driver.show(frame)
        #expect(levels().allSatisfy { $0 == .off })
        clock.advance(by: 1)
        try driver.show(frame)
        #expect(levels().contains { $0 != .off })
    }
}
