import Headway
import HeadwaySimulator
import Testing

@Suite("Buttons on a shown job")
struct ButtonTests {
    @Test func buttonOnTheRigPausesResumesAndCancels() throws {
        let clock = ManualClock()
        let (chip, offset) = (VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock), UInt32(17))
        let monitor = try ButtonMonitor(chip: chip, offset: offset, clock: clock)
        let indicator = ProgressIndicator(label: "job", outputs: [], policy: LifecyclePolicy(grace: 0), clock: clock)
        try indicator.update(value: 0.3)
        chip.press(offset, at: 1, for: 0.3)
        chip.press(offset, at: 2, for: 0.3)
        chip.press(offset, at: 4, for: 2)
        var phases: [String] = []
        for step in 1...80 {
            clock.set(to: Double(step) * 0.1)
            for event in try monitor.poll(timeout: 0) { try indicator.handle(event) }
            let name = indicator.snapshot.phase.name
            if phases.last != name { phases.append(name) }
        }
        #expect(phases == ["active", "paused", "active", "cancelled"])
    }
}
