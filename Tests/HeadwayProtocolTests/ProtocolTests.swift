import HeadwayCore
import HeadwayProtocol
import Testing

@Suite("Wire protocol")
struct ProtocolTests {
    @Test func jsonRoundTripsAndEscapes() throws {
        let text = #"{"a":[1,2.5,-3,true,false,null],"s":"q\"b\\n\n\t\u0001é😀","o":{}}"#
        let value = try JSONValue.parse(text)
        #expect(value["s"]?.string == "q\"b\\n\n\t\u{01}é😀")
        #expect(try JSONValue.parse(value.text) == value)
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(arguments: ["", "{", "[1,]", #"{"a" 1}"#, "tru", #""abc"#, "1 2", String(repeating: "[", count: 40) + String(repeating: "]", count: 40)])
    func malformedJSONIsRefused(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }

    @Test func requestsRoundTrip() throws {
        let requests: [Request] = [
            .begin(job: "ci-1", label: "Build \"x\"", total: 120), .begin(job: "j", label: nil, total: nil),
            .update(job: "j", value: 42, total: 200, label: "Linking"), .update(job: "j", value: 0.5, total: nil, label: nil),
            .label(job: "j", label: "ok"), .indeterminate(job: "j"), .finish(job: "j", outcome: .cancelled), .status,
            .subscribe(job: nil), .subscribe(job: "j"), .press(long: true), .snapshot(folder: "/tmp/x"),
        ]
        for request in requests { #expect(try Request.parse(request.line) == request) }
    }

    @Test(arguments: [
        (#"{"op":"status"}"#, "v"),
        (#"{"v":2,"op":"status"}"#, "v"),
        (#"{"v":1}"#, "op"),
        (#"{"v":1,"op":"jump"}"#, "op"),
        (#"{"v":1,"op":"update","job":"j"}"#, "value"),
        (#"{"v":1,"op":"update","job":"j","value":"ten"}"#, "value"),
        (#"{"v":1,"op":"update","job":"j","value":-1}"#, "value"),
        (#"{"v":1,"op":"begin","job":"j","total":0}"#, "total"),
        (#"{"v":1,"op":"begin","job":""}"#, "job"),
        (#"{"v":1,"op":"begin"}"#, "job"),
        (#"{"v":1,"op":"finish","job":"j","outcome":"won"}"#, "outcome"),
        (#"{"v":1,"op":"label","job":"j","label":7}"#, "label"),
    ])
    func invalidRequestsNameTheField(line: String, field: String) {
        #expect { try Request.parse(line) } throws: { ($0 as! ProtocolError).field == field }
    }

    @Test func limits() {
        let long = String(repeating: "x", count: WireProtocol.maxLabelLength + 1)
        #expect { try Request.parse(#"{"v":1,"op":"label","job":"j","label":"\#(long)"}"#) } throws: {
            ($0 as! ProtocolError).message.contains("limit is \(WireProtocol.maxLabelLength)")
        }
        let huge = #"{"v":1,"op":"status","pad":""# + String(repeating: "x", count: 5000) + #""}"#
        #expect { try Request.parse(huge) } throws: { ($0 as! ProtocolError).message.contains("4096") }
    }

    @Test func repliesAndEventsRoundTrip() {
        let jobs = [JobStatus(job: "a", label: "Build", phase: "active", percent: 42, value: 42, total: 100, etaSeconds: 12)]
        #expect(Reply.parse(Reply.jobs(jobs).line) == .jobs(jobs))
        #expect(Reply.parse(Reply.ok.line) == .ok)
        let error = ProtocolError(field: "value", "must be 0 or more")
        #expect(Reply.parse(Reply.error(error).line) == .error(error))
        let event = JobEvent(.finished, job: "a", outcome: .failed)
        #expect(JobEvent.parse(event.line) == event)
        #expect(JobEvent.parse(Reply.ok.line) == nil)
    }
}
