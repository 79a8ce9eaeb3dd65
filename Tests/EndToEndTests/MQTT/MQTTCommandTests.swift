import Foundation
import HeadwayMQTT
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// Buttons on a display reaching the runner (commands back), and Home Assistant's view
/// of a display: a real mosquitto, `headway-mqtt`, `headway-sim serve` and `headway run --broker`.
@Suite("MQTT: buttons and Home Assistant", .enabled(if: try MosquittoBroker.needed, "mosquitto is not installed (Scripts/test installs it)"))
struct MQTTCommandTests {
    static let job = "acme/widgets/run-1"

    /// A short press on one display pauses the runner's command (every display shows it paused),
    /// another resumes it; a long press on the other display stops the command and the job ends
    /// cancelled everywhere.
    @Test func buttonsOnADisplayPauseAndStopTheRunnersCommand() throws {
        let broker = try MosquittoBroker()
        let hall = try MQTTDisplay(broker: broker, name: "hall")
        let desk = try MQTTDisplay(broker: broker, name: "desk")
        #expect(hall.connected() && desk.connected())
        let marker = broker.folder.appendingPathComponent("ticks")
        let run = try runnerCommand(broker, job: "run-1", "echo 2/10; while true; do echo x >> \(marker.path); sleep 0.1; done")
        #expect(BackgroundProcess.eventually(within: 5) { hall.percent(of: Self.job) == 20 && desk.percent(of: Self.job) == 20 }, "\(run.stderr)")
        // A press acts on the job shown: past the grace delay.
        #expect(BackgroundProcess.eventually(within: 5) { hall.phase(of: Self.job) == "active" })

        _ = try hall.service.press(long: false)
        #expect(BackgroundProcess.eventually(within: 3) { run.stderr.contains("run-1 paused") }, "\(run.stderr) \(hall.bridge.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { desk.phase(of: Self.job) == "paused" }, "every display shows it paused: \(desk.bridge.stderr)")
        #expect(hall.phase(of: Self.job) == "paused")
        // Paused for real: the command's loop writes nothing more.
        let before = (try? String(contentsOf: marker, encoding: .utf8))?.count ?? 0
        TestTime.sleep(0.5)
        #expect(((try? String(contentsOf: marker, encoding: .utf8))?.count ?? 0) == before, "the command is stopped")

        _ = try desk.service.press(long: false)
        #expect(BackgroundProcess.eventually(within: 3) { run.stderr.contains("run-1 resumed") }, "\(run.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { hall.phase(of: Self.job) == "active" && desk.phase(of: Self.job) == "active" })

        _ = try desk.service.press(long: true)
        #expect(run.waitForExit() != nil, "the command was stopped: \(run.stderr)")
        #expect(run.stderr.contains("cancel requested for run-1"), "\(run.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { hall.phase(of: Self.job) == "cancelled" && desk.phase(of: Self.job) == "cancelled" })
        #expect(try broker.retained("headway/v1/jobs/acme%2Fwidgets/run-1/begin") == nil, "nothing stays retained")
    }

    /// A job reported by separate hook calls has nothing on the runner that could stop it: a
    /// long press ends it on that display only, as with a local job nobody controls, and a short
    /// press is refused rather than showing a pause that is not one.
    @Test func aHookJobCannotBePausedAndALongPressEndsItHereOnly() throws {
        let broker = try MosquittoBroker()
        let hall = try MQTTDisplay(broker: broker, name: "hall")
        let desk = try MQTTDisplay(broker: broker, name: "desk")
        #expect(hall.connected() && desk.connected())
        try runner(broker, ["--job", "gl-9", "begin", "--total", "10"])
        try runner(broker, ["--job", "gl-9", "set", "3"])
        #expect(BackgroundProcess.eventually(within: 3) { hall.percent(of: "acme/widgets/gl-9") == 30 && desk.percent(of: "acme/widgets/gl-9") == 30 })
        #expect(BackgroundProcess.eventually(within: 5) { hall.phase(of: "acme/widgets/gl-9") == "active" })
        _ = try hall.service.press(long: false)
        TestTime.sleep(0.3)
        #expect(["active", "stalled"].contains(hall.phase(of: "acme/widgets/gl-9")), "not paused")
        _ = try hall.service.press(long: true)
        #expect(BackgroundProcess.eventually(within: 3) { hall.phase(of: "acme/widgets/gl-9") == "cancelled" })
        #expect(["active", "stalled"].contains(desk.phase(of: "acme/widgets/gl-9")), "the other display still shows it running")
    }

    /// Regression: a job that succeeded read 99 % while its display eased to the end. Home
    /// Assistant's state of a succeeded job reads 100 % from the first state that says so.
    @Test func homeAssistantReadsASucceededJobAsDone() throws {
        let broker = try MosquittoBroker()
        let hall = try MQTTDisplay(broker: broker, name: "hall", arguments: ["--home-assistant"])
        #expect(hall.connected())
        let discovery = HomeAssistantDiscovery(display: "hall")
        try runner(broker, ["--job", "ok", "begin", "--label", "Build", "--total", "1000"])
        TestTime.sleep(0.5)
        try runner(broker, ["--job", "ok", "set", "1000"])
        try runner(broker, ["--job", "ok", "done"])
        var states: [String] = []
        _ = BackgroundProcess.eventually(within: 5) {
            if let state = try? broker.retained(discovery.stateTopic), state.contains(#""phase":"succeeded""#) { states.append(state) }
            return states.count >= 5
        }
        #expect(!states.isEmpty, "\(hall.bridge.stderr)")
        #expect(states.allSatisfy { $0.contains(#""percent":100"#) }, "\(Set(states))")
    }

    /// Home Assistant discovery: the display's entities, retained; the state of the job shown; the
    /// configs sent again when Home Assistant says it started; the cancel button stopping the job.
    @Test func homeAssistantSeesTheDisplayAndItsCancelButtonStopsTheJob() throws {
        let broker = try MosquittoBroker()
        let hall = try MQTTDisplay(broker: broker, name: "hall", arguments: ["--home-assistant"])
        #expect(hall.connected())
        let discovery = HomeAssistantDiscovery(display: "hall")
        for entity in discovery.entities {
            // Published right after the bridge connects: on a busy machine, a moment later.
            var config: String?
            #expect(BackgroundProcess.eventually(within: 5) {
                config = try? broker.retained(discovery.configTopic(entity))
                return config != nil
            }, "\(entity.object)")
            #expect(try JSONValue.parse(try #require(config)) == entity.config)
        }
        #expect(BackgroundProcess.eventually(within: 3) { (try? broker.retained(discovery.stateTopic))?.contains(#""phase":"idle""#) == true })

        let run = try runnerCommand(broker, job: "run-1", "echo 4/10; exec sleep \(Int(TestTime.scaled(30)))")
        #expect(BackgroundProcess.eventually(within: 5) {
            let state = (try? broker.retained(discovery.stateTopic)) ?? ""
            return state.contains(#""job":"acme/widgets/run-1""#) && state.contains(#""percent":40"#) && state.contains(#""phase":"active""#)
        }, "\(hall.bridge.stderr)")
        // Every topic the configs name carries what the bridge publishes.
        for entity in discovery.entities {
            for key in ["state_topic", "availability_topic", "json_attributes_topic"] {
                guard let topic = entity.config[key]?.string else { continue }
                #expect(try broker.retained(topic) != nil, "\(entity.object): \(key) \(topic)")
            }
        }

        // Home Assistant restarted and lost its configs: its "online" brings them back.
        let progress = discovery.configTopic(discovery.entities[0])
        try broker.publish(progress, "", retained: true)
        #expect(try broker.retained(progress) == nil)
        try broker.publish(discovery.statusTopic, "online")
        #expect(BackgroundProcess.eventually(within: 3) { (try? broker.retained(progress)) != nil })

        // The cancel button acts as a long press on the job shown: the runner stops its command.
        try broker.publish(discovery.cancelTopic, HomeAssistantDiscovery.pressPayload)
        #expect(run.waitForExit() != nil, "\(run.stderr) \(hall.bridge.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { (try? broker.retained(discovery.stateTopic))?.contains(#""phase":"cancelled""#) == true }, "\(hall.bridge.stderr)")
        // Home Assistant reads the display unavailable when it goes.
        hall.bridge.signal(SIGKILL)
        #expect(BackgroundProcess.eventually(within: 3) { (try? broker.retained(discovery.availabilityTopic)) == "offline" })
    }
}
}
