import HeadwayProtocol
@testable import HeadwayService
import Testing

/// Every code the service core answers with, each reached by a request: what clients act on is
/// the code, so this table pins codes and fields, never a message's words (rewording a message
/// passes; giving a refusal another meaning fails).
@Suite("Refusal codes")
struct RefusalCodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: ProtocolErrorCode
        var field: String?
        /// Lines sent first (from user 1000 on connection 1), each answered `ok`.
        var before: [String] = []
        /// The line refused, and who sends it.
        var line: String
        var uid: UInt32 = 1000
        var testDescription: String { code.rawValue }
    }

    static let cases: [Case] = [
        Case(code: .malformed, field: nil, line: "{oops"),
        Case(code: .malformed, field: nil, line: "[1,2]"),
        Case(code: .lineTooLong, field: nil, line: #"{"v":1,"op":"label","job":"j","label":""# + String(repeating: "x", count: 5000) + #""}"#),
        Case(code: .unsupportedVersion, field: "v", line: #"{"op":"status"}"#),
        Case(code: .unsupportedVersion, field: "v", line: #"{"v":2,"op":"status"}"#),
        Case(code: .unknownOperation, field: "op", line: #"{"v":1,"op":"jump"}"#),
        Case(code: .unknownOperation, field: "op", line: #"{"v":1}"#),
        Case(code: .invalidMember, field: "outcome", line: #"{"v":1,"op":"finish","job":"j","outcome":"won"}"#),
        Case(code: .invalidMember, field: "value", line: #"{"v":1,"op":"update","job":"j","value":"ten"}"#),
        Case(code: .invalidMember, field: "percent", line: #"{"v":1,"op":"update","job":"j","value":1,"percent":5}"#),
        Case(code: .invalidMember, field: "controls", line: #"{"v":1,"op":"subscribe","controls":true}"#),
        Case(code: .outOfRange, field: "value", line: #"{"v":1,"op":"update","job":"j","value":-1}"#),
        Case(code: .outOfRange, field: "total", line: #"{"v":1,"op":"begin","job":"j","total":0}"#),
        Case(code: .outOfRange, field: "until", line: #"{"v":1,"op":"begin","job":"j","until":1000}"#),
        Case(code: .outOfRange, field: "heartbeat", line: #"{"v":1,"op":"begin","job":"j","heartbeat":0.5}"#),
        Case(code: .invalidIdentifier, field: "job", line: #"{"v":1,"op":"begin","job":""}"#),
        Case(code: .invalidIdentifier, field: "name", line: #"{"v":1,"op":"begin","job":"j","name":"a\u200bb"}"#),
        Case(code: .noSuchJob, field: "job", line: Request.update(job: "ghost", value: 1, total: nil, label: nil).line),
        Case(code: .noSuchJob, field: "job", line: Request.pause(job: "ghost").line),
        Case(code: .jobFinished, field: "op", before: [Request.begin(job: "j", label: nil, total: 5).line, Request.finish(job: "j", outcome: .succeeded).line],
             line: Request.update(job: "j", value: 1, total: nil, label: nil).line),
        Case(code: .alreadyDeterminate, field: "op", before: [Request.begin(job: "j", label: nil, total: 5).line], line: Request.indeterminate(job: "j").line),
        Case(code: .notPermitted, field: "job", before: [Request.begin(job: "j", label: nil, total: nil).line],
             line: Request.finish(job: "j", outcome: .failed).line, uid: 1001),
        Case(code: .notControllable, field: "job", before: [Request.begin(job: "j", label: nil, total: nil).line], line: Request.pause(job: "j").line),
        Case(code: .noSuchProcess, field: "pid", line: Request.begin(job: "j", BeginOptions(pid: 4_194_303)).line),
        Case(code: .limitReached, field: "job", before: (0..<1024).map { Request.subscribe(job: "job-\($0)").line }, line: Request.subscribe(job: "one-more").line),
    ]

    @Test(arguments: cases)
    func eachCodeIsReachedByARequest(_ refusal: Case) {
        let fixture = ServiceCoreTests.Fixture()
        let peer = Peer(connection: 1, credentials: PeerCredentials(pid: 4242, uid: 1000, gid: 1000))
        for line in refusal.before { #expect(fixture.core.handle(line: line, from: peer).reply == Reply.ok.line, "\(line)") }
        let asker = Peer(connection: 1, credentials: PeerCredentials(pid: 4243, uid: refusal.uid, gid: refusal.uid))
        let reply = Reply.parse(fixture.core.handle(line: refusal.line, from: asker).reply)
        guard case .error(let error)? = reply else {
            Issue.record("\(refusal.line.prefix(80)) was answered \(String(describing: reply))")
            return
        }
        #expect(error.code == refusal.code, "\(error)")
        #expect(error.field == refusal.field, "\(error)")
        #expect(!error.message.isEmpty)
    }

    /// A code added to the protocol without a request here that reaches it fails this test. The
    /// three the core cannot send are reached end to end: `busy` by the socket server
    /// (HardeningTests), `unsupported` and `io-error` by the simulator's own operations
    /// (EndToEndTests' refusal codes).
    @Test func everyCodeOfTheProtocolIsInTheTable() {
        let reachedElsewhere: Set<ProtocolErrorCode> = [.busy, .unsupported, .ioError]
        #expect(Set(Self.cases.map(\.code)).union(reachedElsewhere) == Set(ProtocolErrorCode.known))
    }

    /// The codes' wire names are the protocol's (docs/protocol.md lists them): renaming one breaks
    /// every client that knows it.
    @Test func theWireNamesStay() {
        #expect(ProtocolErrorCode.known.map(\.rawValue) == [
            "malformed", "line-too-long", "unsupported-version", "unknown-operation", "invalid-member", "out-of-range", "invalid-identifier",
            "no-such-job", "job-finished", "already-determinate", "not-permitted", "not-controllable", "no-such-process", "limit-reached",
            "busy", "unsupported", "io-error",
        ])
    }
}
