import HeadwayCore
import HeadwayDevices
import HeadwayLinux
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// The libgpiod backend on gpio-sim: what the project drives is read back from the simulator's
    /// sysfs, and a button is simulated by changing the line's pull.
    @Suite("GPIO on gpio-sim", .enabled(if: KernelDevices.gpioLabel != nil && KernelDevices.gpioSysfs != nil, KernelDevices.skipNote))
    struct GPIO {
        let label = KernelDevices.gpioLabel ?? ""
        let lines = SimulatedLines()

        @Test func findsTheSimulatedChipByLabel() throws {
            let chip = try GpiodChip(label)
            #expect(chip.label == label)
            #expect(chip.lineCount == 24)
            #expect(chip.name.hasPrefix("gpiochip"))
            let byPath = try GpiodChip("/dev/\(chip.name)")
            #expect(byPath.label == label)
            print("libgpiod \(GpiodChip.library.version) (API \(GpiodChip.library.api)) found \(chip.name) labelled \(chip.label)")
        }

        @Test func barGraphLevelsAreWhatTheKernelSees() throws {
            let chip = try GpiodChip(label)
            let offsets: [UInt32] = Array(0...7)
            let bar = try GPIOLEDs(chip: chip, offsets: offsets)
            #expect(try lines.levels(offsets) == Array(repeating: false, count: 8), "requested all off")
            for lit in 0...8 {
                let pattern = (0..<8).map { $0 < lit }
                try bar.show(pattern)
                #expect(try lines.levels(offsets) == pattern, "bar with \(lit) lit")
            }
            let alternating = (0..<8).map { $0 % 2 == 0 }
            try bar.show(alternating)
            #expect(try lines.levels(offsets) == alternating)
        }

        @Test func activeLowStatusLEDDrivesTheLineLow() throws {
            let chip = try GpiodChip(label)
            let led = try GPIOLEDs(chip: chip, offsets: [8], activeLow: true)
            #expect(try lines.level(8) == true, "off = high for an LED wired to 3.3 V")
            try led.show([true])
            #expect(try lines.level(8) == false)
            try led.show([false])
            #expect(try lines.level(8) == true)
        }

        @Test func linesAreHeldWhileOwnedAndReleasedAfterwards() throws {
            let chip = try GpiodChip(label)
            let offsets: [UInt32] = [10, 11]
            for offset in offsets { try lines.pull(offset, up: false) }
            do {
                let leds = try GPIOLEDs(chip: chip, offsets: offsets)
                try leds.show([true, true])
                // Driven outputs ignore the pull…
                for offset in offsets { try lines.pull(offset, up: false) }
                #expect(try lines.levels(offsets) == [true, true])
                // …and a second owner is refused with who to ask.
                #expect {
                    _ = try GPIOLEDs(chip: chip, offsets: [11])
                } throws: { error in
                    let error = error as! DeviceError
                    return error.kind == .busy && error.message.contains("gpioinfo")
                }
            }
            // Released: the lines follow their pull again, and can be requested anew.
            for offset in offsets { try lines.pull(offset, up: false) }
            #expect(try lines.levels(offsets) == [false, false])
            for offset in offsets { try lines.pull(offset, up: true) }
            #expect(try lines.levels(offsets) == [true, true])
            _ = try GPIOLEDs(chip: chip, offsets: offsets)
        }

        /// Waits for the button's events until `count` arrived or `seconds` passed.
        func events(_ button: ButtonMonitor, count: Int, within seconds: Double) throws -> [ButtonEvent] {
            let clock = MonotonicClock()
            let deadline = clock.now + seconds
            var events: [ButtonEvent] = []
            while events.count < count, clock.now < deadline {
                events += try button.poll(timeout: 0.05)
            }
            return events
        }

        /// A button to ground with the pull-up on (active low), and one to 3.3 V with the pull-down.
        @Test(arguments: [(GPIOBias.pullUp, true), (GPIOBias.pullDown, false)])
        func debouncedPressAndLongPress(bias: GPIOBias, activeLow: Bool) throws {
            let chip = try GpiodChip(label)
            let offset: UInt32 = 9
            let restsHigh = bias == .pullUp
            let button = try ButtonMonitor(
                chip: chip, offset: offset, bias: bias, activeLow: activeLow, clock: MonotonicClock(),
                debouncer: ButtonDebouncer(debounce: 0.03, longPress: 0.8))
            #expect(try lines.level(offset) == restsHigh, "the request's bias sets the simulated pull")
            #expect(try button.poll(timeout: 0.1).isEmpty, "nothing pressed yet")

            // A short press: held 0.2 s.
            try lines.pull(offset, up: !restsHigh)
            usleep(200_000)
            try lines.pull(offset, up: restsHigh)
            #expect(try events(button, count: 1, within: 3) == [.shortPress])

            // A long press: reported while still held, and nothing more on release.
            try lines.pull(offset, up: !restsHigh)
            #expect(try events(button, count: 1, within: 5) == [.longPress])
            try lines.pull(offset, up: restsHigh)
            #expect(try events(button, count: 1, within: 0.5).isEmpty)
        }
    }
}
