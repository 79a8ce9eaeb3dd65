@testable import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import Testing

/// A hostile or broken server: answers cut short, bytes flipped, wrong shapes, absurd numbers and
/// hostile text, fed to every source. Nothing traps; what is told to the service stays within the
/// protocol's rules (ids it accepts, labels without control characters).
@Suite("Hostile servers")
struct HostileServerTests {
    static let answers: [String] = [
        Payloads.githubRunsText, Payloads.githubJobsText,
        #"[{"id":88,"status":"running","ref":"main"}]"#, #"[{"name":"unit","stage":"test","status":"running","started_at":"2026-11-26T09:00:00Z"}]"#,
        #"{"displayName":"w","inQueue":true,"nextBuildNumber":9,"builds":[{"number":8,"building":true,"timestamp":1795683600000,"estimatedDuration":600000}]}"#,
        #"<Projects><Project name="w" activity="Building" lastBuildStatus="Success"/></Projects>"#,
        #"{"builders":[{"builderid":1}],"builds":[{"buildid":9,"number":9,"buildrequestid":9,"complete":false,"started_at":1795683600}],"steps":[{"name":"a","complete":false}],"buildrequests":[{"buildrequestid":3}]}"#,
        #"{"workflow_runs":[{"id":1e300,"run_number":-5,"status":"in_progress","run_started_at":"9999-99-99T99:99:99Z","name":"\u001b]0;pwned\u0007\u202e"}]}"#,
        #"{"jobs":[{"name":"\u0000\u009b2J","status":"in_progress","steps":[{"name":"x","number":1e308,"status":"in_progress"}]}]}"#,
        #"{"builds":[{"buildid":-1,"number":1e20,"buildrequestid":"x","complete":"yes"}]}"#,
        "[" + String(repeating: "[", count: 40) + "]",
        #"{"job":{"file":{"name":"\u001b[2Jx.gcode","display":"\u202eevil"}},"progress":{"completion":1e308,"printTime":-5,"printTimeLeft":1e300,"printTimeLeftOrigin":"\u0007"},"state":"Printing","temperature":{"tool0":{"actual":1e308,"target":-1},"bed":{"actual":"hot","target":60}}}"#,
        #"{"result":{"status":{"print_stats":{"state":"printing","filename":"\u0000a/b.gcode","print_duration":-1e300,"info":{"current_layer":1e20,"total_layer":-3}},"virtual_sdcard":{"progress":7},"display_status":{"progress":-0.5},"extruder":{"temperature":20,"target":200}},"jobs":[{"filename":"x","status":"completed","print_duration":1e308}],"estimated_time":-4}}"#,
        #"{"entity_id":"timer.tea","state":"active","attributes":{"friendly_name":"\u001b]0;pwned\u0007","duration":"99999999:99:99","finishes_at":"9999-99-99T00:00:00Z","remaining":"-1:00:00","in_progress":true,"update_percentage":1e400,"unit_of_measurement":"min"}}"#,
        #"{"entity_id":"sensor.w","state":"1e308","attributes":{"unit_of_measurement":"d","device_class":"duration"}}"#,
    ]

    static func sources() throws -> [any CISource] {
        [try GitHubSource(repository: "acme/widgets"), try GitLabSource(project: "g/w"), try JenkinsSource(job: "https://ci/job/w"),
         try CCTraySource(url: "https://ci/cc.xml"), try BuildbotSource(url: "http://bb/", builder: "b"),
         try OctoPrintSource(url: "http://octopi"), try MoonrakerSource(url: "http://voron:7125"),
         try HomeAssistantSource(url: "http://ha:8123", entities: ["timer.tea", "sensor.w", "update.u", "binary_sensor.b", "sensor.p=percent"].map { try HomeEntity(parsing: $0) })]
    }

    @Test func mangledAnswersNeverTrapAndStayWithinTheRules() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            for source in try Self.sources() {
                var follower = Follower(source: source, policy: PollingPolicy(running: 1, idle: 1, budget: 1_000_000))
                let server = CannedServer { _ in
                    var bytes = Array(Self.answers.randomElement(using: &generator)!.utf8)
                    switch round % 4 {
                    case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                    case 1: for _ in 0..<3 where !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                    case 2: bytes += bytes
                    default: break
                    }
                    return .success(HTTPResponse(status: [200, 200, 200, 304, 404, 500].randomElement(using: &generator)!, body: bytes))
                }
                for look in 0..<3 {
                    let step = server.look(&follower, at: Moment(monotonic: Double(look) * 100, wall: Payloads.base + Double(look) * 100))
                    for request in step.jobRequests {
                        guard let line = try? Request.parse(request.line) else {
                            Issue.record("the service would refuse \(request.line)")
                            continue
                        }
                        #expect(line == request)
                        if case .begin(let job, let options) = request {
                            #expect(Identifier.problem(job) == nil)
                            #expect(options.label.map { DisplayText.sanitised($0) == $0 } ?? true, "\(options.label ?? "")")
                        }
                    }
                    for text in step.log { #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "\(text)") }
                }
            }
        }
    }
}
