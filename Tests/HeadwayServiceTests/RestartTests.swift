import Foundation
import Headway
@testable import HeadwayService
import HeadwayProtocol
import Synchronization
import Testing

/// The service keeps its jobs through a restart: a new core on the same state folder takes them
/// back with their values, labels, totals, elapsed time and estimates, the time it was away counted
/// as running time; a damaged file is set aside with one line, never a crash.
@Suite("Jobs through a restart")
struct RestartTests {
    final class Box<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    final class Service {
        let folder: String
        let clock: ManualClock
        let log = Box<[String]>([])
        let core: ServiceCore

        var lines: [String] { log.value.withLock { $0 } }

        init(folder: String, clock: ManualClock, wall: Double) {
            self.folder = folder
            self.clock = clock
            let logger = ServiceLogger(label: "t") { [log] _, text in log.value.withLock { $0.append(text) } }
            core = ServiceCore(devices: .none, clock: clock, wallClock: { wall }, logger: logger, state: ServiceState(folder: folder, logger: logger))
        }

        func send(_ line: String, uid: UInt32 = 1000) -> String {
            core.handle(line: line, from: Peer(connection: 1, credentials: PeerCredentials(pid: 1, uid: uid, gid: uid))).reply
        }

        func status() -> [JSONValue] {
            guard case .array(let jobs)? = try? JSONValue.parse(send(#"{"v":1,"op":"status"}"#))["jobs"] else { return [] }
            return jobs
        }
    }

    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-restart-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func runningJobsComeBackWithTheirValuesAndElapsedTime() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1_000_000)
        #expect(before.send(#"{"v":1,"op":"begin","job":"hk","label":"Build","total":200}"#).contains("\"ok\":true"))
        for second in 1...30 {
            before.clock.set(to: Double(second))
            _ = before.send(#"{"v":1,"op":"update","job":"hk","value":\#(second * 2)}"#)
        }
        #expect(before.send(#"{"v":1,"op":"begin","job":"other","label":"Backup"}"#).contains("\"ok\":true"))
        before.core.keepJobsNow()

        // A new process: its monotonic clock reads something else, and 20 s passed on the wall.
        let after = Service(folder: folder, clock: ManualClock(startingAt: 5_000), wall: 1_000_020)
        _ = after.core.restoreJobs()
        let jobs = after.status()
        let hook = try #require(jobs.first { $0["job"]?.string == "hk" }, "\(jobs)")
        #expect(hook["label"]?.string == "Build" && hook["value"]?.number == 60 && hook["total"]?.number == 200)
        #expect(hook["phase"]?.string == "active", "20 s away is within the stall window's measure from the last report? \(hook)")
        #expect(jobs.contains { $0["job"]?.string == "other" })
        // A hook's next report lands on the job the service kept, not "no such job".
        #expect(after.send(#"{"v":1,"op":"update","job":"hk","value":80}"#).contains("\"ok\":true"))
        let elapsed = try #require(after.core.registry["hk"]?.job.runningTime(at: after.clock.now))
        #expect(abs(elapsed - 50) < 0.001, "30 s before, 20 s away: \(elapsed)")
        #expect(after.lines.contains { $0.contains("took back 2 jobs") })
    }

    /// A step a second, 60 steps; the service restarts at step 13 and is away 2 s. The first ETA
    /// after it is as good as the last one before it, and it keeps falling with the truth.
    @Test func theEstimateComesBackWithTheJob() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1_000_000)
        _ = before.send(#"{"v":1,"op":"begin","job":"steps","label":"Steps","total":60}"#)
        for step in 1...13 {
            before.clock.set(to: Double(step))
            _ = before.send(#"{"v":1,"op":"update","job":"steps","value":\#(step)}"#)
        }
        let last = try #require(before.status().first?["eta"]?.number)
        #expect(abs(last - 47) <= 2, "before the restart, 47 s left: \(last)")
        before.core.keepJobsNow()

        let after = Service(folder: folder, clock: ManualClock(startingAt: 9_000), wall: 1_000_002)
        _ = after.core.restoreJobs()
        var etas: [Double] = []
        for step in 15...40 {
            after.clock.set(to: 9_000 + Double(step - 15))
            _ = after.send(#"{"v":1,"op":"update","job":"steps","value":\#(step)}"#)
            etas.append(try #require(after.status().first?["eta"]?.number))
        }
        // 60 − 15 = 45 s left at the first report after the restart, one second less at each one.
        for (index, eta) in etas.enumerated() {
            let truth = Double(45 - index)
            #expect(abs(eta - truth) <= 0.15 * truth + 1, "at step \(15 + index): ETA \(eta) s, truth \(truth) s: \(etas)")
        }
        #expect(zip(etas, etas.dropFirst()).allSatisfy { $1 <= $0 }, "the ETA falls with the truth: \(etas)")
    }

    @Test(arguments: ["{ not json", #"{"format":99,"jobs":[]}"#, #"{"format":1,"jobs":"x"}"#, String(repeating: "\u{0}", count: 100)])
    func aDamagedFileIsSetAsideWithOneLine(text: String) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/jobs.json", atomically: true, encoding: .utf8)
        let service = Service(folder: folder, clock: ManualClock(), wall: 1)
        #expect(service.core.restoreJobs().isEmpty && service.status().isEmpty)
        let warnings = service.lines.filter { $0.contains("cannot be read") }
        #expect(warnings.count == 1 && FileManager.default.fileExists(atPath: folder + "/jobs.json.set-aside"), "\(warnings)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/jobs.json"))
        // The service goes on and keeps new jobs.
        #expect(service.send(#"{"v":1,"op":"begin","job":"a"}"#).contains("\"ok\":true"))
    }

    /// Regression: a `jobs.json` label with escape sequences came back unfiltered (the socket's
    /// `status` carried them raw) and a 10 MB one uncut (every `headway status` then failed). What
    /// is read back passes the protocol's checks: labels filtered and cut, a job no report could
    /// make (a value above its total) left out with one line.
    @Test func whatIsReadBackPassesTheProtocolsChecks() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1_000_000)
        _ = before.send(#"{"v":1,"op":"begin","job":"hk","label":"Build","total":200}"#)
        _ = before.send(#"{"v":1,"op":"begin","job":"bad","label":"Bad","total":100}"#)
        before.clock.set(to: 1)
        _ = before.send(#"{"v":1,"op":"update","job":"bad","value":50}"#)
        before.core.keepJobsNow()
        let file = folder + "/jobs.json"
        var text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"Build\"") && text.contains("\"total\":100"))
        text = text.replacingOccurrences(of: "\"Build\"", with: "\"\\u001b[2JBuild " + String(repeating: "x", count: 10 << 20) + "\"")
        text = text.replacingOccurrences(of: "\"total\":100", with: "\"total\":10")
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let after = Service(folder: folder, clock: ManualClock(startingAt: 50), wall: 1_000_001)
        _ = after.core.restoreJobs()
        let reply = after.send(#"{"v":1,"op":"status"}"#)
        #expect(reply.utf8.count < 4096 && !reply.contains("\\u001b"), "\(reply.prefix(300))")
        let jobs = after.status()
        let label = try #require(jobs.first { $0["job"]?.string == "hk" }?["label"]?.string)
        #expect(label.hasPrefix("Build") && !label.contains("\u{1B}") && label.utf8.count <= WireProtocol.maxLabelBytes, "\(label.prefix(80))")
        #expect(!jobs.contains { $0["job"]?.string == "bad" }, "a value above its total is no job's")
        #expect(after.lines.filter { $0.contains("left out") && $0.contains("\"bad\"") }.count == 1, "\(after.lines)")
    }

    /// A job updating 100 times a second is written at most once a second, off the loop.
    @Test func aBusyJobIsWrittenAtMostOnceASecond() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = Service(folder: folder, clock: ManualClock(), wall: 1)
        let real = MonotonicClock()
        let start = real.now
        _ = service.send(#"{"v":1,"op":"begin","job":"busy","total":100000}"#)
        var value = 0
        while real.now - start < 3 {
            value += 1
            service.clock.set(to: real.now - start)
            _ = service.send(#"{"v":1,"op":"update","job":"busy","value":\#(value)}"#)
            _ = service.core.tick()
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 1.2)
        let writes = try #require(service.core.keeper).writes
        #expect(value > 200 && writes >= 2 && writes <= 5, "\(value) updates, \(writes) writes")
    }

    /// A begin and an end are in the journal before they are answered: a new process takes them
    /// back though `jobs.json` was never written after them, the entry replacing what the file
    /// held, each moved onto the new clock by its own time; then the file holds them and the
    /// journal is gone.
    @Test func theJournalHoldsWhatTheFileDoesNotYet() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1_000_000)
        _ = before.send(#"{"v":1,"op":"begin","job":"old","total":10}"#)
        before.core.keepJobsNow()
        before.clock.set(to: 5)
        _ = before.send(#"{"v":1,"op":"finish","job":"old","outcome":"failed"}"#)
        _ = before.send(#"{"v":1,"op":"begin","job":"new","label":"Deploy"}"#)
        #expect(before.core.journalAppended == 3)
        let synced = BackgroundWait.until(within: 5) { before.core.journalDurable == 3 }
        #expect(synced, "the journal thread made the entries durable")

        let after = Service(folder: folder, clock: ManualClock(startingAt: 100), wall: 1_000_001)
        _ = after.core.restoreJobs()
        let jobs = after.status()
        #expect(after.core.registry["old"]?.job.outcome == .failed, "\(jobs)")
        #expect(jobs.first { $0["job"]?.string == "new" }?["label"]?.string == "Deploy", "\(jobs)")
        let elapsed = try #require(after.core.registry["new"]?.job.runningTime(at: after.clock.now))
        #expect(abs(elapsed - 1) < 0.001, "begun when the wall read 1,000,000, taken back when it read 1,000,001: \(elapsed)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/jobs.journal"), "settled into jobs.json")
        #expect(try String(contentsOfFile: folder + "/jobs.json", encoding: .utf8).contains("Deploy"))
        // The next entries are numbered after the last one read.
        #expect(after.send(#"{"v":1,"op":"begin","job":"third"}"#).contains("\"ok\":true") && after.core.journalAppended == 4)
    }

    /// A job that was over while the service was away (its result shown long enough) is not
    /// taken back: it would have been forgotten.
    @Test func aJobOverWhileAwayIsNotTakenBack() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1_000_000)
        _ = before.send(#"{"v":1,"op":"begin","job":"done"}"#)
        _ = before.send(#"{"v":1,"op":"finish","job":"done","outcome":"succeeded"}"#)
        _ = before.send(#"{"v":1,"op":"begin","job":"running"}"#)
        #expect(BackgroundWait.until(within: 5) { before.core.journalDurable == 3 })
        let after = Service(folder: folder, clock: ManualClock(), wall: 1_000_060)
        _ = after.core.restoreJobs()
        #expect(after.status().map { $0["job"]?.string } == ["running"], "\(after.status())")
    }

    /// A crash in the middle of an append leaves half a line: it is left out without a word and
    /// cut before the next entry; a line damaged elsewhere is left out with one line.
    @Test func aTornOrDamagedLineIsLeftOut() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Service(folder: folder, clock: ManualClock(), wall: 1)
        _ = before.send(#"{"v":1,"op":"begin","job":"kept"}"#)
        #expect(BackgroundWait.until(within: 5) { before.core.journalDurable == 1 })
        let journal = folder + "/jobs.journal"
        let whole = try String(contentsOfFile: journal, encoding: .utf8)
        try (whole + whole.prefix(40)).write(toFile: journal, atomically: false, encoding: .utf8)
        let torn = Service(folder: folder, clock: ManualClock(), wall: 2)
        _ = torn.core.restoreJobs()
        #expect(torn.status().contains { $0["job"]?.string == "kept" } && !torn.lines.contains { $0.contains("could not be read") }, "\(torn.lines)")

        try ("{ damaged\n" + whole).write(toFile: journal, atomically: false, encoding: .utf8)
        let damaged = Service(folder: folder, clock: ManualClock(), wall: 3)
        _ = damaged.core.restoreJobs()
        #expect(damaged.lines.filter { $0.contains("jobs.journal: 1 line could not be read") }.count == 1, "\(damaged.lines)")
    }

    /// A journal the disk refuses is said once, and replies are no longer held for it: a service
    /// on a full or read-only disk still answers.
    @Test func aJournalThatCannotBeWrittenHoldsNothingBack() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the journal should be: it cannot be opened for appending.
        try FileManager.default.createDirectory(atPath: folder + "/jobs.journal", withIntermediateDirectories: true)
        let service = Service(folder: folder, clock: ManualClock(), wall: 1)
        _ = service.send(#"{"v":1,"op":"begin","job":"a"}"#)
        #expect(BackgroundWait.until(within: 5) { service.core.journalDurable == 1 })
        _ = service.send(#"{"v":1,"op":"begin","job":"b"}"#)
        #expect(service.core.journalDurable == 2, "no longer held once the journal failed")
        #expect(BackgroundWait.until(within: 5) { service.lines.contains { $0.contains("cannot write") && $0.contains("jobs.journal") } }, "\(service.lines)")
        #expect(service.lines.filter { $0.contains("jobs.journal") }.count == 1)
    }
}

/// Polls `condition` every 5 ms for up to `seconds`.
enum BackgroundWait {
    static func until(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }
}
