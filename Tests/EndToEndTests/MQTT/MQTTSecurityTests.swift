import Foundation
import HeadwayMQTT
import HeadwayProtocol
import Testing

extension EndToEnd {
/// Who may talk to the broker and about which jobs: a real mosquitto with a password file, an
/// access list per repository, and TLS with a CA made for the test.
@Suite("MQTT: logins, access rules and TLS", .enabled(if: try MosquittoBroker.needed, "mosquitto is not installed (Scripts/test installs it)"))
struct MQTTSecurityTests {
    /// A password file (mosquitto_passwd) and the access list: each repository's runner may
    /// write its own jobs only; the display may read them all.
    static func lockedBroker() throws -> MosquittoBroker {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        let passwords = folder.appendingPathComponent("passwords")
        for (index, (user, password)) in [("widgets-runner", "w1dgets"), ("gadgets-runner", "g4dgets"), ("display", "d1splay")].enumerated() {
            let made = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/mosquitto_passwd"), (index == 0 ? ["-c"] : []) + ["-b", passwords.path, user, password])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let acl = folder.appendingPathComponent("acl")
        try """
            user widgets-runner
            topic readwrite headway/v1/jobs/acme%2Fwidgets/#
            user gadgets-runner
            topic readwrite headway/v1/jobs/acme%2Fgadgets/#
            user display
            topic read headway/v1/jobs/#
            topic write headway/v1/jobs/+/+/command
            topic readwrite headway/v1/displays/#
            topic readwrite homeassistant/#

            """.write(to: acl, atomically: true, encoding: .utf8)
        return try MosquittoBroker(extra: "allow_anonymous false\npassword_file \(passwords.path)\nacl_file \(acl.path)\n")
    }

    static func login(_ user: String, _ password: String, in folder: URL) throws -> [String: String] {
        let file = folder.appendingPathComponent("\(user).password")
        try (password + "\n").write(to: file, atomically: true, encoding: .utf8)
        return ["HEADWAY_BROKER_USER": user, "HEADWAY_BROKER_PASSWORD_FILE": file.path]
    }

    @Test func withoutTheRightPasswordTheBrokerRefusesAndTheHookGoesOn() throws {
        let broker = try Self.lockedBroker()
        let anonymous = try runner(broker, ["--job", "j", "begin"])
        #expect(anonymous.status == 0 && anonymous.stderr.contains("refused the connection: Connection Refused: not authorised."), "\(anonymous.stderr)")
        let wrong = try runner(broker, ["--job", "j", "begin"], environment: ["HEADWAY_BROKER_USER": "widgets-runner", "HEADWAY_BROKER_PASSWORD": "guess"])
        #expect(wrong.status == 0 && wrong.stderr.contains("refused the connection"), "\(wrong.stderr)")
        let right = try runner(broker, ["--job", "j", "begin"], environment: try Self.login("widgets-runner", "w1dgets", in: broker.folder))
        #expect(right.status == 0 && right.stderr.isEmpty, "\(right.stderr)")
        let missing = try runner(broker, ["--job", "j", "begin"], environment: ["HEADWAY_BROKER_USER": "display", "HEADWAY_BROKER_PASSWORD_FILE": "/nonexistent"])
        #expect(missing.stderr.contains("cannot read the password file /nonexistent"), "\(missing.stderr)")
    }

    /// A runner allowed to report for one repository cannot drive another's jobs.
    @Test func aRunnerReportsForItsOwnRepositoryOnly() throws {
        let broker = try Self.lockedBroker()
        let display = try MQTTDisplay(broker: broker, environment: try Self.login("display", "d1splay", in: broker.folder))
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") }, "\(display.bridge.stderr)")
        let widgets = try Self.login("widgets-runner", "w1dgets", in: broker.folder)
        try runner(broker, source: "acme/widgets", ["--job", "build", "begin", "--label", "Widgets"], environment: widgets)
        // The same runner's credentials, claiming to report for gadgets: the broker drops it.
        try runner(broker, source: "acme/gadgets", ["--job", "build", "begin", "--label", "Not yours"], environment: widgets)
        #expect(BackgroundProcess.eventually(within: 3) { (try? display.service.status().map(\.job)) == ["acme/widgets/build"] })
        TestTime.sleep(0.5)
        #expect(try display.service.status().map(\.job) == ["acme/widgets/build"], "the gadgets job never arrived")
        // Gadgets' own runner may.
        try runner(broker, source: "acme/gadgets", ["--job", "build", "begin", "--label", "Gadgets"], environment: try Self.login("gadgets-runner", "g4dgets", in: broker.folder))
        #expect(BackgroundProcess.eventually(within: 3) { (try? display.service.status().count) == 2 })
    }

    /// A runner's login cannot stop another repository's command nor press a display's button;
    /// the display's own button can.
    @Test func onlyADisplayMayStopAJob() throws {
        let broker = try Self.lockedBroker()
        let display = try MQTTDisplay(broker: broker, name: "hall", environment: try Self.login("display", "d1splay", in: broker.folder), arguments: ["--home-assistant"])
        #expect(display.connected(), "\(display.bridge.stderr)")
        let gadgets = try runnerCommand(broker, source: "acme/gadgets", job: "build", "echo 1/10; exec sleep \(Int(TestTime.scaled(30)))", environment: try Self.login("gadgets-runner", "g4dgets", in: broker.folder))
        #expect(BackgroundProcess.eventually(within: 5) { display.percent(of: "acme/gadgets/build") == 10 }, "\(gadgets.stderr) \(display.bridge.stderr)")
        #expect(BackgroundProcess.eventually(within: 5) { display.phase(of: "acme/gadgets/build") == "active" }, "shown: past the grace delay")
        let widgets = (name: "widgets-runner", password: "w1dgets")
        try broker.publish("headway/v1/jobs/acme%2Fgadgets/build/command", Request.stop(job: "build").line, user: widgets)
        try broker.publish(HomeAssistantDiscovery(display: "hall").cancelTopic, HomeAssistantDiscovery.pressPayload, user: widgets)
        TestTime.sleep(1)
        #expect(gadgets.waitForExit(seconds: 0) == nil, "the command still runs: \(gadgets.stderr)")
        #expect(display.phase(of: "acme/gadgets/build") != "cancelled")
        _ = try display.service.press(long: true)
        #expect(gadgets.waitForExit() != nil, "the display's long press stopped it: \(gadgets.stderr) \(display.bridge.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/gadgets/build") == "cancelled" })
    }

    /// mqtts:// with a CA made here: the runner and the display trust it through HEADWAY_BROKER_CA;
    /// without it (the system's certificates) the handshake fails and the hook still exits 0.
    @Test func tlsWithTheTestsOwnCertificateAuthority() throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "subjectAltName = IP:127.0.0.1, DNS:localhost\n".write(toFile: path("san.cnf"), atomically: true, encoding: .utf8)
        for arguments in [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Headway test CA", "-keyout", path("ca.key"), "-out", path("ca.crt")],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"), "-out", path("server.csr")],
            ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial", "-days", "2", "-extfile", path("san.cnf"), "-out", path("server.crt")],
        ] {
            let made = try SimulatedService.run(openssl, arguments)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let broker = try MosquittoBroker(extra: "allow_anonymous true\ncafile \(path("ca.crt"))\ncertfile \(path("server.crt"))\nkeyfile \(path("server.key"))\n")
        let url = "mqtts://127.0.0.1:\(broker.port)"
        let trusted = ["HEADWAY_BROKER_CA": path("ca.crt")]
        let display = try MQTTDisplay(broker: broker, url: url, environment: trusted)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") }, "\(display.bridge.stderr)")
        let begin = try SimulatedService.run(Binaries.url("headway"), ["--broker", url, "--source", "acme/widgets", "--job", "tls", "begin", "--label", "Over TLS"], environment: trusted)
        #expect(begin.status == 0 && begin.stderr.isEmpty, "\(begin.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/tls") != nil }, "\(display.bridge.stderr)")
        let untrusted = try SimulatedService.run(Binaries.url("headway"), ["--broker", url, "--job", "tls", "set", "3"])
        #expect(untrusted.status == 0 && untrusted.stderr.contains("headway: warning:"), "\(untrusted.stderr)")
        let plain = try SimulatedService.run(Binaries.url("headway"), ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--job", "tls", "set", "3"], environment: trusted)
        #expect(plain.stderr.contains("HEADWAY_BROKER_CA is for mqtts:// brokers"), "\(plain.stderr)")
        try? FileManager.default.removeItem(at: folder)
    }
}
}
