import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealPrinter {
    /// headway-ci following a real OctoPrint and its Virtual Printer (Tests/Printers): a print shown
    /// heating (indeterminate, temperatures in the label), then printing with OctoPrint's share and
    /// time left named by its source, paused and resumed from Headway's button and finished; a
    /// print cancelled with a long press. One OctoPrint for the suite; a service and a follower per test.
    @Suite("headway-ci and a real OctoPrint", .serialized,
           .enabled(if: try Needed.that(PrinterServers.available(.octoprint), "OctoPrint's venv (.build-octoprint: Scripts/test makes it with ensure_octoprint)"), "no OctoPrint venv here"))
    final class OctoPrintFollowerTests {
        let printer: PrinterServers
        let service: SimulatedService
        let follower: BackgroundProcess

        init() throws {
            let printer = try PrinterServers.shared(.octoprint)
            self.printer = printer
            _ = BackgroundProcess.eventually(within: 60) { (try? printer.octoprintState()) == "Operational" }
            service = try SimulatedService(linger: 30)
            follower = try BackgroundProcess(Binaries.url("headway-ci"), ["octoprint", printer.octoprintURL, "--token-file", try printer.keyFile(),
                                                                          "--interval", "1", "--idle-interval", "1", "--socket", service.socket])
        }

        deinit { follower.signal(SIGTERM) }

        var job: String { "octoprint/\(printer.host)/cura-m73.gcode" }

        func watch(within seconds: Double = 60, until done: (JobStatus) -> Bool) throws -> [JobStatus] {
            try service.watch(job, within: seconds, follower: follower, until: done)
        }

        func startPrint() throws {
            let answer = try printer.octoprint("POST", "/api/files/local/cura-m73.gcode", json: #"{"command": "select", "print": true}"#)
            #expect(answer.status == 204, "\(answer)")
        }

        @Test func heatingThenPrintingPausedFromTheButtonResumedAndFinished() throws {
            try startPrint()
            let heating = try watch { $0.label?.contains("heating") == true && $0.phase == "active" }
            #expect(heating.last?.phase == "active" && heating.last?.percent == nil, "indeterminate while heating: \(heating)")
            #expect(heating.last?.label?.contains("°C") == true, "\(heating)")
            // A time left: OctoPrint's once it has analysed the file, Headway's own from the share before.
            let printing = try watch { ($0.percent ?? 0) > 3 && $0.etaSeconds != nil }
            #expect(printing.last?.etaSeconds != nil, "a time left while printing: \(printing)")

            // A short press pauses the job on the display and the print at OctoPrint.
            #expect(try service.press(long: false) == [#"{"v":1,"ok":true}"#])
            #expect(BackgroundProcess.eventually(within: 10) { (try? printer.octoprintState()) == "Paused" }, "\(follower.stderr)")
            _ = try watch(within: 10) { $0.phase == "paused" }
            // The printer finishes the moves it had taken before it stops: the file position
            // settles a moment after OctoPrint says Paused, then holds.
            Thread.sleep(forTimeInterval: 2)
            let held = try service.status().first { $0.job == job }?.percent
            Thread.sleep(forTimeInterval: 3)
            let still = try service.status().first { $0.job == job }
            #expect(still?.phase == "paused" && still?.percent == held, "stays paused: \(String(describing: still))")

            // Another resumes both.
            _ = try service.press(long: false)
            #expect(BackgroundProcess.eventually(within: 10) { (try? printer.octoprintState()) == "Printing" }, "\(follower.stderr)")
            _ = try watch(within: 10) { $0.phase == "active" && ($0.percent ?? 0) > (held ?? 0) }
            let finished = try watch(within: 120) { $0.isOver }
            #expect(finished.last?.phase == "succeeded", "\(finished.suffix(3)) \(follower.stderr)")
            #expect(follower.stderr.contains("pause asked for \(job) from Headway"), "\(follower.stderr)")
        }

        /// Told over OctoPrint's push socket: with a minute between the looks of its own, a print
        /// started in OctoPrint reaches the display within moments.
        @Test func aPrintStartedIsShownAtOnceThoughLooksAreAMinuteApart() throws {
            let quiet = try SimulatedService(linger: 30)
            let told = try BackgroundProcess(Binaries.url("headway-ci"), ["octoprint", printer.octoprintURL, "--token-file", try printer.keyFile(),
                                                                          "--interval", "60", "--idle-interval", "60", "--socket", quiet.socket])
            defer { told.signal(SIGTERM) }
            #expect(BackgroundProcess.eventually(within: 10) { told.stderr.contains("told of changes over its WebSocket") }, "\(told.stderr)")
            Thread.sleep(forTimeInterval: 1)
            try startPrint()
            let started = Date()
            _ = try quiet.watch(job, within: 20, follower: told) { _ in true }
            let shown = Date().timeIntervalSince(started)
            #expect(shown < TestTime.scaled(3), "shown \(shown) s after the print started: \(told.stderr)")
            // The print is cancelled for the next test; OctoPrint is Operational again.
            _ = try printer.octoprint("POST", "/api/job", json: #"{"command": "cancel"}"#)
            #expect(BackgroundProcess.eventually(within: 20) { (try? printer.octoprintState()) == "Operational" })
        }

        @Test func aLongPressCancelsThePrint() throws {
            try startPrint()
            _ = try watch { $0.phase == "active" }
            #expect(try service.press(long: true) == [#"{"v":1,"ok":true}"#])
            let cancelled = try watch(within: 20) { $0.isOver }
            #expect(cancelled.last?.phase == "cancelled", "\(cancelled) \(follower.stderr)")
            #expect(BackgroundProcess.eventually(within: 10) { (try? printer.octoprintState()) == "Operational" })
        }
    }
}

extension SimulatedService {
    /// Watches `job` until `done` says so; every status seen (each change once).
    func watch(_ job: String, within seconds: Double, follower: BackgroundProcess, until done: (JobStatus) -> Bool) throws -> [JobStatus] {
        var seen: [JobStatus] = []
        let finished = try BackgroundProcess.eventually(within: seconds) {
            guard let status = try self.status().first(where: { $0.job == job }) else { return false }
            if seen.last != status { seen.append(status) }
            return done(status)
        }
        #expect(finished, "\(job): \(seen.suffix(8).map { "\($0.phase) \($0.percent.map(String.init) ?? "-") \($0.label ?? "")" }) \(follower.stderr)")
        return seen
    }
}

extension JobStatus {
    /// The job ended, one way or another.
    var isOver: Bool { ["succeeded", "failed", "cancelled", "ended"].contains(phase) }
}
