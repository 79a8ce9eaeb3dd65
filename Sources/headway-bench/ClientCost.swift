import HeadwayClient
import HeadwaySystem

/// What reporting from Swift costs (`headway-bench client SOCKET`, against a running
/// `headway-sim serve`; Scripts/bench-client starts one): the time one `update` takes its caller
/// (p50, p99), how many one task reports a second, the round trip of an update the service has
/// acknowledged, and the client's memory per job.
enum ClientCost {
    static func report(socket: String) async throws {
        let clock = ContinuousClock()
        let client = HeadwayClient(socket: socket)
        let job = try await client.begin("bench", label: "Client bench", total: 1_000_000)
        guard client.isConnected else { fatalError("no service answers at \(socket): start headway-sim serve --headless --socket \(socket)") }

        // The caller's cost of one update, each timed alone.
        var costs: [Duration] = []
        costs.reserveCapacity(100_000)
        for value in 1...100_000 {
            let start = clock.now
            try job.update(value: Double(value))
            costs.append(clock.now - start)
        }
        costs.sort()
        print("update, the caller's cost over 100,000 calls: p50 \(micro(costs[costs.count / 2])), p99 \(micro(costs[costs.count * 99 / 100])), max \(micro(costs.last!))")

        // As fast as one task can.
        let count = 1_000_000
        let start = clock.now
        for value in 1...count { try job.update(value: Double(value)) }
        let spent = clock.now - start
        await job.flush()
        print("one task: \(grouped(Int(Double(count) / seconds(spent)))) updates/s (\(grouped(count)) in \(milli(spent)))")

        // An update and its acknowledgement by the service.
        var trips: [Duration] = []
        for value in 1...2_000 {
            let start = clock.now
            try job.update(value: Double(value))
            await job.flush()
            trips.append(clock.now - start)
        }
        trips.sort()
        print("update acknowledged by the service (update, then flush): p50 \(micro(trips[trips.count / 2])), p99 \(micro(trips[trips.count * 99 / 100]))")
        try await job.finish(.succeeded)

        // Memory per job: 1,000 running jobs (one connection follows at most 1,024).
        let before = residentKiB()
        var jobs: [Job] = []
        for index in 0..<1000 {
            let job = try await client.begin("bench-\(index)", label: "Job \(index) of the client bench", total: 100)
            try job.update(value: 1)
            jobs.append(job)
        }
        await client.flush()
        let after = residentKiB()
        print("memory: \(grouped((after - before) * 1024 / jobs.count)) bytes of RSS per running job (1,000 jobs: \(before) KiB before, \(after) KiB after)")
        await client.close()
    }

    /// This process's resident memory, from /proc/self/status.
    static func residentKiB() -> Int {
        let status = String(decoding: Files.read("/proc/self/status") ?? [], as: UTF8.self)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func micro(_ duration: Duration) -> String {
        let value = seconds(duration) * 1e6
        return value < 10 ? "\(Double(Int(value * 100)) / 100) µs" : "\(Int(value.rounded())) µs"
    }

    static func milli(_ duration: Duration) -> String { "\(Int((seconds(duration) * 1000).rounded())) ms" }
}
