import HeadwayCore
import HeadwaySimulator

/// The `--stats` report: what each simulated bus carried per frame.
enum BusReport {
    static func describe(_ rig: SimulatorRig) -> String {
        var text = ""
        for bus in rig.i2cBuses {
            text += section("\(bus.name) (I2C, \(NumberText.compact(bus.clockHz / 1000)) kHz)", bus.statistics, unit: "bytes", timed: true)
        }
        for bus in rig.spiBuses {
            text += section("\(bus.name) (SPI)", bus.statistics, unit: "bytes", timed: true)
        }
        for chip in rig.gpioChips {
            text += section("\(chip.label) (GPIO; a set call is one ioctl on Linux)", chip.statistics, unit: "set calls", timed: false)
        }
        return text
    }

    private static func section(_ title: String, _ statistics: BusStatistics, unit: String, timed: Bool) -> String {
        guard let bytes = statistics.summary(\.bytes), let transactions = statistics.summary(\.transactions),
            let seconds = statistics.summary(\.seconds)
        else { return "\(title): nothing sent\n" }
        if !timed {
            return "\(title): \(statistics.frames.count) frames, \(statistics.total.transactions) \(unit); per frame median \(transactions.median) max \(transactions.max)\n"
        }
        return "\(title): \(statistics.frames.count) frames sent, \(statistics.total.bytes) \(unit) in \(statistics.total.transactions) transactions, \(milliseconds(statistics.total.seconds)) on the wire\n"
            + "  per frame: \(unit) median \(bytes.median) max \(bytes.max); transactions median \(transactions.median) max \(transactions.max); wire time median \(milliseconds(seconds.median)) max \(milliseconds(seconds.max))\n"
    }

    static func milliseconds(_ seconds: Double) -> String {
        NumberText.compact((seconds * 10_000).rounded() / 10) + " ms"
    }
}
