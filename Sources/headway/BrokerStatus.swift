import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// `headway --broker URL status`: the jobs the broker holds, as a display that started now would
/// see them (``RetainedJobs``).
struct BrokerStatus {
    let client: Client
    let url: String

    func run() -> Int32 {
        let jobs: [JobStatus]
        do {
            jobs = try RetainedJobs.read(try BrokerSettings(url: url), clientID: JobPublication.clientID("status"), within: client.command.timeout)
        } catch {
            // A wrong address or a broker that failed: each says what in its description.
            return client.unanswered("\(error)")
        }
        let width = Terminal.isTerminal(SystemIO.standardOutput) ? Terminal.size(SystemIO.standardOutput)?.columns : nil
        print(StatusTable.render(jobs, omitted: 0, width: width))
        return 0
    }
}
