import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealHome {
    /// headway-ci following a real Moonraker in front of the Klippy stand-in (Tests/Printers),
    /// whose timelines play whole prints faster than real time: the heat-up indeterminate, the
    /// share from the slicer's M73 or else the file position (named in the label), the layer,
    /// a pause at the printer, pause, resume and cancel from Headway's button, a cancel and an
    /// error at the printer, and Klippy disconnecting under a print. One Moonraker for the suite.
    @Suite("headway-ci and a real Moonraker", .serialized,
           .enabled(if: try Needed.that(PrinterServers.available(.moonraker), "Moonraker's venv (.build-moonraker: Scripts/test makes it with ensure_moonraker)"), "no Moonraker venv here"))
    final class MoonrakerFollowerTests {
        let printer: PrinterServers
        let service: SimulatedService
        let follower: BackgroundProcess

        init() throws {
            printer = try PrinterServers.shared(.moonraker)
            try printer.play("idle", speed: 1)
            service = try SimulatedService(linger: 30)
            follower = try BackgroundProcess(Binaries.url("headway-ci"), ["moonraker", printer.moonrakerURL, "--interval", "1", "--idle-interval", "1", "--socket", service.socket])
            // The follower has looked once (an idle printer) before the print starts.
            Thread.sleep(forTimeInterval: 1.5)
        }

        deinit { follower.signal(SIGTERM) }

        func job(_ file: String) -> String { "moonraker/\(printer.host)/\(file)" }

        func watch(_ file: String, within seconds: Double = 60, until done: (JobStatus) -> Bool) throws -> [JobStatus] {
            try service.watch(job(file), within: seconds, follower: follower, until: done)
        }

        @Test func aPrintWithM73HeatsThenShowsTheSlicersShareAndLayers() throws {
            try printer.play("m73-complete", speed: 20)
            let seen = try watch("prusaslicer-m73.gcode", until: { $0.phase == "succeeded" })
            let heating = seen.filter { $0.label?.contains("heating") == true }
            #expect(!heating.isEmpty && heating.allSatisfy { $0.percent == nil }, "indeterminate while heating, never a made-up 0 %: \(seen)")
            #expect(seen.contains { $0.label?.contains("by M73") == true && $0.label?.contains("layer ") == true }, "\(seen.compactMap(\.label))")
            let percents = seen.compactMap(\.percent)
            #expect(percents == percents.sorted(), "the share never goes back: \(percents)")
        }

        /// Told over Moonraker's WebSocket: with a minute between the looks of its own, a print
        /// started at the printer reaches the display within moments.
        @Test func aPrintStartedIsShownAtOnceThoughLooksAreAMinuteApart() throws {
            let quiet = try SimulatedService(linger: 30)
            let told = try BackgroundProcess(Binaries.url("headway-ci"), ["moonraker", printer.moonrakerURL, "--interval", "60", "--idle-interval", "60", "--socket", quiet.socket])
            defer { told.signal(SIGTERM) }
            #expect(BackgroundProcess.eventually(within: 10) { told.stderr.contains("told of changes over its WebSocket") }, "\(told.stderr)")
            // Its first look (at the subscription) is over before the print starts.
            Thread.sleep(forTimeInterval: 1)
            try printer.play("m73-complete", speed: 20)
            let played = Date()
            _ = try quiet.watch(job("prusaslicer-m73.gcode"), within: 20, follower: told) { _ in true }
            let shown = Date().timeIntervalSince(played)
            #expect(shown < TestTime.scaled(3), "shown \(shown) s after the print started: \(told.stderr)")
        }

        @Test func aPrintWithoutM73ShowsTheFilePosition() throws {
            try printer.play("no-m73-complete", speed: 30)
            let seen = try watch("cura-no-m73.gcode", until: { $0.phase == "succeeded" })
            #expect(seen.contains { $0.label?.contains("by file position") == true }, "\(seen.compactMap(\.label))")
            #expect(!seen.contains { $0.label?.contains("M73") == true })
        }

        @Test func pausedAtThePrinterThenResumed() throws {
            try printer.play("paused-resumed", speed: 20)
            _ = try watch("cura-m73.gcode") { $0.phase == "paused" }
            let after = try watch("cura-m73.gcode") { $0.phase == "succeeded" }
            #expect(after.contains { $0.phase == "active" }, "\(after)")
        }

        @Test func pauseResumeAndCancelFromTheButton() throws {
            try printer.play("idle", speed: 10)
            let started = try PrinterServers.call("POST", printer.moonrakerURL + "/printer/print/start?filename=cura-m73.gcode")
            #expect(started.status == 200, "\(started)")
            _ = try watch("cura-m73.gcode") { ($0.percent ?? 0) > 2 }
            _ = try service.press(long: false)
            _ = try watch("cura-m73.gcode", within: 10) { $0.phase == "paused" }
            #expect(try printer.klippyState().contains("paused"))
            _ = try service.press(long: false)
            _ = try watch("cura-m73.gcode", within: 10) { $0.phase == "active" }
            _ = try service.press(long: true)
            #expect(try watch("cura-m73.gcode", within: 10) { $0.isOver }.last?.phase == "cancelled", "\(follower.stderr)")
            #expect(follower.stderr.contains("cancel asked for"), "\(follower.stderr)")
        }

        @Test func cancelledAtThePrinter() throws {
            try printer.play("cancelled", speed: 30)
            #expect(try watch("cura-m73.gcode") { $0.isOver }.last?.phase == "cancelled")
        }

        @Test func anErrorFailsThePrintWithTheMessage() throws {
            try printer.play("error", speed: 30)
            let seen = try watch("cura-m73.gcode") { $0.isOver }
            #expect(seen.last?.phase == "failed", "\(seen)")
            #expect(seen.last?.label?.contains("Heater extruder not heating") == true, "\(seen)")
        }

        @Test func klippyDisconnectingReadsStaleThenThePrintIsLost() throws {
            try printer.play("disconnect", speed: 20)
            let seen = try watch("cura-m73.gcode".replacingOccurrences(of: "cura", with: "prusaslicer")) { $0.phase == "stale" || $0.phase == "failed" }
            let end = try watch("prusaslicer-m73.gcode", within: 20) { $0.phase == "failed" }
            #expect((seen + end).contains { $0.phase == "stale" }, "\(seen + end)")
            #expect(end.last?.label?.contains("Klippy disconnected") == true, "\(end)")
            #expect(follower.stderr.contains("Klippy"), "one line saying why: \(follower.stderr)")
            #expect(follower.stderr.contains("reachable again"), "\(follower.stderr)")
        }
    }
}

extension PrinterServers {
    /// The stand-in's print_stats as its control interface shows them.
    func klippyState() throws -> String {
        try Self.call("GET", klippyControl + "/state").body
    }
}
