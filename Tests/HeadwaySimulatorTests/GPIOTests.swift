import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

@Suite("GPIO LEDs, bit-banged APA102 and buttons")
struct GPIOTests {
    @Test func barGraphLinesAreSetTogetherAndActiveLowIsRespected() throws {
        let clock = ManualClock()
        let chip = VirtualGPIOChip(label: "pinctrl-rp1", clock: clock)
        let capturePath = "/tmp/headway-gpio-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let capture = try BusCapture(path: capturePath)
        chip.capture(to: capture)
        let bar = try SimulatedGPIOLEDs(name: "bar", chip: chip, offsets: [5, 6, 13], activeLow: true)
        try bar.driver.show([true, false, true])
        capture.close()
        #expect(bar.lit == [true, false, true])
        #expect(chip.levels([5, 6, 13]) == [false, true, false], "active-low: lit LEDs are driven low")
        let lines = try String(contentsOfFile: capturePath, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.contains("\"chip\":\"pinctrl-rp1\",\"lines\":[5,6,13],\"values\":[0,1,0]") == true)
    }

    @Test func linesInUseAreRefused() throws {
        let chip = VirtualGPIOChip(label: "pinctrl-rp1", clock: ManualClock())
        let first = try GPIOLEDs(chip: chip, offsets: [5, 6])
        #expect { _ = try GPIOLEDs(chip: chip, offsets: [6, 7]) } throws: { ($0 as! DeviceError).kind == .busy }
        _ = first
        #expect { _ = try GPIOLEDs(chip: chip, offsets: [99]) } throws: { ($0 as! DeviceError).kind == .unsupported }
    }

    @Test func releasedLinesCanBeRequestedAgain() throws {
        let chip = VirtualGPIOChip(label: "pinctrl-rp1", clock: ManualClock())
        do { _ = try GPIOLEDs(chip: chip, offsets: [5]) }
        #expect(throws: Never.self) { _ = try GPIOLEDs(chip: chip, offsets: [5]) }
    }

    @Test(arguments: [1, 8, 16])
    func bitBangedAPA102RoundTrip(count: Int) throws {
        let chip = VirtualGPIOChip(label: "pinctrl-bcm2711", clock: ManualClock())
        let stick = try SimulatedLEDChain.apa102BitBanged(name: "stick", count: count, chip: chip, data: 23, clock: 24)
        for seed in 1...3 {
            let levels = LEDDriverTests.randomLevels(count, seed: UInt64(seed))
            try stick.driver.show(levels)
            #expect(stick.levels == levels)
        }
        #expect(stick.violations.isEmpty)
    }

    @Test func debouncerIgnoresBounceAndTellsShortFromLong() {
        var button = ButtonDebouncer(debounce: 0.03, longPress: 1.5)
        var events: [ButtonEvent] = []
        // A press with contact bounce, released after 0.4 s (bouncing again).
        for (time, rising) in [(1.000, true), (1.001, false), (1.002, true), (1.4, false), (1.401, true), (1.402, false)] {
            events += button.take(GPIOEdge(rising: rising, time: time))
        }
        events += button.advance(to: 1.5)
        #expect(events == [.shortPress])
        // Held: a long press is reported at 1.5 s, while still held; the release adds nothing.
        events = button.take(GPIOEdge(rising: true, time: 3))
        events += button.advance(to: 4.49)
        #expect(events.isEmpty)
        events += button.advance(to: 4.51)
        #expect(events == [.longPress])
        events += button.take(GPIOEdge(rising: false, time: 6))
        events += button.advance(to: 7)
        #expect(events == [.longPress])
        // A glitch shorter than the debounce time is no press at all.
        events = button.take(GPIOEdge(rising: true, time: 8)) + button.take(GPIOEdge(rising: false, time: 8.01)) + button.advance(to: 9)
        #expect(events.isEmpty)
    }

    @Test(arguments: [
        ("bar8-fill-40", ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: 0.4, total: 1), fraction: 0.4, elapsed: 1), 8, false),
        ("bar8-nearly-done", ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: 0.99, total: 1), fraction: 0.99, elapsed: 1), 8, false),
        ("bar8-indeterminate", ProgressSnapshot(time: 10, phase: .active, kind: .indeterminate, fraction: nil, elapsed: 1.35), 8, false),
        ("bar8-success", ProgressSnapshot(time: 10, phase: .finished(.succeeded), kind: .determinate(value: 1, total: 1), fraction: 1, phaseElapsed: 1), 8, false),
        ("status-active", ProgressSnapshot(time: 10, phase: .active, kind: .indeterminate, fraction: nil, elapsed: 0.2), 1, true),
        ("status-failed", ProgressSnapshot(time: 10, phase: .finished(.failed), kind: .indeterminate, fraction: nil, phaseElapsed: 0.15), 1, true),
    ])
    func lineStyles(name: String, snapshot: ProgressSnapshot, count: Int, status: Bool) {
        var levels = LineLevels(count: count)
        let configuration = ProgressStyleConfiguration(snapshot: snapshot)
        if status { StatusLEDStyle().render(configuration, into: &levels) } else { BarGraphStyle().render(configuration, into: &levels) }
        let text = String(levels.values.map { $0 ? "#" : "." })
        let expected: [String: String] = [
            "bar8-fill-40": "###.....", "bar8-nearly-done": "#######.", "bar8-indeterminate": ".....#..",
            "bar8-success": "########", "status-active": "#", "status-failed": ".",
        ]
        #expect(text == expected[name], "\(name): \(text)")
    }
}
