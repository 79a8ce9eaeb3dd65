import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealHome {
    /// headway-ci following a real Home Assistant (Tests/Home): a timer counted down, paused and
    /// cancelled from Headway's button; a percentage sensor driven by an input_number; a washer's
    /// remaining minutes; a running binary sensor; an update entity installing; a revoked token
    /// (stale, one line, back when the file holds a good token). One Home Assistant for the suite.
    @Suite("headway-ci and a real Home Assistant", .serialized,
           .enabled(if: try Needed.that(TestHome.available, "Home Assistant (.build-homeassistant: Scripts/lib/homeassistant.sh ensure_homeassistant)"), "no Home Assistant here"))
    final class HomeAssistantFollowerTests {
        let home: TestHome
        let service: SimulatedService
        var follower: BackgroundProcess?

        init() throws {
            home = try TestHome.shared()
            service = try SimulatedService(linger: 30)
            // Every entity back where it starts.
            try home.call("timer.cancel", #"{"entity_id": "timer.tea"}"#)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 0}"#)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.washer_minutes", "value": 0}"#)
            try home.call("input_boolean.turn_off", #"{"entity_id": "input_boolean.washer_running"}"#)
            try home.call("input_boolean.turn_off", #"{"entity_id": "input_boolean.firmware_installing"}"#)
        }

        deinit { follower?.signal(SIGTERM) }

        func follow(_ entities: [String], tokenFile: String? = nil, interval: Int = 1) throws -> BackgroundProcess {
            let process = try BackgroundProcess(Binaries.url("headway-ci"), ["homeassistant", home.url, "--token-file", try tokenFile ?? home.ownTokenFile(),
                                                                             "--interval", "\(interval)", "--idle-interval", "\(interval)", "--socket", service.socket] + entities.flatMap { ["--entity", $0] })
            follower = process
            Thread.sleep(forTimeInterval: 1.5)
            return process
        }

        func watch(_ entity: String, within seconds: Double = 20, until done: (JobStatus) -> Bool) throws -> [JobStatus] {
            try service.watch("home/\(home.host)/\(entity)", within: seconds, follower: follower!, until: done)
        }

        @Test func aTimerCountsDownAndTakesTheButton() throws {
            _ = try follow(["timer.tea"])
            try home.call("timer.start", #"{"entity_id": "timer.tea", "duration": "00:00:40"}"#)
            let running = try watch("timer.tea") { $0.phase == "active" && $0.etaSeconds != nil }
            #expect(running.last?.label == "Tea ☕", "the friendly name: \(running)")
            #expect((running.last?.etaSeconds ?? 0) > 30, "\(running)")
            _ = try service.press(long: false)
            _ = try watch("timer.tea", within: 10) { $0.phase == "paused" }
            #expect(BackgroundProcess.eventually(within: 5) { (try? home.state("timer.tea")) == "paused" })
            _ = try service.press(long: false)
            _ = try watch("timer.tea", within: 10) { $0.phase == "active" }
            _ = try service.press(long: true)
            #expect(try watch("timer.tea", within: 10) { $0.isOver }.last?.phase == "cancelled")
            #expect(try home.state("timer.tea") == "idle")
        }

        /// Told over Home Assistant's WebSocket: with a minute between the looks of its own, a
        /// timer started in Home Assistant reaches the display within moments.
        @Test func aTimerStartedIsShownAtOnceThoughLooksAreAMinuteApart() throws {
            let told = try follow(["timer.tea"], interval: 60)
            #expect(BackgroundProcess.eventually(within: 10) { told.stderr.contains("told of changes over its WebSocket") }, "\(told.stderr)")
            Thread.sleep(forTimeInterval: 1)
            try home.call("timer.start", #"{"entity_id": "timer.tea", "duration": "00:00:40"}"#)
            let started = Date()
            _ = try watch("timer.tea") { $0.phase == "active" }
            let shown = Date().timeIntervalSince(started)
            #expect(shown < TestTime.scaled(3), "shown \(shown) s after the timer started: \(told.stderr)")
        }

        @Test func aShortTimerRunsOut() throws {
            _ = try follow(["timer.tea"])
            try home.call("timer.start", #"{"entity_id": "timer.tea", "duration": "00:00:04"}"#)
            #expect(try watch("timer.tea") { $0.isOver }.last?.phase == "succeeded")
        }

        @Test func aPercentageSensorDrivenByAnInputNumber() throws {
            _ = try follow(["sensor.printer_progress"])
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 30}"#)
            #expect(try watch("sensor.printer_progress") { $0.percent == 30 }.last?.label == "Printer progress")
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 75}"#)
            _ = try watch("sensor.printer_progress") { $0.percent == 75 }
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 100}"#)
            #expect(try watch("sensor.printer_progress") { $0.isOver }.last?.phase == "succeeded")
        }

        @Test func aWashersMinutesAndItsRunningSensor() throws {
            _ = try follow(["sensor.washer_remaining_time", "binary_sensor.washer"])
            try home.call("input_boolean.turn_on", #"{"entity_id": "input_boolean.washer_running"}"#)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.washer_minutes", "value": 45}"#)
            let running = try watch("binary_sensor.washer") { $0.phase == "active" }
            #expect(running.last?.percent == nil, "on/off is indeterminate: \(running)")
            // The job begins, then takes its time left: watched until both are there.
            let minutes = try watch("sensor.washer_remaining_time") { $0.total == 2700 && $0.etaSeconds != nil }
            #expect(minutes.last?.percent == 0 && (2600...2700).contains(minutes.last?.etaSeconds ?? 0), "45 minutes left: \(minutes)")
            try home.call("input_number.set_value", #"{"entity_id": "input_number.washer_minutes", "value": 15}"#)
            let third = try watch("sensor.washer_remaining_time") { $0.value == 1800 }.last
            #expect(third?.total == 2700 && (800...900).contains(third?.etaSeconds ?? 0), "a third of the largest time left: \(String(describing: third))")
            try home.call("input_number.set_value", #"{"entity_id": "input_number.washer_minutes", "value": 0}"#)
            try home.call("input_boolean.turn_off", #"{"entity_id": "input_boolean.washer_running"}"#)
            #expect(try watch("sensor.washer_remaining_time") { $0.isOver }.last?.phase == "succeeded")
            #expect(try watch("binary_sensor.washer") { $0.isOver }.last?.phase == "succeeded")
        }

        @Test func anUpdateInstalling() throws {
            _ = try follow(["update.hall_light_firmware"])
            try home.call("input_number.set_value", #"{"entity_id": "input_number.firmware_percentage", "value": 20}"#)
            try home.call("input_boolean.turn_on", #"{"entity_id": "input_boolean.firmware_installing"}"#)
            let installing = try watch("update.hall_light_firmware") { $0.percent == 20 }
            #expect(installing.last?.label == "Hall light firmware: installing 1.1.0", "\(installing)")
            try home.call("input_number.set_value", #"{"entity_id": "input_number.firmware_percentage", "value": 100}"#)
            _ = try watch("update.hall_light_firmware") { $0.value == 100 }
            try home.call("input_boolean.turn_off", #"{"entity_id": "input_boolean.firmware_installing"}"#)
            #expect(try watch("update.hall_light_firmware") { $0.isOver }.last?.phase == "succeeded")
        }

        @Test func aRevokedTokenReadsStaleUntilTheFileHoldsAGoodOne() throws {
            let (token, id) = try home.newToken("headway follower test \(UUID().uuidString.prefix(8))")
            let file = try home.ownTokenFile(token)
            let process = try follow(["sensor.printer_progress"], tokenFile: file)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 40}"#)
            _ = try watch("sensor.printer_progress") { $0.percent == 40 }
            try home.revoke(id)
            _ = try watch("sensor.printer_progress") { $0.phase == "stale" }
            let refused = process.stderr.split(separator: "\n").filter { $0.contains("refused the token") }
            #expect(refused.count == 1, "one line with the fix: \(process.stderr)")
            #expect(refused.first?.contains("long-lived access token") == true)
            try (home.token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 60}"#)
            _ = try watch("sensor.printer_progress", within: 30) { $0.percent == 60 && $0.phase == "active" }
            #expect(process.stderr.contains("took the new token"), "\(process.stderr)")
        }
    }
}

extension TestHome {
    /// An entity's state, as the REST API reads it.
    func state(_ entity: String) throws -> String {
        let body = try PrinterServers.call("GET", "\(url)/api/states/\(entity)", headers: ["Authorization: Bearer \(token)"]).body
        return ((try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["state"] as? String) ?? "?"
    }
}
