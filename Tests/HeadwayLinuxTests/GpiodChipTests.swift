import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HeadwayDevices
import HeadwayCore
@testable import HeadwayLinux
import Testing

/// What can be checked of the libgpiod backend without a GPIO chip: which API it was built against
/// and the errors for chips that are not there. The real-kernel tests (gpio-sim in QEMU) drive lines.
@Suite("libgpiod backend")
struct GpiodChipTests {
    @Test func builtAgainstTheExpectedAPI() {
        let library = GpiodChip.library
        #expect(library.api == 1 || library.api == 2)
        #expect(!library.version.isEmpty)
        if let expected = ProcessInfo.processInfo.environment["HEADWAY_EXPECT_GPIOD_API"] {
            #expect(library.api == Int(expected), "built against libgpiod \(library.version)")
        }
    }

    @Test(arguments: ["no-such-label", "/dev/gpiochip97", "gpiochip97"])
    func missingChipsAreReportedWithTheFix(which: String) {
        #expect {
            _ = try GpiodChip(which)
        } throws: { error in
            let error = error as! DeviceError
            return error.kind == .notPresent && error.message.contains("gpiodetect")
        }
    }

    @Test func noRaspberryPiHeaderHereSaysWhichLabelsWereTried() {
        #expect {
            _ = try GpiodChip.first(labelledAnyOf: GpiodChip.raspberryPiHeaderLabels)
        } throws: { error in
            (error as! DeviceError).message.contains("pinctrl-rp1 or pinctrl-bcm2711 or pinctrl-bcm2835")
        }
    }
}

@Suite("Monotonic clock")
struct MonotonicClockTests {
    /// The one real clock reads CLOCK_MONOTONIC, the clock GPIO edge events are stamped with, so a
    /// button's edges and "now" can be compared.
    @Test func isTheKernelsMonotonicClock() {
        var kernel = timespec()
        clock_gettime(CLOCK_MONOTONIC, &kernel)
        let now = MonotonicClock().now
        let seconds = Double(kernel.tv_sec) + Double(kernel.tv_nsec) * 1e-9
        #expect(abs(now - seconds) < 0.01, "MonotonicClock \(now) s, CLOCK_MONOTONIC \(seconds) s")
    }

    @Test func runsForwardInSeconds() {
        let clock = MonotonicClock()
        let start = clock.now
        usleep(20_000)
        let elapsed = clock.now - start
        #expect(elapsed >= 0.019 && elapsed < 1)
    }
}
