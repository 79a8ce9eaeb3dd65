import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// A restart in the middle of jobs, as an upgrade (`systemctl restart`) or a crash (`kill -9`) does
/// it: the service comes back with every job — its value, label and elapsed time — a hook's next
/// report lands on the job it kept, and `headway run` goes on with its job to its end.
@Suite("Jobs through a restart, end to end")
struct RestartJourneyTests {
    @Test(arguments: [SIGKILL, SIGTERM])
    func jobsComeBackAfterTheServiceWasKilledOrRestarted(signal: Int32) throws {
        let service = try SimulatedService()
        let environment = ["HEADWAY_SOCKET": service.socket]
        #expect(try service.headway(["begin", "--job", "hk", "--label", "Build", "--total", "100"], environment: environment).status == 0)
        #expect(try service.headway(["set", "--job", "hk", "40"], environment: environment).status == 0)
        let script = "i=0; while [ $i -lt 30 ]; do i=$((i+1)); echo \"$i/30\"; sleep 0.2; done"
        let run = try BackgroundProcess(
            Binaries.url("headway"), ["run", "--job", "rn", "--label", "Copy", "--", "/bin/sh", "-c", script], environment: environment)
        #expect(BackgroundProcess.eventually(within: 5) {
            ((try? service.headway(["status"], environment: environment).stdout) ?? "").contains("rn")
        })
        Thread.sleep(forTimeInterval: 1)
        service.signal(signal)
        #expect(service.waitForExit() != nil)
        let again = try service.restarted()
        // A killed service leaves its socket file behind: ready is when it answers.
        #expect(BackgroundProcess.eventually(within: 3) { ((try? again.headway(["status"], environment: environment).status) ?? 1) == 0 })
        let status = try again.headway(["status"], environment: environment).stdout
        let hook = status.split(separator: "\n").first { $0.contains("hk") }.map(String.init) ?? ""
        #expect(hook.contains("40%") && hook.contains("Build"), "the hook's job as it was:\n\(status)\n\(again.logged)")
        #expect(again.logged.contains("took back"), "\(again.logged)")
        // The hook's next report lands on the job the service kept.
        let set = try again.headway(["set", "--job", "hk", "60", "--strict"], environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { ((try? again.headway(["status"], environment: environment).stdout) ?? "").contains("60%") })
        // headway run goes on: its job comes back and ends as its command did.
        #expect(run.waitForExit(seconds: 20) == 0, "headway run's status")
        #expect(BackgroundProcess.eventually(within: 3) {
            ((try? again.headway(["status"], environment: environment).stdout) ?? "").split(separator: "\n").contains { $0.contains("rn") && $0.contains("succeeded") }
        }, "\((try? again.headway(["status"], environment: environment).stdout) ?? "")")
        again.signal(SIGTERM)
        _ = again.waitForExit()
    }

    /// A disk that does not answer (the journal a pipe nobody reads: its opening never returns):
    /// `begin` and `done` are still answered within a hook's 200 ms, and the service goes on.
    @Test func aDiskThatStallsDoesNotMakeHooksGiveUp() throws {
        let service = try SimulatedService()
        #expect(BackgroundProcess.eventually(within: 5) { ((try? service.headway(["status"]).status) ?? 1) == 0 })
        let journal = service.folder.appendingPathComponent("state/jobs.journal").path
        try FileManager.default.createDirectory(atPath: service.folder.appendingPathComponent("state").path, withIntermediateDirectories: true)
        #expect(mkfifo(journal, 0o600) == 0)
        for (index, arguments) in [["begin", "--total", "10"], ["set", "4"], ["done"]].enumerated() {
            let run = try service.headway(arguments + ["--job", "stalled-disk", "--strict"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): \(run.stderr)")
            #expect(run.seconds < 1, "step \(index): \(run.seconds) s")
        }
        #expect(try service.headway(["status"]).stdout.contains("stalled-disk"))
        // What waits for the disk is bounded: past 4 MiB (some 6,000 jobs begun) the journal is
        // given up with one line, and every reply goes at once.
        let begins = (0..<8000).map { #"{"v":1,"op":"begin","job":"flood-\#($0)","label":"Job number \#($0)"}"# }
        let replies = try service.raw(begins, timeout: 30)
        #expect(replies.count == begins.count && replies.allSatisfy { $0.contains("\"ok\":true") }, "\(replies.count) replies")
        #expect(service.logged.components(separatedBy: "the disk has not taken 4 MiB").count == 2, "\(service.logged)")
    }
}
}
