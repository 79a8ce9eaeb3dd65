import HeadwayMQTT
import HeadwayProtocol
import Testing

@Suite("MQTT topics, settings and bridged requests")
struct TopicAndSettingsTests {
    @Test(arguments: ["acme/widgets", "gl-4711", "a+b#c%d", "naïve/ü", "x\u{0}y", "100%"])
    func sourcesAndJobsSurviveTheirTopic(text: String) throws {
        let topic = JobTopics.topic(source: text, job: text, .progress)
        #expect(topic.split(separator: "/").count == 6, "one level each: \(topic)")
        #expect(!topic.dropFirst(JobTopics.jobs.count).contains("+") && !topic.contains("#"))
        let parsed = try #require(JobTopics.parse(topic))
        #expect(parsed.source == text && parsed.job == text && parsed.kind == .progress)
    }

    @Test func otherTopicsAreNotJobs() {
        for topic in ["headway/v1/jobs/a/b", "headway/v1/jobs/a/b/c/begin", "headway/v2/jobs/a/b/begin", "headway/v1/jobs/a/b/explode", "headway/v1/jobs/a/%zz/begin", "headway/v1/jobs//b/begin"] {
            #expect(JobTopics.parse(topic) == nil, "\(topic)")
        }
    }

    @Test func brokerAddressesAndCredentials() throws {
        let plain = try BrokerSettings(url: "mqtt://broker.local", environment: { _ in nil })
        #expect(plain == BrokerSettings(host: "broker.local", port: 1883, tls: false))
        let secure = try BrokerSettings(url: "mqtts://[::1]:8884/", environment: { ["HEADWAY_BROKER_USER": "runner", "HEADWAY_BROKER_PASSWORD": "pw"][$0] })
        #expect(secure.host == "::1" && secure.port == 8884 && secure.tls && secure.user == "runner" && secure.password == "pw")
        #expect(secure.address == "mqtts://::1:8884")
        for (url, message) in [("http://x", "must start with mqtt://"), ("mqtt://u:p@x", "put no user or password"), ("mqtt://x:99999", "must be 1…65535"), ("mqtt://x y", "not a host name"), ("mqtt://", "not a host name")] {
            #expect(throws: BrokerSettings.Problem.self) { try BrokerSettings(url: url, environment: { _ in nil }) }
            do { _ = try BrokerSettings(url: url, environment: { _ in nil }) } catch { #expect(error.description.contains(message), "\(url): \(error)") }
        }
        #expect(throws: BrokerSettings.Problem.self) { try BrokerSettings(url: "mqtt://x", environment: { ["HEADWAY_BROKER_PASSWORD": "pw"][$0] }) }
    }

    /// What a reporter publishes: begin clears what a previous run left, the end clears everything;
    /// a begin carries no process id and says whether its reporter takes commands.
    @Test func publicationsRetainTheStateAndClearItAtTheEnd() throws {
        let begin = try #require(JobPublication.messages(for: .begin(job: "j", BeginOptions(label: "L", pid: 4242)), source: "s"))
        #expect(begin.map(\.topic) == ["headway/v1/jobs/s/j/progress", "headway/v1/jobs/s/j/label", "headway/v1/jobs/s/j/pause", "headway/v1/jobs/s/j/begin"])
        #expect(begin.map(\.payload.isEmpty) == [true, true, true, false] && begin.allSatisfy(\.retained))
        let line = String(decoding: begin[3].payload, as: UTF8.self)
        #expect(!line.contains("pid") && !BridgedRequest.takesCommands(begin[3].payload), "\(line)")
        let commanded = try #require(JobPublication.messages(for: .begin(job: "j", BeginOptions()), source: "s", takesCommands: true)).last!
        #expect(BridgedRequest.takesCommands(commanded.payload))
        #expect(try BridgedRequest.request(topic: commanded.topic, payload: commanded.payload) == .begin(job: "s/j", BeginOptions()), "the display reads it as a begin")
        let end = try #require(JobPublication.messages(for: .finish(job: "j", outcome: .failed), source: "s"))
        #expect(end.map(\.retained) == [false, true, true, true, true] && end.dropFirst().allSatisfy(\.payload.isEmpty))
        #expect(JobPublication.messages(for: .pause(job: "j"), source: "s")?.map(\.topic) == ["headway/v1/jobs/s/j/pause"])
        #expect(JobPublication.messages(for: .stop(job: "j"), source: "s") == nil, "stop is a display's command")
    }

    /// Commands go from displays to reporters: a display ignores them on its subscription, a
    /// reporter takes stop, pause and resume only; a pid sent to a display is dropped.
    @Test func commandsAndProcessIDsAcrossMachines() throws {
        let command = JobPublication.command(.stop(job: "j"), source: "acme/widgets", job: "j")
        #expect(command.topic == "headway/v1/jobs/acme%2Fwidgets/j/command" && !command.retained)
        #expect(try BridgedRequest.request(topic: command.topic, payload: command.payload) == nil)
        #expect(BridgedRequest.command(command.payload) == .stop(job: "j"))
        #expect(BridgedRequest.command(Array(Request.finish(job: "j", outcome: .failed).line.utf8)) == nil)
        #expect(BridgedRequest.command(Array("not json".utf8)) == nil)
        let withPID = Array(#"{"v":1,"op":"begin","job":"j","pid":1}"#.utf8)
        let pidRequest = try BridgedRequest.request(topic: "headway/v1/jobs/s/j/begin", payload: Array(#"{"v":1,"op":"begin","job":"j","pid":4242}"#.utf8))
        #expect(pidRequest == .begin(job: "s/j", BeginOptions()))
        #expect(throws: BridgedRequest.Refusal.self) { try BridgedRequest.request(topic: "headway/v1/jobs/s/j/begin", payload: withPID) }
        #expect(try BridgedRequest.request(topic: "headway/v1/jobs/s/j/pause", payload: Array(Request.resume(job: "x").line.utf8)) == .resume(job: "s/j"))
    }

    /// The topic names the job, its kind must match the request, and the socket's limits hold.
    @Test func bridgedRequestsTakeTheirJobFromTheTopic() throws {
        let payload = Array(Request.update(job: "someone-else", value: 3, total: 10, label: nil).line.utf8)
        let request = try BridgedRequest.request(topic: "headway/v1/jobs/acme%2Fwidgets/gl-1/progress", payload: payload)
        #expect(request == .update(job: "acme/widgets/gl-1", value: 3, total: 10, label: nil))
        #expect(try BridgedRequest.request(topic: "headway/v1/jobs/a/b/progress", payload: []) == nil, "a cleared retained message")
        #expect(throws: BridgedRequest.Refusal.self) { try BridgedRequest.request(topic: "headway/v1/jobs/a/b/label", payload: payload) }
        #expect(throws: BridgedRequest.Refusal.self) { try BridgedRequest.request(topic: "headway/v1/jobs/a/b/begin", payload: [0xFF, 0xFE]) }
        // Ids in the topic are checked as the socket checks them, never cleaned into another id.
        for (topic, problem) in [
            ("headway/v1/jobs/vm/%1b[31m/begin", "job id may not contain control characters"),
            ("headway/v1/jobs/vm/gh%E2%80%8B-1/begin", "job id may not contain invisible characters (U+200B ZERO WIDTH SPACE after \"gh\")"),
            ("headway/v1/jobs/%E2%81%A0/x/begin", "source may not contain invisible characters (U+2060 WORD JOINER"),
            ("headway/v1/jobs/a/" + String(repeating: "j", count: 129) + "/begin", "job id must be 1…128 bytes, not 129"),
        ] {
            #expect {
                try BridgedRequest.request(topic: topic, payload: Array(#"{"v":1,"op":"begin","job":"x"}"#.utf8))
            } throws: { "\($0)".contains(problem) }
        }
        let long = String(repeating: "x", count: 200)
        let id = BridgedRequest.displayJob(source: long, job: "the-end")
        #expect(id.utf8.count <= WireProtocol.maxJobBytes && id.hasPrefix("…") && id.hasSuffix("/the-end"))
    }
}
