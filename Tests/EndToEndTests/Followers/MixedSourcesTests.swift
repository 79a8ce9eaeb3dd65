import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealHome {
    /// One headway-ci, one configuration file: a Klipper print and a Home Assistant timer on one
    /// display at once, each from its real server.
    @Suite("headway-ci: a printer and a home in one process", .serialized,
           .enabled(if: try Needed.that(PrinterServers.available(.moonraker), "Moonraker's venv (.build-moonraker: ensure_moonraker)")
                && Needed.that(TestHome.available, "Home Assistant (.build-homeassistant: ensure_homeassistant)"), "no Moonraker or no Home Assistant here"))
    final class MixedSourcesTests {
        @Test func aPrintAndATimerOnOneDisplay() throws {
            let printer = try PrinterServers.shared(.moonraker)
            let home = try TestHome.shared()
            let service = try SimulatedService(linger: 30)
            try home.call("timer.cancel", #"{"entity_id": "timer.tea"}"#)
            try printer.play("idle", speed: 1)
            let config = service.folder.appendingPathComponent("ci.yaml")
            try """
                interval: 1
                idle-interval: 1
                sources:
                  - moonraker: \(printer.moonrakerURL)
                    label: Voron
                  - homeassistant: \(home.url)
                    token-file: \(try home.ownTokenFile())
                    entities: [timer.tea]
                """.write(to: config, atomically: true, encoding: .utf8)
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["--config", config.path, "--socket", service.socket])
            defer { follower.signal(SIGTERM) }
            Thread.sleep(forTimeInterval: 1.5)
            try printer.play("m73-complete", speed: 20)
            try home.call("timer.start", #"{"entity_id": "timer.tea", "duration": "00:01:00"}"#)
            let both = try BackgroundProcess.eventually(within: 30) {
                let jobs = try service.status()
                return jobs.contains { $0.job == "moonraker/\(printer.host)/prusaslicer-m73.gcode" && $0.label?.hasPrefix("Voron prusaslicer-m73.gcode") == true }
                    && jobs.contains { $0.job == "home/\(home.host)/timer.tea" && $0.phase == "active" }
            }
            let shown = try service.status()
            #expect(both, "\(shown) \(follower.stderr)")
            try home.call("timer.cancel", #"{"entity_id": "timer.tea"}"#)
        }
    }
}
