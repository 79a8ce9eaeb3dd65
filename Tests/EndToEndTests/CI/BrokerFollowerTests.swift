import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealPrograms {
    /// One follower for the fleet: `headway-ci --broker` publishes the runs it follows to a real
    /// mosquitto, and two displays (`headway-mqtt` beside `headway-sim serve`) show them.
    @Suite("headway-ci over MQTT", .enabled(if: try MosquittoBroker.needed, "mosquitto is not installed (Scripts/test installs it)"))
    struct BrokerFollowerTests {
        @Test func oneFollowerEveryDisplay() throws {
            let broker = try MosquittoBroker()
            let displays = [try MQTTDisplay(broker: broker), try MQTTDisplay(broker: broker)]
            for display in displays { #expect(display.connected()) }
            let server = try CIServerFixture(scenario: try GitHubJourneyTests.journey())
            let token = server.folder.appendingPathComponent("token")
            try "ghp_journey\n".write(to: token, atomically: true, encoding: .utf8)
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), [
                "github", "acme/widgets", "--api", server.url, "--ca-file", server.caFile, "--token-file", token.path,
                "--interval", "1", "--idle-interval", "1", "--budget", "100000", "--broker", broker.url,
            ])
            defer { follower.signal(SIGTERM) }
            try server.advance(to: 101)
            for display in displays {
                let shown = try BackgroundProcess.eventually(within: 10) {
                    try display.service.status().contains { $0.job == "acme/widgets/9001" && $0.phase == "active" && $0.label == "build: Resolve packages (5/12)" }
                }
                #expect(shown, "\((try? display.service.status()) ?? []) \(follower.stderr)")
            }
            try server.advance(to: 625)
            for display in displays {
                #expect(BackgroundProcess.eventually(within: 10) { display.phase(of: "acme/widgets/9001") == "succeeded" }, "\(follower.stderr)")
            }
            // The run is over: nothing of it stays retained for a display that starts later.
            #expect(try broker.retained("headway/v1/jobs/acme%2Fwidgets/9001/begin") == nil)
        }
    }
}
