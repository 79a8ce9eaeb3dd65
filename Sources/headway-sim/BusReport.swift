import HeadwayCore
import HeadwaySimulator

/// The `--stats` report: what each simulated bus carried per frame.
enum BusReport {
    static func describe(_ rig: SimulatorRig) -> String {
        var text = ""
        for bus in rig.i2cBuses {
            let statistics = bus.statistics
            let khz = NumberText.compact(bus.clockHz / 1000)
            guard let bytes = statistics.summary(\.bytes), let transactions = statistics.summary(\.transactions),
                let seconds = statistics.summary(\.seconds)
            else {
                text += "\(bus.name) (\(khz) kHz): nothing sent\n"
                continue
            }
            text += "\(bus.name) (\(khz) kHz): \(statistics.frames.count) frames sent, \(statistics.total.bytes) bytes in \(statistics.total.transactions) transactions, \(milliseconds(statistics.total.seconds)) on the wire\n"
            text += "  per frame: bytes median \(bytes.median) max \(bytes.max); transactions median \(transactions.median) max \(transactions.max); wire time median \(milliseconds(seconds.median)) max \(milliseconds(seconds.max))\n"
        }
        return text
    }

    static func milliseconds(_ seconds: Double) -> String {
        NumberText.compact((seconds * 10_000).rounded() / 10) + " ms"
    }
}
